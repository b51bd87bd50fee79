"""ASGI entry point, the production server: ``uvicorn config.asgi:application``.

Under ASGI a long poll (``GET /api/v1/tables/{id}/?since_version=N&wait=S``,
``tables.api.waits``) waits on the event loop instead of holding a worker.
``AsgiChunkedBodyReader`` hands Django a chunked request body that uvicorn has decoded
(core.chunked_bodies), as ``config.wsgi`` does for gunicorn."""

import os

from django.core.asgi import get_asgi_application

from core.chunked_bodies import AsgiChunkedBodyReader

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

application = AsgiChunkedBodyReader(get_asgi_application())
