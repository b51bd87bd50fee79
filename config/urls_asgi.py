"""The routes under an ASGI server (uvicorn, ``config.asgi``): ``config.urls`` with the
table's ``GET`` served by the view that can wait (``tables.api.waits``: the long poll).

``core.asgi_urlconf.AsgiUrlconfMiddleware`` picks this urlconf for requests the ASGI
handler serves; a WSGI server (runserver, gunicorn) keeps ``config.urls``, whose sync
view answers a ``wait`` at once, without an event loop to set up per request."""

from django.urls import path

from config.urls import handler404, handler500
from config.urls import urlpatterns as wsgi_urlpatterns
from tables.api import waits

urlpatterns = [
    path("api/v1/tables/<int:table_id>/", waits.table_detail, name="api-table"),
    *wsgi_urlpatterns,
]

__all__ = ["handler404", "handler500", "urlpatterns"]
