"""``python -m dugout.evaluate {tournament,replay,crn,analyze}``: see :mod:`dugout.evaluate.cli`."""

import sys

from .cli import main

if __name__ == "__main__":          # worker processes import this module too: run only once
    main(sys.argv[1:])
