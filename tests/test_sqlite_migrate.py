"""``make run`` without ``DATABASE_URL`` serves from SQLite: every migration must run
there too, not only on PostgreSQL (CI's database). A data migration written in
PostgreSQL's SQL (``LEAST``) once stopped ``make run`` on a fresh checkout."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_every_migration_runs_on_a_fresh_sqlite_database(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.local"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "fresh.sqlite3").stat().st_size > 0


#: Played by ``test_a_match_is_played_on_sqlite`` in its own process, on a fresh SQLite
#: database: alice against Nino through the API until the first hand ends, then her list
#: of tables a page at a time (the cursor's query).
_SMOKE = """
import random, django
django.setup()
from django.core.management import call_command
from django.test.utils import setup_test_environment
setup_test_environment()
call_command("migrate", verbosity=0, interactive=False)
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from accounts.models import User
alice = User.objects.create_user("alice", "alice@example.com", "correct-horse-battery-9")
client = APIClient()
client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=alice).key)
ids = [client.post("/api/v1/tables/", {"seats": 2, "target": 50, "others": ["nino"]},
                   format="json").json()["id"] for _ in range(3)]
rng, moves = random.Random(1), 0
while True:
    state = client.get(f"/api/v1/tables/{ids[0]}/").json()
    if state["game"]["hand_number"] > 0 or state["status"] != "playing":
        break
    move = rng.choice(state["game"]["legal_moves"])
    answer = client.post(f"/api/v1/tables/{ids[0]}/moves/", {"tile": move["tile"],
        "end": move["end"], "version": state["version"]}, format="json",
        HTTP_IDEMPOTENCY_KEY=f"k{moves}")
    assert answer.status_code == 200, answer.json()
    moves += 1
first = client.get("/api/v1/tables/?page_size=2").json()
rest = client.get(first["next"]).json()
listed = [row["id"] for row in first["results"] + rest["results"]]
assert sorted(listed) == sorted(ids), listed
print("played", moves)
"""


@pytest.mark.slow
def test_a_match_is_played_on_sqlite(tmp_path):
    """The move path sends several statements in one round trip on PostgreSQL; SQLite
    takes one a call, and "my tables" after a cursor cannot use a compound query there:
    both must still work on ``make run``'s database."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'play.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "-c", _SMOKE],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.local", "BOT_DELAY_SECONDS": "0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("played ") and int(result.stdout.split()[1]) > 0
