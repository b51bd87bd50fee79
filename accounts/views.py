"""Browser pages: sign-in, sign-up and settings. Each keeps `next` so that an invite link
opened while signed out lands the newcomer back on the invitation after signing up."""

from types import SimpleNamespace

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.forms import SettingsForm, SignupForm
from accounts.models import User
from core.throttling import ScopedWriteRateThrottle


def _safe_next(request: HttpRequest) -> str:
    candidate = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


def _remember_language(response: HttpResponse, language: str) -> HttpResponse:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
    )
    return response


def _throttled(request: HttpRequest, scope: str) -> bool:
    """True when this POST is over the scope's rate; the API counts in the same bucket."""
    view = SimpleNamespace(throttle_scope=scope)
    return not ScopedWriteRateThrottle().allow_request(request, view)


class LoginView(auth_views.LoginView):
    """Django's login page, rate-limited per client with the API's "login" scope."""

    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        if _throttled(request, "login"):
            form = self.get_form_class()(request)
            return self.render_to_response(
                self.get_context_data(
                    form=form,
                    throttled=_("Demasiados intentos. Espera un minuto y vuelve a probar."),
                ),
                status=429,
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        return _remember_language(response, form.get_user().language)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)

    if request.method == "POST":
        if _throttled(request, "signup"):
            messages.error(request, _("Demasiadas cuentas nuevas desde aquí. Prueba más tarde."))
            form = SignupForm()
            status = 429
        else:
            form = SignupForm(request.POST)
            if form.is_valid():
                user = form.save(commit=False)
                if request.LANGUAGE_CODE in dict(settings.LANGUAGES):
                    user.language = request.LANGUAGE_CODE
                user.save()
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect(next_url or settings.LOGIN_REDIRECT_URL)
            status = 400
    else:
        form = SignupForm()
        status = 200

    context = {"form": form, "next": next_url}
    return render(request, "accounts/signup.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)  # confirm in the language just chosen
        messages.success(request, _("Preferencias guardadas."))
        return _remember_language(redirect("accounts:settings"), user.language)
    return render(request, "accounts/settings.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language switcher (POST ``language``, ``next``): Django's own
    ``set_language`` (the cookie, then back to ``next``), and for a signed-in player the
    saved language too, so that e-mails and other devices follow the choice.

    A variant of a site language (``en-US``, ``EN``) counts as that language; any other
    value (``fr``, ``xx``) changes nothing and just goes back to ``next``."""
    try:
        language = translation.get_supported_language_variant(
            request.POST.get("language", "")
        ).lower()
    except LookupError:
        language = ""
    if language not in User.Language.values:
        language = ""
    request.POST = request.POST.copy()
    request.POST["language"] = language
    response = i18n.set_language(request)
    if request.user.is_authenticated and language:
        services.user_set_language(user=request.user, language=language)
    return response
