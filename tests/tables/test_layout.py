"""The shape of ``tables/`` (issue 14): no import inside a function (they hid the import
circle services -> tasks -> notifications -> services), but for ``AppConfig.ready``,
Django's place for one. The layers themselves are the import-linter contract in
pyproject.toml, and the size limits (400 lines a file, 60 a function) hold for the whole
tree; tests/test_architecture.py checks both."""

from __future__ import annotations

import ast
from pathlib import Path

TABLES = Path(__file__).resolve().parents[2] / "tables"
MODULES = sorted(path for path in TABLES.rglob("*.py") if "migrations" not in path.parts)


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_no_import_in_tables_hides_inside_a_function():
    hidden = [
        f"{path.relative_to(TABLES)}:{inner.lineno} in {node.name}"
        for path in MODULES
        for node in _functions(ast.parse(path.read_text(encoding="utf-8")))
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
        and not (path.name == "apps.py" and node.name == "ready")
    ]
    assert hidden == []
