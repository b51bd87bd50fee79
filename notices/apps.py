from django.apps import AppConfig


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = "Avisos"

    def ready(self) -> None:
        # The notices follow from the table events (tables.events): subscribe their
        # writers (which import notices' tasks, so the Celery registry knows them) in every
        # process that delivers events, the web one included; and fill what tables fetches
        # and tells without importing notices: the unread notices at a table
        # (tables.unread) and a person arriving at one (tables.arrivals).
        from accounts import hooks, time_zones
        from core.table_reads import table_was_read
        from notices import departures, selectors, subscribers
        from notices.table_reads import record_table_reads

        subscribers.register()
        # A player's zone is saved with their notice preferences; every app reads it
        # through accounts.time_zones, which may not import this app.
        time_zones.read_zones_with(selectors.saved_time_zone)
        # /me counts the unread notices; a deleted player's name leaves the others'.
        hooks.add_me_fact("unread_notifications", selectors.unread_count)
        hooks.add_deletion_step("forget", departures.unname_deleted_player)
        # A read of a table is recorded here once its answer has gone (core.table_reads):
        # presence, the seen version, the table's notices read.
        table_was_read.connect(record_table_reads, dispatch_uid="notices.table_reads")
