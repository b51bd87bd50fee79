"""Signing out (``/accounts/logout/``, POST only): Django's ``LogoutView``, and the page it
leads to says it was done ("Cerraste la sesión."), where before it only showed the
sign-in form again."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.utils.translation import gettext as _


class LogoutView(auth_views.LogoutView):
    """Sign out, then "Cerraste la sesión." on the next page (a message kept in the
    messages cookie: the session is gone). Nothing is said when nobody was signed in."""

    def post(self, request, *args, **kwargs):
        was_signed_in = request.user.is_authenticated
        response = super().post(request, *args, **kwargs)
        if was_signed_in:
            messages.success(request, _("Cerraste la sesión."))
        return response
