"""django-allauth fitted to this site (settings: ``ACCOUNT_ADAPTER``).

- Usernames are unique after NFKC normalisation and case folding (``User.username_key``,
  a database constraint): ``ａｌｉｃｅ`` is ``alice`` and is taken.
- E-mails go out in the recipient's language (``User.language``), from the site's
  templates (``templates/account/email/``); a security notice's date (``timestamp``) in
  the recipient's time zone, named.
- No enumeration: a sign-up with an address another account has verified creates the
  account as any other (the address stays unverified there, it cannot be verified twice)
  and the address's owner is told instead of being sent a link.
- After following a verification link, the player goes back to where sign-up started
  (an invitation, say): ``remember_next`` stores it in the session.
"""

from __future__ import annotations

from datetime import datetime

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from accounts.models import User, username_key
from accounts.time_zones import time_zone_of
from core.client_address import client_address

NEXT_SESSION_KEY = "accounts_next"


def remember_next(request: HttpRequest, next_url: str) -> None:
    """Keep ``next_url`` (already checked as safe) for after the verification link."""
    if next_url:
        request.session[NEXT_SESSION_KEY] = next_url


def verified_elsewhere(email: str, user):
    """The other account (not ``user``) that has verified ``email``, else ``None``."""
    address = (
        EmailAddress.objects.filter(email__iexact=email, verified=True)
        .exclude(user_id=getattr(user, "pk", None))
        .select_related("user")
        .first()
    )
    return address.user if address else None


def written_time(user, when: datetime) -> str:
    """``when`` as a security e-mail's "Fecha" says it, in the active language: in
    ``user``'s time zone and naming it ("3 de diciembre de 2026 a las 13:14 (hora de
    America/Havana)"), or "(hora UTC)" while they have none."""
    zone = time_zone_of(user)
    shown = date_format(localtime(when, zone), "DATETIME_FORMAT")
    if zone.key == "UTC":
        return _("%(when)s (hora UTC)") % {"when": shown}
    return _("%(when)s (hora de %(zone)s)") % {"when": shown, "zone": zone.key}


def account_login_key(login: str) -> str:
    """One key per account for ``login`` (a user name in any case or width, or one of the
    account's e-mail addresses in any case): ``"user:<id>"``; for a login that names no
    account, ``"login:<folded login>"``. Used by the sign-in limits of the page, the
    session API and the token API alike (all through allauth's ``LoginForm``)."""
    folded = username_key(login)
    user_id = (
        User.objects.filter(username_key=folded).values_list("pk", flat=True).first()
    )
    if user_id is None and "@" in login:
        user_id = (
            EmailAddress.objects.filter(email__iexact=login)
            .order_by("-verified", "-primary")
            .values_list("user_id", flat=True)
            .first()
        ) or User.objects.filter(email__iexact=login).values_list("pk", flat=True).first()
    return f"user:{user_id}" if user_id is not None else f"login:{folded}"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """NFKC-normalise (as Django's user model does) and refuse a name whose
        ``username_key`` is taken, whatever its case or width."""
        user_model = get_user_model()
        username = user_model.normalize_username(username)
        # NFKC may lengthen a name (one "ﷺ" is 18 characters): check the stored form.
        MaxLengthValidator(user_model._meta.get_field("username").max_length)(username)
        username = super().clean_username(username, shallow=True)
        if not shallow and User.objects.filter(username_key=username_key(username)).exists():
            raise self.validation_error("username_taken")
        return username

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        """The key of allauth's per-account limit on failed sign-ins (``login_failed``'s
        ``5/5m/key``; also what a password reset clears). allauth keys it by the login
        as typed, lower-cased, so a user name and the account's e-mail address were two
        buckets of 5 guesses (and ``ＡＬＩＣＥ`` a third). Here it is the account's:
        ``"<site>:user:<id>"`` for whichever of its user name (in any case or width:
        ``User.username_key``) or addresses (its own, or any of its ``EmailAddress``
        rows, any case) names it; a login naming no account is keyed by its folded form
        (``username_key``), so guesses at a name that does not exist share one bucket
        too. Credentials are ``email`` or ``username`` as allauth passes them."""
        site = get_current_site(request)
        login = credentials.get("email") or credentials.get("username") or ""
        return f"{site.domain}:{account_login_key(login)}"

    def get_client_ip(self, request) -> str:
        """The address allauth's rate limits count: ``core.client_address``'s, the one
        DRF's throttles use (the socket's, unless ``NUM_PROXIES`` proxies are in front)."""
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Render and send in the recipient's language: the user in ``context``, else
        the account that holds the address, else the request's language; a notice's
        ``timestamp`` in that user's time zone (``written_time``)."""
        user = context.get("user")
        if user is None:
            address = EmailAddress.objects.filter(email__iexact=email).select_related("user")
            user = next((a.user for a in address), None)
        language = getattr(user, "language", None) or translation.get_language()
        with translation.override(language):
            if user is not None and isinstance(context.get("timestamp"), datetime):
                context = {**context, "timestamp": written_time(user, context["timestamp"])}
            super().send_mail(template_prefix, email, context)

    def send_password_reset_mail(self, user, email: str, context: dict) -> None:
        context = {**context, "minutes": settings.PASSWORD_RESET_TIMEOUT // 60}
        super().send_password_reset_mail(user, email, context)

    def save_user(self, request, user, form, commit=True):
        """allauth's, and the new player's language is the page's (es or en)."""
        language = getattr(request, "LANGUAGE_CODE", "")
        if language in User.Language.values:
            user.language = language
        return super().save_user(request, user, form, commit=commit)

    def send_confirmation_mail(self, request, emailconfirmation, signup) -> None:
        address = emailconfirmation.email_address
        owner = verified_elsewhere(address.email, address.user)
        if owner is not None:
            self.send_mail(
                "account/email/account_already_exists",
                address.email,
                {
                    "request": request,
                    "user": owner,
                    "password_reset_url": request.build_absolute_uri(
                        reverse("account_reset_password")
                    ),
                },
            )
            return
        super().send_confirmation_mail(request, emailconfirmation, signup)

    def get_email_verification_redirect_url(self, email_address) -> str:
        request = self.request
        next_url = request.session.pop(NEXT_SESSION_KEY, "") if request else ""
        if next_url and url_has_allowed_host_and_scheme(
            next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return next_url
        return super().get_email_verification_redirect_url(email_address)
