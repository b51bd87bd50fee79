"""The accounts admin: users, and API tokens without their keys.

Both accept only the URL lookups their list filters declare
(``core.admin_lookups.DeclaredLookupsOnly``): Django would otherwise take
``/admin/accounts/user/?auth_token__key__startswith=ab`` and let result counts spell out
a player's API token, with which one reads that player's tiles.
"""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.admin import TokenAdmin as RestFrameworkTokenAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User
from accounts.validators import refuse_invisible
from core.admin_lookups import DeclaredLookupsOnly
from core.admin_pagination import LargeTableAdmin


class VisibleNameMixin:
    """An admin user form whose new or changed name must hold a letter or digit a
    reader sees (``accounts.validators.refuse_invisible``, as at sign-up). A name made
    before the rule can stay while other fields change."""

    def clean_username(self):
        parent = getattr(super(), "clean_username", None)
        username = parent() if parent is not None else self.cleaned_data.get("username")
        if username and (self.instance.pk is None or username != self.instance.username):
            refuse_invisible(username)
        return username


class UserAddForm(VisibleNameMixin, AdminUserCreationForm):
    pass


class UserEditForm(VisibleNameMixin, UserChangeForm):
    pass


@admin.register(User)
class UserAdmin(LargeTableAdmin, DeclaredLookupsOnly, DjangoUserAdmin):
    form = UserEditForm
    add_form = UserAddForm
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Preferencias"), {"fields": ("language", "pip_colour", "email_notifications")}),
    )
    list_display = ("username", "email", "is_active", "is_staff", "language", "date_joined")
    list_filter = (*DjangoUserAdmin.list_filter, "language", "email_notifications")
    # The list's bulk deactivation is a moderation action (a reason, the moderation log,
    # the rule on whom a moderator may act): moderation.admin.users adds it.


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class TokenAdmin(DeclaredLookupsOnly, RestFrameworkTokenAdmin):
    """DRF's token admin (see who has a token, revoke it) without the key column: a token
    is a player's password, and with it their tiles."""

    list_display = ("user", "created")
