"""``python -m dugout.train``: MaskablePPO with self-play (:mod:`dugout.train.ppo`, the
default, ``--algo sb3``) or multi-agent PPO against a league of past snapshots on Ray RLlib
(:mod:`dugout.train.rllib`, ``--algo rllib``, the ``rllib`` extra). ``--algo`` is read
here and the other arguments go to the chosen trainer."""

import sys

ALGOS = ("sb3", "rllib")


def _algo(argv: list[str]) -> tuple[str, list[str]]:
    """``--algo NAME`` (or ``--algo=NAME``) and the arguments without it."""
    rest, algo, i = [], "sb3", 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--algo" and i + 1 < len(argv):
            algo, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--algo="):
            algo = arg.split("=", 1)[1]
        elif arg == "--algo":
            sys.exit("python -m dugout.train: error: --algo needs a value: sb3 or rllib")
        else:
            rest.append(arg)
        i += 1
    if algo not in ALGOS:
        sys.exit(f"python -m dugout.train: error: --algo must be sb3 or rllib, got {algo!r}")
    return algo, rest


algo, argv = _algo(sys.argv[1:])
if algo == "rllib":
    from .rllib import main
else:
    from .ppo import main

main(argv)
