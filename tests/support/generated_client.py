"""Helpers for the tests that play through a client generated from the served schema
(``tests/api_client``): the generated package with clients whose every answer is validated
against the schema, parsing checks, and the moves of a match made through it."""

from __future__ import annotations

import importlib

import attrs
import httpx

PACKAGE = "domino_client"
#: Objects the schema declares free-form (``additionalProperties``): their keys are data.
FREE_FORM = {"ApiErrorFields"}
DOUBLE_SIX = [f"{high}-{low}" for high in range(7) for low in range(high + 1)]
MOST_TURNS = 1500


class Generated:
    """The generated package, its API modules by name, and clients for it whose every
    answer is validated against the schema (``failures`` collects what did not match)."""

    def __init__(self, package, schema, base: str) -> None:
        self.package = package
        self.schema = schema
        self.base = base
        self.failures: list[str] = []
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.types = importlib.import_module(f"{PACKAGE}.types")

    def api(self, name: str):
        """An operation module, ``"tables.tables_moves_create"``."""
        return importlib.import_module(f"{PACKAGE}.api.{name}")

    def client(self, token: str | None = None):
        options = {
            "base_url": self.base,
            "raise_on_unexpected_status": True,
            "timeout": httpx.Timeout(60),
            "httpx_args": {"event_hooks": {"response": [self._validate]}},
        }
        if token is None:
            return self.package.Client(**options)
        return self.package.AuthenticatedClient(token=token, prefix="Token", **options)

    def _validate(self, response: httpx.Response) -> None:
        response.read()
        request = response.request
        operation = self.schema.find_operation_by_path(request.method, request.url.path)
        where = f"{request.method} {request.url.path} {response.status_code}"
        if operation is None:
            self.failures.append(f"{where}: no operation in the schema")
            return
        if str(response.status_code) not in operation.definition.raw["responses"]:
            self.failures.append(f"{where}: status not declared")
            return
        try:
            operation.validate_response(response)
        except Exception as error:  # schemathesis' FailureGroup, with every mismatch
            self.failures.append(f"{where}: {error}"[:3000])


def undeclared(value, path: str = "$") -> list[str]:
    """The keys of a parsed answer the schema does not declare, as ``path: [keys]``."""
    found = []
    if attrs.has(type(value)):
        extra = getattr(value, "additional_properties", {})
        if extra and type(value).__name__ not in FREE_FORM:
            found.append(f"{path} ({type(value).__name__}): {sorted(extra)}")
        for field in attrs.fields(type(value)):
            if field.name != "additional_properties":
                found += undeclared(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += undeclared(item, f"{path}[{index}]")
    return found


def parsed(answer, model, status: int = 200):
    """``answer.parsed`` when it is a ``model`` with ``status`` and only declared keys."""
    assert answer.status_code == status, (answer.status_code, answer.content[:500])
    assert isinstance(answer.parsed, model), type(answer.parsed)
    assert undeclared(answer.parsed) == []
    return answer.parsed


def api_error(generated, answer, status: int, code: str):
    """The answer's typed error body, checked: ``status`` and ``code``."""
    error = parsed(answer, generated.models.ApiError, status)
    assert error.code == code, (error.code, error.detail)
    assert isinstance(error.detail, str) and error.detail
    return error


def sign_up(generated, name: str):
    """A new account through the API; returns a client with its token."""
    body = generated.models.SignupInputRequest(
        username=name, email=f"{name}@example.com", password="correct-horse-battery-9"
    )
    answer = generated.api("accounts.accounts_signup_create").sync_detailed(
        client=generated.client(), body=body
    )
    made = parsed(answer, generated.models.SignupOutput, 201)
    return generated.client(made.token)


def read(generated, client, table_id: int):
    answer = generated.api("tables.tables_retrieve").sync_detailed(table_id, client=client)
    return parsed(answer, generated.models.Table)


def play(generated, client, table, *, version=None, tile=None, key=None):
    """Post the first legal move of the hand to play (or ``tile``) at ``version``."""
    hand = next(hand for hand in table.hands if hand.to_play)
    move = hand.legal_moves[0]
    body = generated.models.MovePlayRequest(
        version=table.version if version is None else version,
        tile=move.tile if tile is None else tile,
        end=move.end if tile is None else generated.types.UNSET,
        seat=hand.seat,
    )
    options = {} if key is None else {"idempotency_key": key}
    return generated.api("tables.tables_moves_create").sync_detailed(
        table.id, client=client, body=body, **options
    )


def play_out(generated, players: dict, table_id: int, on_turn=None) -> dict:
    """Each person plays the first legal move whenever one of their seats is to act,
    until the match ends: the mover's next view is the move's answer, the person whose
    seat is to act is read, and while a bot is to act a long poll waits for its move.
    ``on_turn(name, table)`` is called before each move and may play it itself
    (returning True). Returns each person's last view."""
    views = {name: read(generated, client, table_id) for name, client in players.items()}
    owner = {seat: name for name, view in views.items() for seat in view.your_seats}
    current = next(iter(players))
    table = views[current]
    for _turn in range(MOST_TURNS):
        if table.status != generated.models.StatusEnum.PLAYING:
            return {name: read(generated, players[name], table_id) for name in players}
        if not table.your_turn:
            if owner.get(table.turn_seat, current) != current:
                current = owner[table.turn_seat]
                table = read(generated, players[current], table_id)
            else:  # a bot is to act: it moves once the answer that woke it has gone
                table = changed(generated, players[current], table)
            continue
        assert table.game is not None and table.game.legal_moves
        hand = next(hand for hand in table.hands if hand.to_play)
        assert [move.to_dict() for move in table.game.legal_moves] == [
            move.to_dict() for move in hand.legal_moves
        ]
        if on_turn is not None and on_turn(current, table):
            table = read(generated, players[current], table_id)
        else:
            table = parsed(play(generated, players[current], table), generated.models.Table)
    raise AssertionError(f"no end after {MOST_TURNS} turns")


def changed(generated, client, table):
    """The table once its version passes ``table``'s: a long poll (bots move after the
    answer that gave them the turn has gone)."""
    retrieve = generated.api("tables.tables_retrieve")
    answer = retrieve.sync_detailed(table.id, client=client, since_version=table.version, wait=15)
    assert answer.status_code == 200, f"table {table.id} did not move in 15 s"
    return parsed(answer, generated.models.Table)


def create(generated, client, seats: int, others: list[str], target: int = 50):
    models = generated.models
    body = models.TableCreateRequest(
        seats=models.SeatsEnum(seats),
        others=[models.OthersEnum(other) for other in others],
        target=target,
    )
    answer = generated.api("tables.tables_create").sync_detailed(client=client, body=body)
    return parsed(answer, models.Table, 201)


def join(generated, client, token: str):
    preview = generated.api("invites.invites_retrieve").sync_detailed(token, client=client)
    assert parsed(preview, generated.models.InvitePreview).joined is False
    answer = generated.api("invites.invites_join_create").sync_detailed(token, client=client)
    return parsed(answer, generated.models.Table)
