"""python -m sigcore: the command line (:mod:`sigcore.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
