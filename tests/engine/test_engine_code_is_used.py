"""Every public function and class of the engine (``dominoes/``) is used somewhere in the
repository besides its own definition: the product, its tests, ``bench/`` or
``research/``. A name nothing reads is dead code and goes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", ".git", "__pycache__"}


def _sources() -> dict[Path, str]:
    return {
        path: path.read_text()
        for path in ROOT.rglob("*.py")
        if not SKIP & set(path.relative_to(ROOT).parts)
    }


def test_every_public_engine_name_is_used() -> None:
    sources = _sources()
    text = "\n".join(sources.values())
    unused = set()
    for path in sorted((ROOT / "dominoes").rglob("*.py")):
        tree = ast.parse(sources[path])
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                if len(re.findall(rf"\b{node.name}\b", text)) <= 1:
                    unused.add(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    assert unused == set()
