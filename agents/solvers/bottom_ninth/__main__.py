"""``python -m dugout.agents.solvers.bottom_ninth``: see :mod:`.cli`."""
import sys

from .cli import main

if __name__ == "__main__":
    main(sys.argv[1:])
