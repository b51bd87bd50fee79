from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Preferencias"), {"fields": ("language", "pip_colour", "email_notifications")}),
    )
    list_display = ("username", "email", "is_active", "is_staff", "language", "date_joined")
    list_filter = (*DjangoUserAdmin.list_filter, "language", "email_notifications")
    actions = ["deactivate_users"]

    @admin.action(description=_("Desactivar los usuarios seleccionados"))
    def deactivate_users(self, request, queryset):
        # Deactivating, not deleting: their moves stay in the tables' history.
        count = queryset.filter(is_active=True).update(is_active=False)
        self.message_user(
            request,
            ngettext("%(count)d usuario desactivado.", "%(count)d usuarios desactivados.", count)
            % {"count": count},
            messages.SUCCESS,
        )
