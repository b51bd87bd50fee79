"""The tables API under /api/v1/."""

from django.urls import path

from tables import api

urlpatterns = [
    path("tables/", api.TableListCreateApi.as_view(), name="api-tables"),
    path("tables/<int:table_id>/", api.TableDetailApi.as_view(), name="api-table"),
    path("tables/<int:table_id>/moves/", api.MoveListCreateApi.as_view(), name="api-moves"),
    path("tables/<int:table_id>/record/", api.RecordApi.as_view(), name="api-record"),
    path("tables/<int:table_id>/analysis/", api.AnalysisApi.as_view(), name="api-analysis"),
    path(
        "tables/<int:table_id>/public-replay/",
        api.PublicReplayApi.as_view(),
        name="api-public-replay",
    ),
    path("tables/<int:table_id>/abandon/", api.AbandonApi.as_view(), name="api-abandon"),
    path("tables/<int:table_id>/rematch/", api.RematchApi.as_view(), name="api-rematch"),
    path(
        "tables/<int:table_id>/rematch/accept/",
        api.RematchAnswerApi.as_view(accept=True),
        name="api-rematch-accept",
    ),
    path(
        "tables/<int:table_id>/rematch/decline/",
        api.RematchAnswerApi.as_view(accept=False),
        name="api-rematch-decline",
    ),
    path(
        "tables/<int:table_id>/invites/<int:seat_index>/renew/",
        api.InviteRenewApi.as_view(),
        name="api-invite-renew",
    ),
    path("invites/<str:token>/", api.InviteDetailApi.as_view(), name="api-invite"),
    path("invites/<str:token>/join/", api.JoinApi.as_view(), name="api-join"),
]
