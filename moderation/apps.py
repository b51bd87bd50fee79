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
        from accounts import hooks
        from moderation import account_data, services
        from tables import guards

        guards.register(services.refuse_if_suspended)
        # /me says when a suspension ends; the data download holds the player's talk
        # messages and reports (accounts.hooks: accounts does not import this app).
        hooks.add_me_fact("suspended_until", account_data.suspended_until)
        hooks.add_export_part("talk_messages", account_data.talk_messages_exported)
        hooks.add_export_part("reports_made", account_data.reports_made_exported)
