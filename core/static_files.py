"""WhiteNoise (the static files) as a middleware that is async capable too.

WhiteNoise's own middleware is sync only: under an ASGI server Django would then run the
rest of the chain through ``async_to_sync`` from a thread, and a long poll
(``tables.api.waits``) would hold that thread for as long as it waits. This subclass
answers a static file as WhiteNoise does (in a thread: reading files is blocking) and
hands every other request on without leaving the event loop.
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class AsyncCapableWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    """``whitenoise.middleware.WhiteNoiseMiddleware``, sync or async as its
    ``get_response`` is (Django picks the mode from ``sync_capable`` /
    ``async_capable``)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, **options) -> None:
        super().__init__(get_response, **options)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request):
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)
