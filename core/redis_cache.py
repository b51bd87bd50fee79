"""Django's Redis cache, with one redis-py client per connection pool instead of one per
call.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a new
``redis.Redis`` for every cache call, and redis-py's constructor fills its table of
response callbacks each time (about 70 µs here). The client keeps no state between
commands (the pool holds the connections), so every call gets the pool's one client;
everything else is Django's.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusedClientRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` whose ``get_client`` returns the same ``redis.Redis`` for the
    same pool (the pool is chosen as Django chooses it: the first server for writes, any
    for reads)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ReusedClientRedisCache(RedisCache):
    """Django's ``RedisCache`` on ``ReusedClientRedisCacheClient``: ``CACHES`` ``BACKEND``
    ``"core.redis_cache.ReusedClientRedisCache"``, with the same ``LOCATION`` and
    ``OPTIONS``."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
