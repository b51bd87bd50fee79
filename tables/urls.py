"""Browser pages (Django templates): home, create, table, invite."""

from django.urls import path

from tables import seat_left_page, views

app_name = "tables"

urlpatterns = [
    path("", views.home, name="home"),
    path("mesas/nueva/", views.table_create, name="create"),
    path("mesas/contra-los-bots/", views.play_bots_now, name="play-bots-now"),
    path("mesas/<int:table_id>/", views.table_page, name="table"),
    path("mesas/<int:table_id>/asiento-dejado/", seat_left_page.seat_left, name="seat-left"),
    path("mesas/<int:table_id>/partida/", views.replay_page, name="replay"),
    path("partidas/", views.history, name="history"),
    path("partida/<str:token>/", views.public_replay, name="public-replay"),
    path("partida/<str:token>/registro/", views.public_record, name="public-record"),
    path("invitacion/<str:token>/", views.invite, name="invite"),
]
