"""WSGI entry point for gunicorn: `gunicorn config.wsgi`.

``ChunkedBodyReader`` hands Django a chunked request body that gunicorn has decoded
(core.middleware)."""

import os

from django.core.wsgi import get_wsgi_application

from core.middleware import ChunkedBodyReader

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

application = ChunkedBodyReader(get_wsgi_application())
