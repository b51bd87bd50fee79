"""The table page's ES modules survive production's static storage: collected with
hashed names, every relative import of every module points at a collected, hashed file."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test.utils import override_settings

IMPORT = re.compile(r"""^import [^;]*? from "(?P<path>[^"]+)";""", re.M | re.S)


@pytest.mark.slow
def test_collected_modules_import_hashed_modules(tmp_path):
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.static_storage.ModuleStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)

    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = ["js/table.js"] + [name for name in paths if name.startswith("js/table/")]
    assert len(modules) > 5
    for name in modules:
        hashed = tmp_path / paths[name]
        imports = IMPORT.findall(hashed.read_text())
        if name in ("js/table.js", "js/table/controller.js"):
            assert imports, name
        for path in imports:
            target = (hashed.parent / path).resolve()
            assert target.exists(), (name, path)
            assert re.search(r"\.[0-9a-f]{12}\.js$", path), (name, path)
