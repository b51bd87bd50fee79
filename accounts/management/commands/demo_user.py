from django.core.management.base import BaseCommand

from accounts.models import User

USERNAME = "demo"
PASSWORD = "demo-pass-1234"


class Command(BaseCommand):
    help = "Create (or reset) the local demo account and print its credentials."

    def handle(self, *args, **options) -> None:
        user, created = User.objects.get_or_create(username=USERNAME)
        # Reset every time, so the printed credentials are always the ones that work.
        user.set_password(PASSWORD)
        user.is_active = True
        user.save()
        verb = "Created" if created else "Reset"
        self.stdout.write(f"{verb} demo user: username={USERNAME} password={PASSWORD}")
