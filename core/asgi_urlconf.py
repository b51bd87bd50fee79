"""The urlconf an ASGI server routes with (``config.urls_asgi``: the long poll)."""

from django.conf import settings

from core.sync_and_async import SyncAndAsyncMiddleware


class AsgiUrlconfMiddleware(SyncAndAsyncMiddleware):
    """Under an ASGI server, route with ``settings.ASGI_ROOT_URLCONF`` (``config.urls_asgi``:
    the table's ``GET`` there is the view that can wait, ``tables.api.waits``); under WSGI
    do nothing. The mode is the chain's (Django builds it async under ASGI when every
    middleware can be), so this costs no thread hop either way."""

    async def _acall(self, request):
        request.urlconf = settings.ASGI_ROOT_URLCONF
        return await self.get_response(request)
