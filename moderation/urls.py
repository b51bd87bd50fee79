"""Moderation's browser pages (the API is ``moderation.api_urls``)."""

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("charla/silencios/<int:mute_id>/quitar/", views.mute_undo, name="mute_undo"),
]
