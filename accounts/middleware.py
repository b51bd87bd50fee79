from django.conf import settings
from django.utils import timezone, translation
from django.utils.deprecation import MiddlewareMixin

from accounts.time_zones import time_zone_of


class UserLanguageMiddleware(MiddlewareMixin):
    """Use the signed-in user's saved language when the browser has not chosen one.

    The language cookie (set by the header's switcher, the settings page and the login)
    wins; without it a signed-in user gets `user.language` instead of whatever
    Accept-Language says. Place after AuthenticationMiddleware. Sync and async capable
    (``MiddlewareMixin``: an ASGI server then waits for a long poll without a thread).
    """

    def process_request(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()


class AdminTimeZoneMiddleware(MiddlewareMixin):
    """Under ``/admin/``, write every date in the signed-in staff member's saved time
    zone (``accounts.time_zones.time_zone_of``: the settings' "Zona horaria", UTC while
    none is), as Django's documentation does it (``timezone.activate``), and back to the
    server's (UTC) once the page is written: a moderator reads a report, a suspension's
    end or a move at the hour of their own clock, and the admin's header names the zone
    (``templates/admin/base_site.html``). Other pages and the API are left alone: they
    write times in the player's zone themselves, and the API in UTC. Place after
    AuthenticationMiddleware. Sync and async capable (``MiddlewareMixin``)."""

    def process_request(self, request):
        user = getattr(request, "user", None)
        if request.path.startswith("/admin/") and user is not None and user.is_staff:
            timezone.activate(time_zone_of(user))

    def process_response(self, request, response):
        timezone.deactivate()
        return response
