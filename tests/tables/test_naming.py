"""Who else plays, said in one place (``tables.naming``) for pages, notices and e-mails:
the last two names joined by "y" ("and"), where a list without a partner read "con Nino,
Abuela Quelonia"; a seat nobody holds yet is counted, never named ("asiento libre")."""

from django.utils import translation

from tables.naming import listed, with_names


def test_the_last_two_names_are_joined_by_y():
    with translation.override("es"):
        assert with_names([], ["Nino"]) == "con Nino"
        assert with_names([], ["Nino", "Abuela Quelonia"]) == "con Nino y Abuela Quelonia"
        assert with_names([], ["bob", "Nino", "dave"]) == "con bob, Nino y dave"
        assert with_names(["carol"], ["bob", "dave"]) == "con carol (tu pareja) contra bob y dave"
    with translation.override("en"):
        assert with_names([], ["Nino", "Abuela Quelonia"]) == "with Nino and Abuela Quelonia"
        assert listed(["bob", "Nino", "dave"]) == "bob, Nino and dave"


def test_free_seats_are_counted():
    with translation.override("es"):
        assert with_names([], ["", ""]) == "con 2 asientos libres"
        assert with_names([], ["bob", ""]) == "con bob y 1 asiento libre"
        pairs = with_names([""], ["", ""])
        assert pairs == "con tu pareja (asiento libre) contra 2 asientos libres"
    with translation.override("en"):
        assert with_names([], ["bob", ""]) == "with bob and 1 open seat"
