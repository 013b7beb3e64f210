"""``python -m dugout.studies [NAME [flags]]``: the studies' subcommands, as ``dugout NAME``.

Without a name it lists them (the ``dugout`` subcommands whose module is in
:mod:`dugout.studies`); ``python -m dugout.studies calibrate --games 2`` is
``dugout calibrate --games 2``.
"""

from __future__ import annotations

import sys
from typing import Sequence

from ..cli.main import COMMANDS, command_for, run_command


def studies() -> dict[str, str]:
    """The studies' subcommands and their one-line summaries, in ``dugout --help``'s order."""
    return {name: c.summary for name, c in COMMANDS.items()
            if c.module.startswith(__package__ + ".")}


def main(argv: Sequence[str] | None = None) -> int:
    """List the studies, or run the one ``argv`` names; 0 when done, 2 for an unknown name."""
    argv = list(sys.argv[1:] if argv is None else argv)
    known = studies()
    if not argv or argv[0] in ("-h", "--help", "help"):
        width = max(map(len, known))
        print("usage: python -m dugout.studies NAME [flags]    (the same as dugout NAME)\n\n"
              "studies:\n" + "\n".join(f"  {n:<{width}}  {s}" for n, s in known.items()))
        return 0
    command, rest = command_for(argv)
    if command is None or command.name not in known:
        sys.stderr.write(f"python -m dugout.studies: error: unknown study {argv[0]!r}; known: "
                         f"{', '.join(known)}\n")
        return 2
    run_command(command.name, rest)
    return 0


if __name__ == "__main__":          # worker processes may import this module: run only once
    sys.exit(main())
