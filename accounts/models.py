"""The player: Django's user plus the preferences the game needs."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    class PipColour(models.TextChoices):
        COLOURED = "coloured", _("En colores")
        BLACK = "black", _("Negros")

    class Language(models.TextChoices):
        ES = "es", _("Español")
        EN = "en", _("English")

    email_notifications = models.BooleanField(
        _("avisos por correo"),
        default=True,
        help_text=_("Recibir un correo cuando sea tu turno o termine una partida."),
    )
    pip_colour = models.CharField(
        _("color de los puntos"),
        max_length=16,
        choices=PipColour.choices,
        default=PipColour.COLOURED,
    )
    language = models.CharField(
        _("idioma"),
        max_length=8,
        choices=Language.choices,
        default=Language.ES,
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
