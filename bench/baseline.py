"""The servers ``bench/load.py`` measures: the working tree and, with ``--baseline REV``,
an older commit checked out beside it (``git worktree add --detach`` into a temporary
folder), each with its own database, port and settings module, so both run at once and
the one-at-a-time phase alternates between them.

The older commit reuses this checkout's ``.venv`` when its lock (``requirements/dev.txt``)
is the same, else gets its own venv installed from its lock; its modules are found first
through ``PYTHONPATH`` (checked before it starts). With ``--redis`` each server's cache
keys and Celery queue get their own prefix and name, so two servers share one scratch
Redis database without sharing throttle buckets or tasks.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

SETTINGS = """from config.settings.local import *  # noqa: F403

CACHES["default"]["KEY_PREFIX"] = "bench-{name}"  # noqa: F405
CELERY_TASK_DEFAULT_QUEUE = "bench-{name}"
ROOT_URLCONF = "bench_urls"
"""

#: The bench's URLconf, the same for every server: the site's routes, and first the floor
#: (``FLOOR_PATH``): an authenticated DRF view that reads nothing and answers ``{{}}``, so
#: a request's ratio to it is what the request adds to the framework (the token's lookup,
#: the middleware, DRF's dispatch and the JSON renderer).
URLS = """from django.urls import path
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as site_urlpatterns


class Floor(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({{}})


urlpatterns = [path("{path}", Floor.as_view()), *site_urlpatterns]
"""

#: Where the floor answers (``URLS``), beside the API's own views.
FLOOR_PATH = "api/v1/bench-floor/"


@dataclass
class Server:
    """One server under test: ``name`` (``new``/``old``), its checkout, its venv's
    ``bin`` folder, database name, port, settings module and the folder holding it."""

    name: str
    root: Path
    bin: Path
    db: str
    port: int
    settings_dir: Path
    settings: str = ""
    seats: dict[str, list[int]] = field(default_factory=dict)
    process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True)
    return done.stdout


def write_settings(server: Server) -> None:
    """The server's settings module: ``config.settings.local`` with its own cache key
    prefix and Celery queue, and the bench's URLconf (``URLS``: the floor)."""
    module = f"bench_settings_{server.name}"
    (server.settings_dir / f"{module}.py").write_text(SETTINGS.format(name=server.name))
    (server.settings_dir / "bench_urls.py").write_text(URLS.format(path=FLOOR_PATH))
    server.settings = module


def servers(args, scratch: Path) -> list[Server]:
    """The working tree's server and, with ``args.baseline``, the older commit's."""
    new = Server("new", ROOT, ROOT / ".venv" / "bin", args.db, args.port, scratch)
    found = [new]
    if args.baseline:
        source = scratch / "baseline"
        commit = _git("rev-parse", "--verify", f"{args.baseline}^{{commit}}").strip()
        _git("worktree", "add", "--detach", str(source), commit)
        bin_folder = _venv_for(source, scratch)
        found.append(Server("old", source, bin_folder, f"{args.db}_old", args.port + 1, scratch))
    for server in found:
        write_settings(server)
    return found


def _venv_for(source: Path, scratch: Path) -> Path:
    """This checkout's venv when the older lock is the same, else a new one from it."""
    lock = "requirements/dev.txt"
    if (source / lock).read_bytes() == (ROOT / lock).read_bytes():
        return ROOT / ".venv" / "bin"
    venv = scratch / "venv"
    print(f"the baseline's lock differs: installing it into {venv} ...")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "--require-hashes", "-r", str(source / lock)], check=True)
    return venv / "bin"


def check_imports(server: Server, env: dict[str, str]) -> None:
    """Fail unless the server's Python imports the server's own ``tables`` package."""
    code = "import tables, sys; sys.stdout.write(tables.__file__)"
    found = subprocess.run(
        [str(server.bin / "python"), "-c", code],
        cwd=server.root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    if not Path(found).resolve().is_relative_to(server.root.resolve()):
        raise RuntimeError(f"{server.name}: tables comes from {found}, not {server.root}")


def remove(scratch: Path, found: list[Server]) -> None:
    """Remove the baseline's worktree and the scratch folder."""
    for server in found:
        if server.name == "old":
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(server.root)],
                cwd=ROOT,
                check=False,
                capture_output=True,
            )
    shutil.rmtree(scratch, ignore_errors=True)


def scratch_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="domino-bench-"))
