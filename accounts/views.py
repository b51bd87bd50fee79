"""Browser pages: sign-in, sign-up (django-allauth's views in the site's templates),
settings, signing out everywhere, the data download and deleting the account. Sign-in and
sign-up keep `next` so that an invite link opened while signed out lands the newcomer back
on the invitation after signing up (and after the verification link)."""

from allauth.account import views as allauth_views
from allauth.account.models import EmailAddress
from allauth.core.ratelimit import consume as consume_rate_limit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.authtoken.models import Token

from accounts import resend, selectors, services
from accounts.adapter import remember_next
from accounts.api.common import account_created, may_create_account
from accounts.forms import DeleteAccountForm, SettingsForm, UsernameTaken
from accounts.models import User
from core.section_messages import in_section
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


def _throttled(view) -> bool:
    """True when the POST ``view`` (a page with ``throttle_scope``) is answering is over its
    scope's rate; the API counts in the same bucket."""
    return not ScopedWriteRateThrottle().allow_request(view.request, view)


class LoginView(allauth_views.LoginView):
    """allauth's sign-in page (username or e-mail; its limits on failed sign-ins per
    address and per account), also counted in the API's "login" bucket per client."""

    template_name = "registration/login.html"
    throttle_scope = "login"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "next": _safe_next(self.request)}

    def post(self, request, *args, **kwargs):
        if _throttled(self):
            form = self.get_form_class()(request=request)
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
        if form.user is not None:
            response = _remember_language(response, form.user.language)
        return response


class SignupView(allauth_views.SignupView):
    """allauth's sign-up page: username, e-mail, password twice. The newcomer is signed
    in at once and goes back to ``next`` (an invitation); the verification link mailed
    to them leads there again."""

    template_name = "accounts/signup.html"
    throttle_scope = "signup"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "next": _safe_next(self.request)}

    def post(self, request, *args, **kwargs):
        if _throttled(self):
            messages.error(request, _("Demasiadas cuentas nuevas desde aquí. Prueba más tarde."))
            form = self.get_form_class()()
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        """Create the account, unless this address has made its share of accounts for
        now (``may_create_account``: 429, the form kept), and count it once made. Refused
        attempts count in the short window only (the ``signup`` scope, ``post``)."""
        if not may_create_account(self.request):
            messages.error(
                self.request, _("Demasiadas cuentas nuevas desde aquí. Prueba más tarde.")
            )
            return self.render_to_response(self.get_context_data(form=form), status=429)
        remember_next(self.request, _safe_next(self.request))
        try:
            response = super().form_valid(form)
        except UsernameTaken as taken:
            form.add_error("username", taken.message)
            return self.form_invalid(form)
        account_created(self.request)
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class EmailView(allauth_views.EmailView):
    """allauth's e-mail page (change, verify). "Enviar el enlace otra vez" says when the
    link may be mailed again (``accounts.resend``); asked for sooner, the page says so
    instead of sending nothing without a word. After an action, back to ``next`` when
    safe ("Mis mesas", whose notice has the same button)."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        pending = context.get("new_emailaddress") or context.get("current_emailaddress")
        if pending is not None and not pending.verified:
            context["resend_said"] = resend.resend_sentence(self.request, pending.email)
        return context

    def post(self, request, *args, **kwargs):
        if "action_send" in request.POST and request.POST.get("email"):
            wait = resend.wait_seconds(request, request.POST["email"])
            if wait:
                messages.warning(request, resend.too_soon_sentence(wait))
                return redirect(self.get_success_url())
        return super().post(request, *args, **kwargs)

    def get_success_url(self) -> str:
        return _safe_next(self.request) or str(super().get_success_url())


def _settings_context(request: HttpRequest, form) -> dict:
    user = request.user
    addresses = list(EmailAddress.objects.filter(user=user).order_by("-primary", "email"))
    return {
        "form": form,
        "verified_email": selectors.verified_email(user),
        "pending": [a for a in addresses if not a.verified],
        "has_token": Token.objects.filter(user=user).exists(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)  # confirm in the language just chosen
        messages.success(request, _("Preferencias guardadas."))
        return _remember_language(redirect("accounts:settings"), user.language)
    return render(request, "accounts/settings.html", _settings_context(request, form))


@login_required
@require_POST
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    """End every other session and revoke the API token; this one stays signed in."""
    services.sign_out_everywhere(user=request.user, request=request)
    messages.success(
        request,
        _("Se cerraron las demás sesiones y se revocaron los accesos de la app."),
        extra_tags=in_section("sesiones"),
    )
    return redirect(reverse("accounts:settings") + "#sesiones")


@login_required
@require_http_methods(["GET"])
def download_data(request: HttpRequest) -> HttpResponse:
    """The JSON export of ``accounts.services.account_export``, as a file."""
    data = services.account_export(user=request.user)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="domino-{request.user.username}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Confirm with the password, then ``accounts.services.account_delete``."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST":
        if not consume_rate_limit(request, action="reauthenticate", user=request.user):
            form.add_error(None, _("Demasiados intentos. Espera un minuto y vuelve a probar."))
            status = 429
        elif form.is_valid():
            services.account_delete(user=request.user)
            logout(request)
            messages.success(request, _("Tu cuenta se ha eliminado."))
            return redirect("/")
        else:
            status = 400
    return render(request, "accounts/delete.html", {"form": form}, status=status)


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
