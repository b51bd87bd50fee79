"""Notice pages."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("avisos/", views.inbox, name="inbox"),
    path("avisos/baja/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
