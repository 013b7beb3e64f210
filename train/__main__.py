"""``python -m dugout.train``: see :mod:`dugout.train.ppo`."""

import sys

from .ppo import main

main(sys.argv[1:])
