"""The bots' research (``research/``) and the benchmarks (``bench/``) stay outside the
service: nothing the service ships or tests imports them, they are not packaged, each runs
from the repository's root as a module without editing ``sys.path``, and no two of their
modules import each other (read from the source: this test imports neither)."""

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("bench", "research")
PRODUCT = ("dominoes", "tables", "accounts", "config", "core", "notices", "moderation")


def _modules(folder: str) -> dict[str, ast.Module]:
    """Every ``*.py`` under ``folder`` (migrations and virtualenvs left out), parsed, by
    dotted module name."""
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if {"migrations", ".venv"} & set(parts) or any(p.startswith(".venv") for p in parts):
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _imported(tree: ast.Module) -> set[str]:
    """The dotted names ``tree`` imports anywhere (inside functions and
    ``TYPE_CHECKING`` blocks too)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("folder", [*PRODUCT, "tests"])
def test_neither_the_service_nor_its_tests_import_research_or_bench(folder):
    offending = {
        name: sorted(n for n in _imported(tree) if n.split(".")[0] in OUTSIDE)
        for name, tree in _modules(folder).items()
    }
    assert not {name: found for name, found in offending.items() if found}


def test_research_and_bench_are_not_packaged_with_the_service():
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    shipped = find_packages(str(ROOT), include=found["packages"]["find"]["include"])
    assert "dominoes.bots" in shipped
    assert not [name for name in shipped if name.split(".")[0] in OUTSIDE]


@pytest.mark.parametrize("folder", OUTSIDE)
def test_no_module_edits_sys_path_to_import(folder):
    edits = []
    for name, tree in _modules(folder).items():
        for node in tree.body:  # the module level: what an import of it runs
            text = ast.unparse(node)
            if "sys.path" in text and not isinstance(node, ast.FunctionDef | ast.ClassDef):
                edits.append(f"{name}: {text.splitlines()[0]}")
    assert not edits


def test_no_two_modules_of_research_or_bench_import_each_other():
    modules = {**_modules("bench"), **_modules("research")}
    # A script's folder is on its path: ``import load`` there is ``bench.load``.
    graph = {
        name: {
            other
            for other in modules
            if other != name and {other, other.rpartition(".")[2]} & _imported(tree)
        }
        for name, tree in modules.items()
    }
    circles = sorted(
        tuple(sorted((a, b))) for a, targets in graph.items() for b in targets if a in graph[b]
    )
    assert not circles


@pytest.mark.parametrize(
    "module", ["research.quelonia_variants", "research.vs_pypi", "bench.engine_speed"]
)
def test_each_runs_from_the_root_as_a_module(module):
    done = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_the_shipped_bots_carry_no_knob_only_an_experiment_sets():
    """Quelonia takes what the service gives her (simulations, the clock), and no module of
    the bots holds a switch for experiments: a variant is a subclass (research.lab)."""
    import inspect

    from dominoes.bots import match_value, posterior, quelonia, simulate

    parameters = list(inspect.signature(quelonia.Quelonia.__init__).parameters)
    assert parameters == ["self", "rollouts", "time_budget"]
    switches = {
        quelonia: ("ROLLOUT", "ENDGAME", "SETTLE", "LEGIBLE", "BURN_IN"),
        posterior: ("READINGS_EVERYWHERE",),
        match_value: ("THREE_SEATS",),
        simulate: ("advice_rollout", "advice_playout"),
    }
    left = [f"{m.__name__}.{n}" for m, names in switches.items() for n in names if hasattr(m, n)]
    assert not left
    assert all("burn_in" not in options for options in quelonia.PARTNERSHIP_OPTIONS.values())
