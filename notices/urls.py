"""Notice pages."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("avisos/", views.inbox, name="inbox"),
    path("avisos/preferencias/", views.preferences, name="preferences"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("avisos/baja/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
