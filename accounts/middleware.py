from django.conf import settings
from django.utils import translation


class UserLanguageMiddleware:
    """Use the signed-in user's saved language when the browser has not chosen one.

    The language cookie (set by the header's switcher, the settings page and the login)
    wins; without it a signed-in user gets `user.language` instead of whatever
    Accept-Language says. Place after AuthenticationMiddleware.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            translation.activate(user.language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
