"""The page for a form sent with an outdated CSRF token (``CSRF_FAILURE_VIEW``).

``templates/403_csrf.html`` says nothing was changed and links to the page the form was
on, opened anew: the ``Referer`` when it is a page of this site, else the address the
form was sent to when that is a page too (the sign-in page with its ``?next=``, so that a
player who tries again still lands where they were going), else the home page. Many
forms post to an address that only takes a ``POST`` (the header's language switch,
"Salir", "Jugar ya contra los bots"), where the link would answer a bare 405. Both
addresses come with the request, which a crafted request controls: each is kept only as
a path and query on this site, never written out as an absolute or protocol-relative
link.
"""

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme


def _relative(address: str) -> str | None:
    """``address`` when it is a path (and query) on this site; None when it would read as
    another host's address (``//elsewhere.example/``, ``/\\elsewhere``)."""
    if address.startswith("/") and url_has_allowed_host_and_scheme(address, allowed_hosts=None):
        return address
    return None


def _referring_page(request: HttpRequest) -> str | None:
    """The path and query of the ``Referer`` when it is an address of this site (its
    host, and HTTPS when the request came over HTTPS)."""
    referer = request.headers.get("Referer", "")
    host = request.get_host()
    if not referer or not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={host}, require_https=request.is_secure()
    ):
        return None
    parts = urlsplit(referer)
    if parts.netloc != host:  # a relative Referer is not what a browser sends
        return None
    path = parts.path or "/"
    return _relative(f"{path}?{parts.query}" if parts.query else path)


def _methods_allowed(view) -> list[str] | None:
    """The methods ``view`` answers, where it says (a class-based view's
    ``http_method_names``, the list given to ``require_http_methods`` or ``require_POST``
    on a function view, looked for through its decorators); None when it does not say,
    as a plain function view answers every method."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        names = [name for name in view_class.http_method_names if hasattr(view_class, name)]
        if "get" in names and "head" not in names:
            names.append("head")  # as View.setup does
        return [name.upper() for name in names]
    while view is not None:
        code = getattr(view, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cell = view.__closure__[code.co_freevars.index("request_method_list")]
            return list(cell.cell_contents)
        view = getattr(view, "__wrapped__", None)
    return None


def answers_get(request: HttpRequest, address: str) -> bool:
    """Whether the page at ``address`` (a path on this site, its query ignored) exists and
    may be opened with ``GET``, so that linking it cannot answer a 404 or a 405."""
    path = urlsplit(address).path
    try:
        match = resolve(path, urlconf=getattr(request, "urlconf", None))
    except Resolver404:
        return False
    methods = _methods_allowed(match.func)
    return methods is None or "GET" in methods


def same_page_again(request: HttpRequest) -> str:
    """The link to the page the form was on: the ``Referer``'s path and query when it is
    a page of this site that answers ``GET``, else the path and query the form was sent
    to when that page does, else ``"/"``."""
    for address in (_referring_page(request), _relative(request.get_full_path())):
        if address is not None and answers_get(request, address):
            return address
    return "/"


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``403`` with the site's "La página ha caducado" page, in the player's language;
    ``reason`` (Django's English diagnosis) is not shown. The header's language switch
    on it goes back to the same page as its link (``language_next``), not to the
    address the form was sent to."""
    again = same_page_again(request)
    context = {"again": again, "language_next": again}
    return render(request, "403_csrf.html", context, status=403)
