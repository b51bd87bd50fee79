"""Production settings pass Django's deployment checklist and refuse to start half-set."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    dropped = ("SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level=WARNING",
        "--settings=config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="domino.example.com",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage(
        "check", "--settings=config.settings.production", ALLOWED_HOSTS="domino.example.com"
    )

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_malformed_value_fails_loudly():
    result = _manage("check", "--settings=config.settings.local", BOT_DELAY_SECONDS="soon")

    assert result.returncode != 0
    assert "BOT_DELAY_SECONDS" in result.stderr


def test_a_malformed_database_url_fails_loudly():
    result = _manage("check", "--settings=config.settings.local", DATABASE_URL="mysqll://x/y")

    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_production_language_cookie_is_secure_and_same_site_lax():
    """The header's language switch sets ``django_language``; in production it is sent
    over HTTPS only and not on cross-site subrequests (issue 13)."""
    script = (
        "from django.test import Client\n"
        "https = Client(secure=True, headers={'X-Forwarded-Proto': 'https'})\n"
        "reply = https.post('/i18n/setlang/', {'language': 'en', 'next': '/'})\n"
        "cookie = reply.cookies['django_language']\n"
        "print(reply.status_code, repr(cookie['secure']), repr(cookie['samesite']))\n"
    )
    result = _manage(
        "shell",
        "-c",
        script,
        "--settings=config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="testserver",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    last_line = result.stdout.strip().splitlines()[-1]  # after the shell's own notices
    assert last_line.split() == ["302", "True", "'Lax'"]


def test_a_file_mail_url_writes_the_mail_to_that_folder(tmp_path):
    folder = tmp_path / "mail"
    result = _manage(
        "sendtestemail",
        "someone@example.test",
        "--settings=config.settings.local",
        EMAIL_URL=f"filemail:///{folder}",  # filemail:////tmp/...: an absolute folder
    )

    assert result.returncode == 0, result.stdout + result.stderr
    [written] = list(folder.iterdir())
    assert "To: someone@example.test" in written.read_text()


def test_compose_publishes_the_web_port_on_loopback_only():
    """With NUM_PROXIES=1 a client reaching ``web`` directly could choose its own address:
    the compose file publishes the port on the host's loopback only (docs/security.md)."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        for published in service.get("ports", []):
            assert str(published).startswith("127.0.0.1:"), (name, published)
