"""The engine stays pure: the import-linter contract in pyproject.toml must hold."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    if not (ROOT / "dominoes" / "__init__.py").exists():
        pytest.skip("dominoes/__init__.py does not exist yet: no engine to check")
    lint_imports = Path(sys.executable).parent / "lint-imports"

    result = subprocess.run(
        [str(lint_imports)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, (
        "An import contract is broken; move the import out of dominoes/ "
        "(the engine may not import Django, DRF, Celery or the service apps):\n"
        + result.stdout
        + result.stderr
    )
