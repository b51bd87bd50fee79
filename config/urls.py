"""Top-level routes. API under /api/v1/, browser pages elsewhere."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("accounts.api_urls")),
    path("api/v1/", include("tables.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tables.help_urls")),
    path("", include("tables.urls")),
]

handler404 = "config.api_errors.page_not_found"
handler500 = "config.api_errors.server_error"
