"""The help pages: the rules (public, linked from every page's header and the table page)."""

from django.urls import path

from tables import help

app_name = "help"

urlpatterns = [
    path("reglas/", help.rules, name="rules"),
    path("reglas/perfiles/", help.profiles, name="profiles"),
]
