"""Builders and actors shared by the test suite, one module per job:

- ``api``: tables created, joined and played through the API (seated clients per seat);
- ``database``: tables made through the services, short readers of the rows;
- ``log``: the engine state rebuilt from the Hand and Move rows (the log is the truth);
- ``engine``: tiles, hands and positions for the engine's unit tests;
- ``playout``: the fast path played next to the engine, checked at every step;
- ``profiles``: matches of any rule profile dealt as given;
- ``broker``: a stand-in ``apply_async`` that records what would be queued;
- ``browser``: Chromium through Playwright, sign-in and a player's steps.

The named actors (alice, bob, carol, dave, mallory) and ``api_client_for`` are fixtures in
``tests/conftest.py``."""
