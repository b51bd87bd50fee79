from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Table talk, reports and the moderators' actions (docs/moderation.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    verbose_name = _("Moderación")

    def ready(self) -> None:
        # A suspended player may not take a seat: tables asks its player guards before it
        # creates or joins a table (tables.guards), without importing this app.
        from moderation import services
        from tables import guards

        guards.register(services.refuse_if_suspended)
