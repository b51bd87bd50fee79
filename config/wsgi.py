"""WSGI entry point for gunicorn: `gunicorn config.wsgi`.

``ChunkedBodyReader`` hands Django a chunked request body that gunicorn has decoded
(core.chunked_bodies)."""

import os

from django.core.wsgi import get_wsgi_application

from core.chunked_bodies import ChunkedBodyReader

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

application = ChunkedBodyReader(get_wsgi_application())
