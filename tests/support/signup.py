"""Sign-ups of a new name, on the page and through the API, always with the same e-mail
(``NEWBIE``) and a good password, so that a test can check that nothing was created."""

from __future__ import annotations

PAGE = "/accounts/signup/"
API = "/api/v1/accounts/signup/"
NEWBIE = "newbie@example.com"
PASS_PHRASE = "a-long-pass-phrase"
LOOK_ALIKE_ES = (
    "Ese nombre se confunde con el de otro jugador (se ve igual o casi, con acentos, letras "
    "de otro alfabeto o cifras en vez de letras): elige otro."
)


def signup_page(client, username: str, *, email: str = NEWBIE, **headers):
    """POST the sign-up form for ``username`` (headers such as ``HTTP_ACCEPT_LANGUAGE``)."""
    return client.post(
        PAGE,
        {"username": username, "email": email, "password1": PASS_PHRASE, "password2": PASS_PHRASE},
        **headers,
    )


def signup_api(client, username: str, *, email: str = NEWBIE, **headers):
    """POST the sign-up API for ``username`` (headers such as ``HTTP_ACCEPT_LANGUAGE``)."""
    return client.post(
        API, {"username": username, "password": PASS_PHRASE, "email": email}, **headers
    )
