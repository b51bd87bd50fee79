"""The moderators' admin: the report queue, the moderation log, talk messages, the access
log of hidden hands, and, over the admins of ``tables`` and ``accounts``, a table page that
draws the game and a user page with their tables, reports and history.

Every action asks for a reason and is written to the log (``moderation.services``). Pages
that only show things have no save button. A running hand's tiles are drawn only for staff
with ``tables.view_hidden_hands`` and never at a table they sit at; each such view is
written to the access log. Held talk (written during a running partnership hand) is
hidden information too: staff without that permission do not see it until it is
delivered. Every changelist accepts only its declared lookups
(``core.admin_lookups.DeclaredLookupsOnly``).
"""

from moderation.admin import acting, common, game, queue, users

__all__ = ["acting", "common", "game", "queue", "users"]
