"""The talk, mute, report and moderation-notice API under /api/v1/."""

from django.urls import path

from moderation import api

urlpatterns = [
    path("tables/<int:table_id>/talk/", api.TalkApi.as_view(), name="api-talk"),
    path("tables/<int:table_id>/talk/mute/", api.TalkMuteApi.as_view(), name="api-talk-mute"),
    path("tables/<int:table_id>/reports/", api.ReportCreateApi.as_view(), name="api-reports"),
    path("talk/mutes/", api.MuteListApi.as_view(), name="api-mutes"),
    path("talk/mutes/<int:mute_id>/", api.MuteDetailApi.as_view(), name="api-mute"),
    path("moderation/notices/", api.ModerationNoticesApi.as_view(), name="api-notices"),
]
