"""The admin never reveals a running hand (R31, R6) to staff without
``tables.view_hidden_hands``: not by value, not by a result count, not by ordering, not by
search, and not by how long a refused request takes.

Issue 13, finding 1: Django's admin accepts a URL lookup on any local field of the
model (``?seed__startswith=ab``, ``?stock__0=2-2``, ``?state__hands__0__stock__0=2-2``)
and on one hop of a relation (``/admin/accounts/user/?auth_token__key__startswith=ab``),
so result counts read hidden values one character at a time. Every admin of this project
accepts only the lookups its list filters and date hierarchy declare
(``core.admin_lookups.DeclaredLookupsOnly``); anything else is ``400``.

The scan below tries, on every registered changelist, every lookup the URL could carry
over the model's fields (and one relation further, and JSON key paths): each is refused
with 400, or is a declared filter over a public field, or answers the same whatever the
value.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from tables.models import Hand, Move, Table
from tests.support.api import create_table, join, play_one, table

pytestmark = pytest.mark.django_db

LOOKUPS = ("", "exact", "iexact", "startswith", "contains", "isnull", "gt", "lt", "in", "regex")

# The fields whose values are secret from staff without the permission, by model label:
# a running hand's seed, deal and stock, the engine snapshot, a drawn tile, invite links,
# API tokens, password hashes and the idempotency store (it holds a player's view).
HIDDEN_FIELDS = {
    "tables.hand": {"seed", "dealt", "stock"},
    "tables.table": {"state"},
    "tables.move": {"tile"},
    "tables.seat": {"invite_token"},
    "tables.moverequest": {"body", "key", "request_hash"},
    "authtoken.token": {"key"},
    "authtoken.tokenproxy": {"key"},
    "accounts.user": {"password"},
    # Talk held until a partnership hand ends may carry a signal: hidden while it is held.
    "moderation.talkmessage": {"text", "phrase"},
    # A phone's push token lets whoever holds it push to that phone (notices.admin).
    "push_notifications.gcmdevice": {"registration_id"},
    "push_notifications.apnsdevice": {"registration_id"},
}

# The list filters and date hierarchies staff may use: public game data only.
PUBLIC_FILTERS = {
    "tables.table": {"status", "seats", "target", "outcome", "stale", "created_at", "reported"},
    "tables.hand": {"end"},
    "tables.move": {"kind", "automatic", "table"},
    "accounts.user": {
        "is_staff",
        "is_superuser",
        "is_active",
        "groups",
        "language",
        "email_notifications",
        "suspended",
        "reports",
    },
    "moderation.report": {"status", "reason", "created_at"},
    "moderation.moderationaction": {"kind", "created_at"},
    "moderation.talkmessage": {"removed_at"},
    "moderation.hiddenhandview": {"viewed_at"},
    "push_notifications.gcmdevice": {"active"},
    "push_notifications.apnsdevice": {"active"},
}

# JSON key paths into a running table's snapshot and a hand's deal.
JSON_PATHS = {
    "state": [
        "hands__0__stock__0",
        "hands__0__stock",
        "hands__0__dealt__1__0",
        "hands__0__holdings__1",
        "hands__0__seed",
        "hands__0__seed__startswith",
        "hands__0__stock__contains",
        "hands__0__holdings__1__contains",
    ],
    "dealt": ["0", "0__0", "1__contains", "0__contains"],
    "stock": ["0", "1", "contains", "0__startswith"],
}


@pytest.fixture
def staff(django_user_model):
    """A moderator with every permission but ``view_hidden_hands``."""
    user = django_user_model.objects.create_user("moderator", password="x", is_staff=True)
    user.user_permissions.add(*Permission.objects.exclude(codename="view_hidden_hands"))
    return user


@pytest.fixture
def running(api_client_for, alice, bob):
    """A 2-seat table whose first hand is running and has a draw in its log (a secret
    tile, R31): random legal moves until seat 0 or 1 had to draw, hand still running."""
    import random

    rng = random.Random(13)
    for _attempt in range(40):
        created = create_table(api_client_for(alice), 2, ["friend"])
        join(api_client_for(bob), created["invites"][0]["token"])
        clients = {0: api_client_for(alice), 1: api_client_for(bob)}
        table_id = created["id"]
        for _turn in range(30):
            hand = Hand.objects.filter(table_id=table_id, ended_at=None).first()
            if hand is None or hand.number > 0:
                break
            if Move.objects.filter(hand=hand, kind="draw").exists():
                Token.objects.get_or_create(user=alice)
                return Table.objects.get(pk=table_id)
            state = table(clients[0], table_id)
            mover = clients[state["turn_seat"]]
            assert play_one(mover, table(mover, table_id), rng).status_code == 200
    raise AssertionError("no running hand with a draw in 40 tables")


def _changelist(model) -> str:
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def _answer(client, url: str, params: dict) -> tuple[int, list | None]:
    """(status, the pks listed) of a changelist request."""
    reply = client.get(url, params)
    if reply.status_code != 200:
        return reply.status_code, None
    return 200, [obj.pk for obj in reply.context["cl"].result_list]


# --- finding 1: the attack's own requests ----------------------------------------------


def test_finding_1_a_running_hands_seed_cannot_be_read_by_prefix(client, staff, running):
    client.force_login(staff)
    hand = running.hands.get(ended_at=None)
    right, wrong = hand.seed[:1], "g"
    for prefix in (right, wrong):
        reply = client.get(
            "/admin/tables/hand/",
            {"table": running.pk, "ended_at__isnull": "True", "seed__startswith": prefix},
        )
        assert reply.status_code == 400, prefix


def test_finding_1_a_running_hands_stock_cannot_be_filtered(client, staff, running):
    client.force_login(staff)
    hand = running.hands.get(ended_at=None)
    for tile in (hand.stock[0], "9-9"):
        reply = client.get("/admin/tables/hand/", {"table": running.pk, "stock__0": tile})
        assert reply.status_code == 400


def test_finding_1_the_snapshot_cannot_be_filtered_by_a_json_key_path(client, staff, running):
    client.force_login(staff)
    stock = running.state["hands"][0]["stock"]
    for tile in (stock[0], "9-9"):
        reply = client.get(
            "/admin/tables/table/", {"id": running.pk, "state__hands__0__stock__0": tile}
        )
        assert reply.status_code == 400


def test_finding_1_a_drawn_tile_cannot_be_filtered(client, staff, running):
    client.force_login(staff)
    drawn = Move.objects.filter(table=running, kind="draw").first()
    for tile in (drawn.tile, "9-9"):
        reply = client.get("/admin/tables/move/", {"kind": "draw", "tile": tile})
        assert reply.status_code == 400


def test_finding_1_api_tokens_cannot_be_read_through_the_user_admin(client, staff, running):
    client.force_login(staff)
    key = Token.objects.get(user__username="alice").key
    for prefix in (key[:2], "zz"):
        reply = client.get("/admin/accounts/user/", {"auth_token__key__startswith": prefix})
        assert reply.status_code == 400


def test_finding_1_a_drawn_tile_is_not_in_the_admins_object_names(client, staff, running):
    """A Move's name (breadcrumbs, history, the table page's inline rows) does not
    carry a drawn tile while its hand runs."""
    client.force_login(staff)
    drawn = Move.objects.filter(table=running, kind="draw").first()
    pages = [
        f"/admin/tables/move/{drawn.pk}/change/",
        f"/admin/tables/move/{drawn.pk}/history/",
        f"/admin/tables/table/{running.pk}/change/",
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert f"draw {drawn.tile}" not in page, url


def test_the_declared_filters_still_work(client, staff, running):
    client.force_login(staff)
    for url, params in (
        ("/admin/tables/table/", {"status__exact": "playing"}),
        ("/admin/tables/table/", {"stale": "1"}),
        ("/admin/tables/table/", {"q": "alice"}),
        ("/admin/tables/table/", {"created_at__year": "2026"}),
        ("/admin/tables/hand/", {"end": "domino"}),
        ("/admin/tables/hand/", {"q": str(running.pk)}),
        ("/admin/tables/move/", {"kind__exact": "draw", "automatic__exact": "1"}),
        ("/admin/accounts/user/", {"is_staff__exact": "1", "language__exact": "es"}),
        ("/admin/tables/table/", {"o": "2.-1"}),
    ):
        assert client.get(url, params).status_code == 200, (url, params)
    listed = _answer(client, "/admin/tables/table/", {"status__exact": "playing"})[1]
    assert running.pk in listed


# --- the scan ----------------------------------------------------------------------------


def _candidate_lookups(model) -> list[tuple[str, str | None]]:
    """Every lookup a URL could carry over ``model``: each field with each common lookup,
    one relation further, and JSON key paths. ``(lookup, hidden field it reads or None)``."""
    label = model._meta.label_lower
    hidden = HIDDEN_FIELDS.get(label, set())
    found: list[tuple[str, str | None]] = []
    for field in model._meta.get_fields():
        name = field.name
        secret = name if name in hidden else None
        for lookup in LOOKUPS:
            found.append((f"{name}__{lookup}" if lookup else name, secret))
        for path in JSON_PATHS.get(name, []):
            found.append((f"{name}__{path}", secret))
        if field.is_relation and field.related_model is not None:
            related = field.related_model
            related_hidden = HIDDEN_FIELDS.get(related._meta.label_lower, set())
            for other in related._meta.get_fields():
                if other.is_relation and not other.concrete:
                    continue
                other_secret = other.name if other.name in related_hidden else None
                for lookup in ("", "startswith", "isnull"):
                    tail = f"__{lookup}" if lookup else ""
                    found.append((f"{name}__{other.name}{tail}", other_secret))
    return found


def _values_for(model, lookup: str, running: Table) -> list[str]:
    """A value that is true of the running table's secrets and one that is not."""
    hand = running.hands.get(ended_at=None)
    truths = {
        "seed": hand.seed[:2],
        "stock": hand.stock[0],
        "dealt": hand.dealt[1][0],
        "state": hand.stock[0],
        "tile": Move.objects.filter(table=running, kind="draw").first().tile,
        "key": Token.objects.get(user__username="alice").key[:2],
        "password": "md5$",
    }
    if lookup.endswith("__isnull"):
        return ["True", "False"]
    for name, value in truths.items():
        if name in lookup.split("__"):
            return [value, "zz-not-a-value"]
    return [str(running.pk), "zz-not-a-value"]


def _scanned_admins():
    """Every registered ModelAdmin whose model holds, or is one relation from, hidden data;
    the rest (django-celery-beat's schedules, auth groups) hold none."""
    hidden_models = {label for label in HIDDEN_FIELDS}
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label_lower
        near = {
            f.related_model._meta.label_lower
            for f in model._meta.get_fields()
            if f.is_relation and f.related_model is not None
        }
        if label in hidden_models or near & hidden_models:
            yield model, model_admin


def test_the_scan_covers_the_models_that_hold_hidden_data():
    scanned = {model._meta.label_lower for model, _ in _scanned_admins()}
    assert {"tables.table", "tables.hand", "tables.move", "accounts.user"} <= scanned
    assert {
        "moderation.report",
        "moderation.moderationaction",
        "moderation.talkmessage",
        "moderation.hiddenhandview",
        "push_notifications.gcmdevice",
        "push_notifications.apnsdevice",
    } <= scanned
    # The idempotency store holds a player's view of the table: never in the admin.
    assert "tables.moverequest" not in {m._meta.label_lower for m in admin.site._registry}


def test_every_admin_lookup_over_hidden_data_is_refused(client, staff, running, rf):
    """Each lookup is refused (400), or is one of the admin's declared filters over a public
    field, or answers the same for a value true of the running hand and one that is not.
    Our own admins refuse every lookup they do not declare, before any query of their
    model's table (the same time whatever the value)."""
    client.force_login(staff)
    request = rf.get("/")
    request.user = staff
    tried = 0
    for model, model_admin in _scanned_admins():
        label = model._meta.label_lower
        url = _changelist(model)
        ours = label.split(".")[0] in ("tables", "accounts", "moderation", "push_notifications")
        declared = (
            set(model_admin.declared_lookups(request))
            if hasattr(model_admin, "declared_lookups")
            else set()
        )
        for lookup, secret in _candidate_lookups(model):
            root = lookup.split("__")[0]
            answers = []
            for value in _values_for(model, lookup, running):
                connection.queries_log.clear()  # the log keeps 9000: start each empty
                with CaptureQueriesContext(connection) as queries:
                    answers.append(_answer(client, url, {lookup: value}))
                tried += 1
                if answers[-1][0] == 400 and ours:
                    table_name = model._meta.db_table
                    signed_in = f'"{table_name}"."id" = {staff.pk} LIMIT'  # the session's user
                    touching = [
                        q["sql"]
                        for q in queries
                        if f'"{table_name}"' in q["sql"] and signed_in not in q["sql"]
                    ]
                    assert not touching, (url, lookup, touching)
                if answers[-1][0] == 400 and secret is None:
                    break  # refused, and no secret for a second value to tell apart
            if all(status == 400 for status, _ in answers):
                continue
            if ours:
                assert lookup in declared, (url, lookup, answers)
                assert root in PUBLIC_FILTERS[label], (url, lookup)
                assert secret is None
            elif secret is not None:
                assert answers[0] == answers[1], (url, lookup, answers)
    assert tried > 1000, tried


def test_ordering_and_search_never_touch_hidden_fields(client, staff, running):
    """``?o=`` sorts by a list column, ``?q=`` searches the declared search fields: none of
    them is, or goes through, a hidden field; a search for a running hand's seed or
    drawn tile finds nothing more than one for a made-up value."""
    client.force_login(staff)
    hand = running.hands.get(ended_at=None)
    drawn = Move.objects.filter(table=running, kind="draw").first()
    for model, model_admin in _scanned_admins():
        hidden = HIDDEN_FIELDS.get(model._meta.label_lower, set())
        url = _changelist(model)
        columns = len(model_admin.list_display)
        for index in range(columns + 2):
            for order in (str(index), f"-{index}"):
                status, _ = _answer(client, url, {"o": order})
                assert status == 200, (url, order)
        for column in model_admin.list_display:
            method = getattr(model_admin, str(column), None)
            order_field = getattr(method, "admin_order_field", None)
            for name in (column, order_field):
                if isinstance(name, str):
                    assert name.split("__")[0] not in hidden, (url, name)
        for search in model_admin.search_fields:
            path = search.lstrip("^=@").split("__")
            hidden_names = {"seed", "dealt", "stock", "state", "tile", "key", "registration_id"}
            assert not set(path) & hidden_names, search
            assert path[0] not in hidden
        if model_admin.search_fields:
            found = [_answer(client, url, {"q": q}) for q in (hand.seed, drawn.tile, "zz-none")]
            assert found[0] == found[2] and found[1] == found[2], (url, found)
        assert not set(model_admin.ordering or ()) & hidden
        if isinstance(model_admin.list_display, (list, tuple)):
            assert not {c for c in model_admin.list_display if isinstance(c, str)} & hidden


def test_json_and_model_fields_are_enumerated():
    """The scan's enumeration reaches the attack's lookups (a guard on the scan itself)."""
    lookups = {lookup for lookup, _ in _candidate_lookups(Hand)}
    assert {"seed__startswith", "stock__0", "ended_at__isnull", "table__id"} <= lookups
    table_lookups = {lookup for lookup, _ in _candidate_lookups(Table)}
    assert "state__hands__0__stock__0" in table_lookups
    assert isinstance(Table._meta.get_field("state"), models.JSONField)
