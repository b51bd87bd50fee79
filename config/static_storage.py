"""Static files in production: WhiteNoise's compressed manifest storage (content-hashed
names, cached for good), with the ES modules' imports hashed as well."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """``import ... from "./table/controller.js";`` in a collected script becomes
    ``"./table/controller.<hash>.js"`` (Django's ``support_js_module_import_aggregation``),
    so each module of the table page (``static/js/table/``) is fetched under its content
    hash too, and a deploy never mixes a new ``table.js`` with old modules."""

    support_js_module_import_aggregation = True
