"""Top-level routes. API under /api/v1/, browser pages elsewhere."""

from allauth.account.decorators import secure_admin_login
from csp.decorators import csp_update
from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as accounts_views
from core.api_errors import page_not_found, read_only

# Swagger UI under the Content-Security-Policy (config/settings/base.py): its start-up script
# comes from a URL, not inline, its page styles from a file (templates/api/swagger_ui.html),
# and its icons are data: images, allowed on this page only.
# Both only read: any other method is the API's JSON 405 (core.api_errors.read_only).
swagger_ui = read_only(
    csp_update({"img-src": ["data:"]})(
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        )
    )
)

# The admin signs in through the site's login (allauth's, rate-limited per address and
# per account); /admin/login/ itself never checks a password.
admin.site.login = secure_admin_login(admin.site.login)
# The admin is the site's: its header and its pages' titles name it, in the staff member's
# language, not "Django".
admin.site.site_header = gettext_lazy("Dominó · administración")
admin.site.site_title = gettext_lazy("Dominó · administración")
admin.site.index_title = gettext_lazy("Administración del sitio")


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and feed readers that skip the pages'
    ``<link rel="icon">``: the site's icon (``static/favicon.svg``)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@csrf_exempt
def unknown_endpoint(request: HttpRequest) -> HttpResponse:
    """Any other path under ``/api/``, by any method: ``404 not_found`` in the API's JSON
    error contract, with ``DEBUG`` on too (Django's debug 404 page is HTML; ``handler404``
    only applies with ``DEBUG`` off). Exempt from the CSRF check, which would otherwise
    answer a write here with the pages' HTML 403 first: this view changes nothing, and
    the real endpoints keep their own check (DRF's ``SessionAuthentication``)."""
    return page_not_found(request, None)


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", read_only(SpectacularAPIView.as_view()), name="api-schema"),
    path("api/v1/docs/", swagger_ui, name="api-docs"),
    path("api/v1/", include("accounts.api_urls")),
    path("api/v1/", include("tables.api_urls")),
    path("api/v1/", include("notices.api_urls")),
    path("api/v1/", include("moderation.api_urls")),
    re_path(r"^api/", unknown_endpoint),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, which also saves a signed-in player's language.
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("", include("tables.help_urls")),
    path("", include("notices.urls")),
    path("", include("moderation.urls")),
    path("", include("tables.urls")),
]

# The error pages close the connections they open (core.handler_connections).
handler403 = "core.api_errors.permission_denied"
handler404 = "core.api_errors.page_not_found"
handler500 = "core.api_errors.server_error"
