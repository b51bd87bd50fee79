"""The rules for a new username (settings: ``ACCOUNT_USERNAME_VALIDATORS``, which
allauth's sign-up form and the sign-up API both apply).

- Django's username characters, with the site's own wording in "tú" (Django's Spanish
  catalogue says "Introduza…", Portuguese and "usted").
- No ``@``: other players see the name, and a name that is an e-mail address
  (``carol@example.com``) could pass for its owner. Existing names are untouched: the
  model's own validator still allows ``@``.
"""

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

username_validators = [
    UnicodeUsernameValidator(
        message=_("Escribe un nombre de usuario válido: solo letras, números y los signos . + - _.")
    ),
    RegexValidator(
        r"@",
        inverse_match=True,
        message=_(
            "El nombre de usuario no puede llevar @: los demás jugadores lo ven, y no debe "
            "parecer una dirección de correo."
        ),
        code="username_at",
    ),
]
