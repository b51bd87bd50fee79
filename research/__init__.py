"""The bots' experiments: arena variants, regret screens and the notebook of what they
measured (``research/NOTEBOOK.md``). Run from the repository's root as modules
(``python -m research.quelonia_variants``); never imported by the service or its tests,
and not shipped with it (pyproject's package list leaves it out)."""
