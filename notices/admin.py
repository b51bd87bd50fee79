"""The moderators' view of the native apps' phones (django-push-notifications' device
rows), instead of the library's own admin, which shows every token whole and can send
test pushes: read only, the token shown by its last 6 characters, searchable by person
only (a token search would let someone spell a token out a character at a time)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from push_notifications import admin as library_admin  # noqa: F401 (registers first)
from push_notifications.models import APNSDevice, GCMDevice, WebPushDevice, WNSDevice

from core.admin_lookups import ReadOnlyAdmin

for library_model in (GCMDevice, APNSDevice, WebPushDevice, WNSDevice):
    if admin.site.is_registered(library_model):
        admin.site.unregister(library_model)


def token_end(device) -> str:
    """The token's last 6 characters after an ellipsis: enough to tell two phones of one
    person apart, never enough to push to one."""
    return f"…{device.registration_id[-6:]}"


class DeviceAdmin(ReadOnlyAdmin):
    """A phone: whose, its name, the token's end, whether active, when registered."""

    list_display = ("user", "name", "token", "active", "date_created")
    list_filter = ("active",)
    search_fields = ("user__username", "name")
    fields = ("user", "name", "token", "active", "date_created")
    readonly_fields = fields
    ordering = ("-date_created",)

    @admin.display(description=_("token"))
    def token(self, device) -> str:
        return token_end(device)


admin.site.register(GCMDevice, DeviceAdmin)
admin.site.register(APNSDevice, DeviceAdmin)
