"""``unread_notices`` for the header's bell (templates/notices/bell.html): one COUNT query
per page for a signed-in visitor (on the partial index of unread notices), none otherwise."""

from notices import selectors


def unread_notices(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notices": selectors.unread_count(user)}
