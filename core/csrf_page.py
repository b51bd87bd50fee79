"""The page for a form sent with an outdated CSRF token (``CSRF_FAILURE_VIEW``).

``templates/403_csrf.html`` says nothing was changed and links to the same page opened
anew, with its query (the sign-in page's ``?next=``, so that a player who tries again
still lands where they were going). That link is built from the request's path, which a
crafted request controls: it is kept only as a relative address on this site.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme


def same_page_again(request: HttpRequest) -> str:
    """The path and query the form was sent to, as a link on this site; "/" when they
    would read as another host's address (``//elsewhere.example/``, ``/\\elsewhere``)."""
    address = request.get_full_path()
    if address.startswith("/") and url_has_allowed_host_and_scheme(address, allowed_hosts=None):
        return address
    return "/"


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``403`` with the site's "La página ha caducado" page, in the player's language;
    ``reason`` (Django's English diagnosis) is not shown."""
    return render(request, "403_csrf.html", {"again": same_page_again(request)}, status=403)
