import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from accounts.models import User


@pytest.mark.django_db
def test_it_creates_the_demo_user_once(capsys):
    call_command("demo_user")
    call_command("demo_user")

    assert User.objects.filter(username="demo").count() == 1
    assert authenticate(username="demo", password="demo-pass-1234") is not None
    assert "password=demo-pass-1234" in capsys.readouterr().out
