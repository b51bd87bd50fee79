"""The moderators' view of the native apps' phones (django-push-notifications' device
rows), instead of the library's own admin, which shows every token whole and can send
test pushes: read only, the token shown by its last 6 characters, searchable by person
only (a token search would let someone spell a token out a character at a time)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import format_html
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


class ActiveFilter(admin.BooleanFieldListFilter):
    """The "active" filter under the site's own word (the library's field says "Is
    active", in English only)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.title = _("activo")


class DeviceAdmin(ReadOnlyAdmin):
    """A phone: whose, its name, the token's end, whether active, when registered.

    The columns and fields are this admin's own, with Spanish labels (English in
    locale/en): the library's field names are English words outside any catalogue
    ("user") or English phrases ("Is active", "Creation date"), and giving its fields other
    verbose names would be a migration inside the library."""

    list_display = ("owner", "device_name", "token", "is_active", "registered")
    list_filter = (("active", ActiveFilter),)
    search_fields = ("user__username", "name")
    fields = ("owner_link", "device_name", "token", "is_active", "registered")
    readonly_fields = fields
    ordering = ("-date_created",)

    @admin.display(description=_("usuario"), ordering="user__username")
    def owner(self, device):
        return device.user

    @admin.display(description=_("usuario"))
    def owner_link(self, device):
        """The owner, linked to their page in the admin (as a read-only foreign key is)."""
        if device.user is None:
            return self.get_empty_value_display()
        meta = device.user._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[device.user_id])
        return format_html('<a href="{}">{}</a>', url, device.user)

    @admin.display(description=_("nombre"), ordering="name")
    def device_name(self, device) -> str:
        return device.name

    @admin.display(description=_("token"))
    def token(self, device) -> str:
        return token_end(device)

    @admin.display(description=_("activo"), boolean=True, ordering="active")
    def is_active(self, device) -> bool:
        return device.active

    @admin.display(description=_("registrado"), ordering="date_created")
    def registered(self, device) -> str:
        """When the phone was first registered, in the reader's time zone and format."""
        if device.date_created is None:
            return self.get_empty_value_display()
        return formats.localize(timezone.template_localtime(device.date_created))


admin.site.register(GCMDevice, DeviceAdmin)
admin.site.register(APNSDevice, DeviceAdmin)
