"""``python -m dugout.train``: an alias of ``dugout train`` (MaskablePPO with self-play,
:mod:`dugout.train.ppo`, the default, ``--algo sb3``; ``--env manager_challenge_v0`` is
``dugout train challenge``) and of ``dugout train rllib`` (multi-agent PPO against a
league of past snapshots on Ray RLlib, :mod:`dugout.train.rllib`, ``--algo rllib``, the
``rllib`` extra) and of ``dugout train exit`` (expert iteration: the search manager's
choices teach a network, which then plays the search's rollouts, :mod:`dugout.train.exit`,
``--algo exit``) and of ``dugout train distill`` (a network learns an exact solver's policy
at every state, :mod:`dugout.train.distill`, ``--algo distill``). ``--algo`` is read here and the other arguments go to the chosen
trainer's ``main``."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Sequence

#: ``--algo``: the module of each trainer
ALGOS = {"sb3": "dugout.train.ppo", "rllib": "dugout.train.rllib", "exit": "dugout.train.exit",
         "distill": "dugout.train.distill"}


def _refuse(message: str) -> None:
    sys.stderr.write(f"dugout train: error: {message}\n")
    raise SystemExit(2)


def _algo(argv: Sequence[str]) -> tuple[str, list[str]]:
    """``--algo NAME`` (or ``--algo=NAME``) and the arguments without it."""
    rest, algo, i = [], "sb3", 0
    argv = list(argv)
    while i < len(argv):
        arg = argv[i]
        if arg == "--algo":
            if i + 1 >= len(argv):
                _refuse(f"--algo needs a value: {', '.join(ALGOS)}")
            algo, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--algo="):
            algo = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    if algo not in ALGOS:
        _refuse(f"--algo must be one of {', '.join(ALGOS)}, got {algo!r}")
    return algo, rest


def main(argv: Sequence[str] | None = None) -> Any:
    """Run the trainer ``--algo`` names on the other arguments."""
    algo, rest = _algo(sys.argv[1:] if argv is None else argv)
    return importlib.import_module(ALGOS[algo]).main(rest)


if __name__ == "__main__":
    main()
