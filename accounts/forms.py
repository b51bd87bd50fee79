"""Forms of the account pages and API: allauth's, fitted to this site."""

from allauth.account import app_settings as allauth_settings
from allauth.account import forms as allauth_forms
from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User, username_key
from accounts.validators import USERNAME_MAX_LENGTH, lock_look_alikes
from core.json_input import without_nul_check


class UsernameTaken(Exception):
    """Two sign-ups raced for one name (the database's unique ``username_key`` refused
    the second) or for two look-alike names (``lock_look_alikes``
    refused the second). ``message`` is what the second one is told: by default what the
    form's own check says of a taken name (Django's, which allauth's adapter uses)."""

    def __init__(self, name: str, message=None):
        super().__init__(name)
        self.message = message or User._meta.get_field("username").error_messages["unique"]


class EmailLengthMixin:
    """For a form with an ``email`` field that allauth stores: at most
    ``ACCOUNT_EMAIL_MAX_LENGTH`` (254) characters, the columns' length, refused with a
    sentence as the API refuses it (400 there) instead of being cut short (allauth trims
    a sign-up's address to the column, so a 307-character one lost its "@" and a
    verification link went to what was left) or failing at the database (the address
    page: PostgreSQL refuses it, a 500). The browser stops at the limit too."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields.get("email")
        if field is not None:
            limit = allauth_settings.EMAIL_MAX_LENGTH
            field.max_length = limit
            field.widget.attrs["maxlength"] = str(limit)
            field.validators.append(
                MaxLengthValidator(
                    limit,
                    message=_(
                        "La dirección de correo puede tener como mucho %(limit_value)d "
                        "caracteres (esta tiene %(show_value)d)."
                    ),
                )
            )


class CurrentPasswordMixin:
    """For a form with a password the player claims is the account's own
    (``current_password`` names its field): the field keeps a NUL (U+0000), which
    Django's fields refuse with "Los caracteres nulos no están permitidos.", so that the
    form's check refuses it as any wrong password, with its sentence and code
    (``User.check_password``: no password holds one). Nothing of it is stored."""

    current_password = "password"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields[self.current_password]
        field.validators = without_nul_check(field.validators)


class LoginForm(CurrentPasswordMixin, allauth_forms.LoginForm):
    """allauth's sign-in (username or e-mail, with its failed-login limits per address
    and per account), on the page and in the API. A form or client that still posts
    ``username`` instead of ``login`` is read the same way. A password holding a NUL is
    a wrong one (``CurrentPasswordMixin``); the login keeps Django's NUL refusal."""

    def __init__(self, *args, **kwargs):
        data = kwargs.get("data", args[0] if args else None)
        if data is not None and "login" not in data and "username" in data:
            data = data.copy()
            data["login"] = data["username"]
            if args:
                args = (data, *args[1:])
            else:
                kwargs["data"] = data
        super().__init__(*args, **kwargs)


class ChangePasswordForm(CurrentPasswordMixin, allauth_forms.ChangePasswordForm):
    """allauth's password change (its page and the API's): a current password holding a
    NUL is "Escribe tu contraseña actual." as any wrong one (``CurrentPasswordMixin``)."""

    current_password = "oldpassword"


class ReauthenticateForm(CurrentPasswordMixin, allauth_forms.ReauthenticateForm):
    """allauth's "confirm it is you" page: a password holding a NUL is "La contraseña no
    es correcta." as any wrong one (``CurrentPasswordMixin``)."""


class AddEmailForm(EmailLengthMixin, allauth_forms.AddEmailForm):
    """allauth's "add an address" (the e-mail page), with the address's length checked
    (``EmailLengthMixin``)."""


class SignupForm(EmailLengthMixin, allauth_forms.SignupForm):
    """Username, e-mail (required for new accounts, at most 254 characters:
    ``EmailLengthMixin``), password twice.

    An address another account already uses is accepted like any other
    (``ACCOUNT_PREVENT_ENUMERATION = "strict"``), unverified, so the answer never tells
    whether it has an account; the adapter mails its owner instead of a verification
    link (``accounts.adapter``). A name taken by a racing sign-up, or one that looks
    like a name a racing sign-up took, raises ``UsernameTaken``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The browser stops at the new names' limit; the validator says it to the API.
        self.fields["username"].widget.attrs["maxlength"] = str(USERNAME_MAX_LENGTH)

    def save(self, request):
        name = self.cleaned_data.get("username", "")
        try:
            with transaction.atomic():
                try:
                    lock_look_alikes(name)
                except ValidationError as refusal:
                    raise UsernameTaken(name, refusal.messages[0]) from None
                return super().save(request)
        except IntegrityError:
            if User.objects.filter(username_key=username_key(name)).exists():
                raise UsernameTaken(name) from None
            raise


class SettingsForm(forms.ModelForm):
    """The settings page's first form: language and pip colour. The switch for all
    notice e-mail is in the "Avisos" section's form (``notices.forms``)."""

    class Meta:
        model = User
        fields = ("language", "pip_colour")
        widgets = {"pip_colour": forms.RadioSelect, "language": forms.RadioSelect}


class DeleteAccountForm(CurrentPasswordMixin, forms.Form):
    """Deleting the account is confirmed with the password; one holding a NUL is wrong
    (``CurrentPasswordMixin``)."""

    password = forms.CharField(
        label=_("Contraseña"), strip=False, widget=forms.PasswordInput(render_value=False)
    )

    def __init__(self, *args, user: User, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("La contraseña no es correcta."), code="wrong_password")
        return password
