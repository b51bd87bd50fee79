"""The benchmarks docs/scaling.md and the README cite, run from the repository's root as
modules (``python -m bench.engine_speed``); never imported by the service or its tests."""
