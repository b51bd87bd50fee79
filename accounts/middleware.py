from django.conf import settings
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin


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
