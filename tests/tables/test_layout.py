"""The shape of ``tables/`` (issue 14): no module over 400 lines, no function over 60, and
no import inside a function (they hid the import circle services -> tasks ->
notifications -> services), but for ``AppConfig.ready``, Django's place for one. The
layers themselves are the import-linter contract in pyproject.toml
(tests/test_architecture.py runs it)."""

from __future__ import annotations

import ast
from pathlib import Path

TABLES = Path(__file__).resolve().parents[2] / "tables"
MODULES = sorted(path for path in TABLES.rglob("*.py") if "migrations" not in path.parts)


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def test_no_module_in_tables_is_over_400_lines():
    long = {
        str(path.relative_to(TABLES)): count
        for path in MODULES
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}


def _data_literal(node: ast.FunctionDef) -> bool:
    """A function that only returns a literal (a dict of strings, say): data, not logic."""
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    return (
        len(body) == 1
        and isinstance(body[0], ast.Return)
        and isinstance(body[0].value, ast.Dict | ast.List | ast.Tuple | ast.Set)
    )


def test_no_function_in_tables_is_over_60_lines():
    long = {
        f"{path.relative_to(TABLES)}:{node.name}": node.end_lineno - node.lineno + 1
        for path in MODULES
        for node in _functions(ast.parse(path.read_text(encoding="utf-8")))
        if node.end_lineno - node.lineno + 1 > 60 and not _data_literal(node)
    }
    assert long == {}


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
