"""Notices to players: one ``Notification`` row per thing that happened to them (your turn,
a deadline near, a hand or match over, a friend sat down, the match started), read in the
in-app inbox and delivered from those rows by e-mail (debounced, batched) and Web Push.
See docs/notices.md."""
