from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignupForm(UserCreationForm):
    """Username, optional e-mail, password twice (checked by AUTH_PASSWORD_VALIDATORS)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("language", "pip_colour", "email_notifications")
        widgets = {"pip_colour": forms.RadioSelect, "language": forms.RadioSelect}
