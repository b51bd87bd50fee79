"""The admin's URL lookups: only the ones an admin declares.

Django's admin turns any query-string parameter naming a local field (or one relation
hop) into a filter: ``/admin/tables/hand/?seed__startswith=ab`` counts the hands whose
hidden seed starts with ``ab``, and repeated with every prefix reads the seed of a running
hand. ``DeclaredLookupsOnly`` accepts only the parameters its
``list_filter`` entries and ``date_hierarchy`` expect; any other lookup raises Django's
``DisallowedModelAdminLookup`` (a 400) before the changelist queries anything.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import FieldListFilter
from django.contrib.admin.utils import get_fields_from_path
from django.db.models import Field

_CACHE_ATTRIBUTE = "_declared_admin_lookups"


class DeclaredLookupsOnly:
    """ModelAdmin mixin: the changelist accepts a lookup only if a declared list filter
    or the date hierarchy uses it.

    Search (``?q=``), ordering (``?o=``) and paging are not lookups and are unaffected;
    what they reach is what ``search_fields`` and ``list_display`` name.
    """

    def lookup_allowed(self, lookup: str, value: str, request=None) -> bool:
        """True when ``lookup`` (a query-string key such as ``status__exact``) is one of
        ``declared_lookups(request)``; the value plays no part."""
        return lookup in self.declared_lookups(request)

    def declared_lookups(self, request) -> frozenset[str]:
        """The query-string keys this admin's list filters and date hierarchy read:
        e.g. ``{"status__exact", "status__isnull", "created_at__year", ...}``.

        Built from the filters themselves (``expected_parameters()``), once per request.
        """
        cache = getattr(request, _CACHE_ATTRIBUTE, None)
        if cache is None:
            cache = {}
            if request is not None:
                setattr(request, _CACHE_ATTRIBUTE, cache)
        key = type(self).__qualname__
        if key not in cache:
            cache[key] = frozenset(self._expected_parameters(request))
        return cache[key]

    def _expected_parameters(self, request) -> set[str]:
        list_filter = self.get_list_filter(request) if request is not None else self.list_filter
        names: set[str] = set()
        for item in list_filter:
            if isinstance(item, (list, tuple)):
                field, filter_class = item
            elif callable(item) and not isinstance(item, str):
                # A SimpleListFilter (or any filter class built from the request alone).
                names.update(item(request, {}, self.model, self).expected_parameters())
                continue
            else:
                field, filter_class = item, FieldListFilter.create
            field_path = None
            if not isinstance(field, Field):
                field_path = field
                field = get_fields_from_path(self.model, field_path)[-1]
            spec = filter_class(field, request, {}, self.model, self, field_path=field_path)
            names.update(spec.expected_parameters())
        if self.date_hierarchy:
            names.update(f"{self.date_hierarchy}__{part}" for part in ("year", "month", "day"))
        return {name for name in names if name}


class ReadOnlyAdmin(DeclaredLookupsOnly, admin.ModelAdmin):
    """A changelist of hidden-data rows that only shows them: declared lookups only, and
    no add, change or delete (no save buttons)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
