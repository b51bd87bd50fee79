"""The base of the service's own middleware that runs sync under WSGI and async under ASGI."""

from asgiref.sync import iscoroutinefunction, markcoroutinefunction


class SyncAndAsyncMiddleware:
    """A middleware Django can chain either way: sync under WSGI, async under ASGI (where
    one sync-only middleware would run the whole chain in a thread). A subclass writes
    ``_call(request)`` and ``async _acall(request)``; the mode is the chain's."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return self._call(request)

    def _call(self, request):
        return self.get_response(request)

    async def _acall(self, request):
        return await self.get_response(request)
