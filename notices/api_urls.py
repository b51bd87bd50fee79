"""The notices API under /api/v1/."""

from django.urls import path

from notices import api, device_api

urlpatterns = [
    path("notifications/", api.NotificationListApi.as_view(), name="api-notifications"),
    path("notifications/read/", api.NotificationReadApi.as_view(), name="api-notifications-read"),
    path(
        "notifications/preferences/",
        api.NoticePreferencesApi.as_view(),
        name="api-notification-preferences",
    ),
    path("push/subscriptions/", api.PushSubscriptionApi.as_view(), name="api-push-subscriptions"),
    path("push/devices/", device_api.DeviceApi.as_view(), name="api-push-devices"),
]
