"""Command line: ``python -m dominoes replay FILE`` (see ``dominoes.cli``)."""

import sys

from dominoes.cli import main

sys.exit(main())
