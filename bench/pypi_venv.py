"""The PyPI package ``dominoes`` 6.1.0 (an unrelated project with our package's name) in
its own virtualenv, ``bench/.venv-pypi-dominoes``, for the benchmarks that compare with it.

Never install it into the project's venv: it would shadow our ``dominoes`` package.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
PYPI_VENV = BENCH / ".venv-pypi-dominoes"
PYPI_PYTHON = PYPI_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
PYPI_REQUIREMENT = "dominoes==6.1.0"


def ensure_pypi_venv() -> None:
    """Create ``bench/.venv-pypi-dominoes`` with ``dominoes==6.1.0`` unless it exists
    (raises ``subprocess.CalledProcessError`` when venv or pip fails)."""
    if PYPI_PYTHON.exists():
        return
    print(f"creating {PYPI_VENV.relative_to(BENCH.parent)} with {PYPI_REQUIREMENT} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(PYPI_VENV)], check=True)
    subprocess.run([str(PYPI_PYTHON), "-m", "pip", "install", "-q", PYPI_REQUIREMENT], check=True)
