"""Bad-input cases for the notices API's bodies (mark read, preferences, Web Push
subscriptions, phones) and the boolean of ``PATCH /me/``, read by
``test_bad_input_notices.py``: a text field given a number, a boolean or a list, a boolean
given a string or a number, a whole number given a string, a choice among texts
(``time_zone``, ``platform``, ``language``, ``pip_colour``) given a number or a boolean.
DRF alone read ``"false"``, ``0`` and ``"yes"`` as booleans, ``"12"`` as the table 12 and a
64-digit number as an APNs token, and answered a choice given ``5`` "not a valid choice"
where a text field says it wants text; each is 400 ``invalid`` with the field in
``fields`` and changes nothing.

(name, who sends it, method, path, body, the field refused, its message). ``body`` is a
function of the world's facts (``table``, ``notice``, ``endpoint``, ``token``); the field
``keys.p256dh`` is ``fields["keys"]["p256dh"]``; the message ``None`` where the field's
own check (a time) answers first, with its own sentence. Every other field of a
body is right, so the type alone is what is refused."""

from __future__ import annotations

READ = "/api/v1/notifications/read/"
PREFERENCES = "/api/v1/notifications/preferences/"
SUBSCRIPTIONS = "/api/v1/push/subscriptions/"
DEVICES = "/api/v1/push/devices/"
ME = "/api/v1/me/"

TEXT = "Tiene que ser un texto."
BOOLEAN = "Tiene que ser true o false."
WHOLE = "Tiene que ser un número entero."

#: A right Web Push subscription (a case replaces one value).
KEYS = {"p256dh": "B" * 87, "auth": "A" * 22}
NEW = "https://fcm.googleapis.com/fcm/send/new-device"
#: A right FCM token for a new phone.
PHONE = "n" * 152


def _read(name, who, body, field, message=WHOLE):
    return (f"read: {name}", who, "post", READ, body, field, message)


def _prefs(name, who, body, field, message=BOOLEAN):
    return (f"preferences: {name}", who, "patch", PREFERENCES, body, field, message)


def _push(name, who, method, body, field, message=TEXT):
    return (f"push {method}: {name}", who, method, SUBSCRIPTIONS, body, field, message)


def _phone(name, who, method, body, field, message=TEXT):
    return (f"phone {method}: {name}", who, method, DEVICES, body, field, message)


def _me(name, who, body, field="email_notifications", message=BOOLEAN):
    return (f"me: {name}", who, "patch", ME, body, field, message)


NOTICE_TYPE_CASES = [
    _read("table as text", "alice", lambda f: {"table": str(f["table"])}, "table"),
    _read("table 1.0", "alice", lambda f: {"table": f["table"] * 1.0}, "table"),
    _read("table true", "bob", lambda f: {"table": True}, "table"),
    _read("an id as text", "alice", lambda f: {"ids": [str(f["notice"])]}, "ids"),
    _read("an id 1.0", "alice", lambda f: {"ids": [f["notice"] * 1.0]}, "ids"),
    _prefs('"false"', "alice", lambda f: {"email_your_turn": "false"}, "email_your_turn"),
    _prefs('"true"', "dave", lambda f: {"email_reminder": "true"}, "email_reminder"),
    _prefs("0", "alice", lambda f: {"email_match_over": 0}, "email_match_over"),
    _prefs("1", "carol", lambda f: {"push_your_turn": 1}, "push_your_turn"),
    _prefs('"yes"', "alice", lambda f: {"push_reminder": "yes"}, "push_reminder"),
    _prefs('"no"', "alice", lambda f: {"push_match_over": "no"}, "push_match_over"),
    _prefs("[false]", "alice", lambda f: {"push_table_started": [False]}, "push_table_started"),
    _prefs("time_zone number", "alice", lambda f: {"time_zone": 5}, "time_zone", TEXT),
    _prefs("time_zone true", "dave", lambda f: {"time_zone": True}, "time_zone", TEXT),
    _prefs("time_zone list", "alice", lambda f: {"time_zone": ["UTC"]}, "time_zone", TEXT),
    _prefs(
        "quiet_start number",
        "alice",
        lambda f: {"quiet_start": 2200, "quiet_end": "08:00"},
        "quiet_start",
        None,
    ),
    _push(
        "endpoint number", "alice", "post", lambda f: {"endpoint": 123, "keys": KEYS}, "endpoint"
    ),
    _push(
        "endpoint list", "alice", "post", lambda f: {"endpoint": [NEW], "keys": KEYS}, "endpoint"
    ),
    _push(
        "p256dh number",
        "alice",
        "post",
        lambda f: {"endpoint": NEW, "keys": {**KEYS, "p256dh": 7}},
        "keys.p256dh",
    ),
    _push(
        "auth true",
        "alice",
        "post",
        lambda f: {"endpoint": NEW, "keys": {**KEYS, "auth": True}},
        "keys.auth",
    ),
    _push(
        "mallory sends alice's endpoint in a list",
        "mallory",
        "delete",
        lambda f: {"endpoint": [f["endpoint"]]},
        "endpoint",
    ),
    _push("endpoint true", "alice", "delete", lambda f: {"endpoint": True}, "endpoint"),
    _phone(
        "an APNs token of 64 digits as a number",
        "alice",
        "post",
        lambda f: {"platform": "apns", "token": int("1" * 64)},
        "token",
    ),
    _phone(
        "an FCM token as a number",
        "bob",
        "post",
        lambda f: {"platform": "fcm", "token": 10**30},
        "token",
    ),
    _phone("token list", "alice", "post", lambda f: {"platform": "fcm", "token": [PHONE]}, "token"),
    _phone(
        "name number",
        "alice",
        "post",
        lambda f: {"platform": "fcm", "token": PHONE, "name": 5},
        "name",
    ),
    _phone(
        "name true",
        "alice",
        "post",
        lambda f: {"platform": "fcm", "token": PHONE, "name": True},
        "name",
    ),
    _phone(
        "platform number",
        "alice",
        "post",
        lambda f: {"platform": 1, "token": PHONE},
        "platform",
    ),
    _phone(
        "platform false",
        "alice",
        "post",
        lambda f: {"platform": False, "token": PHONE},
        "platform",
    ),
    _phone(
        "mallory names alice's phone's platform with a number",
        "mallory",
        "delete",
        lambda f: {"platform": 0, "token": f["token"]},
        "platform",
    ),
    _phone(
        "mallory sends alice's token in a list",
        "mallory",
        "delete",
        lambda f: {"platform": "fcm", "token": [f["token"]]},
        "token",
    ),
    _phone(
        "alice's token true",
        "alice",
        "delete",
        lambda f: {"platform": "fcm", "token": True},
        "token",
    ),
    _me('"false"', "alice", lambda f: {"email_notifications": "false"}),
    _me("0", "alice", lambda f: {"email_notifications": 0}),
    _me('dave\'s "yes"', "dave", lambda f: {"email_notifications": "yes"}),
    _me("dave's 1", "dave", lambda f: {"email_notifications": 1}),
    _me("dave's [true]", "dave", lambda f: {"email_notifications": [True]}),
    _me("language number", "alice", lambda f: {"language": 1}, "language", TEXT),
    _me("language true", "carol", lambda f: {"language": True}, "language", TEXT),
    _me("pip_colour number", "alice", lambda f: {"pip_colour": 0}, "pip_colour", TEXT),
]
