# One image for web, worker and beat (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements/base.txt ./requirements/base.txt
RUN pip install --require-hashes -r requirements/base.txt
COPY pyproject.toml README.md ./
COPY config ./config
COPY core ./core
COPY accounts ./accounts
COPY tables ./tables
COPY dominoes ./dominoes
RUN pip install --no-deps .
COPY . .

# collectstatic needs settings to import; these throwaway values never reach a container.
RUN SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput

RUN useradd --system --home /app domino && chown -R domino /app
USER domino

EXPOSE 8000
# uvicorn (ASGI): a long poll waits on the event loop, not in a worker (docs/scaling.md).
# --no-proxy-headers: the client's address stays the socket's, as under gunicorn; the
# app reads X-Forwarded-For itself (NUM_PROXIES). --no-access-log: the app's own
# request_finished line says it, with the request's id and the route, not the path as sent.
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "3", "--no-proxy-headers", "--no-access-log", "--timeout-worker-healthcheck", "30"]
