"""The ``dugout`` command: one entry point, a subcommand for each thing people do.

    dugout --help                       the subcommands, one line each
    dugout tournament --help            one subcommand's flags
    dugout tournament --agents random heuristic --games 400

A subcommand lives in the module that does its work, as three functions (named with the
subcommand's key where a module holds several, e.g. ``configure_tournament``):

* ``configure(parser)`` adds its flags, every one typed by :mod:`dugout.cli.args`;
* ``check(args)`` (optional) checks what needs several flags or reads a file (a checkpoint,
  a card file, the env built once with its options), raising ``UsageError``, ``ValueError``
  or a ``DugoutError`` that names the flag;
* ``run(args)`` does the work.

Parsing and checking finish before ``run`` starts, and neither writes anything: a bad flag
is one line on stderr, ``dugout SUBCOMMAND: error: ...``, exit status 2, nothing left
behind. A subcommand's module is imported only when that subcommand runs, so ``dugout
--help`` is quick and needs none of the optional extras. The ``python -m`` entry points
and each module's ``main(argv)`` are aliases: they run the same three functions through
:func:`dugout.cli.args.invoke`.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .args import Parser, build, invoke

__all__ = ["Command", "COMMANDS", "main", "run_command", "parser_for", "command_for"]


@dataclass(frozen=True)
class Command:
    """A subcommand: its name (one or two words), the module that does it, the key of its
    functions in that module (``configure_KEY``...; none: ``configure``...), its one-line
    summary, and a cheap valid argument list (the bad-argument tests' base)."""

    name: str
    module: str
    summary: str
    key: str = ""
    example: tuple[str, ...] = ()
    needs: str = ""       # a module its check requires (an optional extra), e.g. "ray"

    def function(self, what: str) -> Callable[..., Any] | None:
        module = importlib.import_module(self.module)
        return getattr(module, f"{what}_{self.key}" if self.key else what, None)


def _c(name: str, module: str, summary: str, key: str = "", example: Sequence[str] = (),
       needs: str = "") -> Command:
    return Command(name, module, summary, key, tuple(example), needs)


#: Every subcommand, in the order ``dugout --help`` lists them.
COMMANDS: dict[str, Command] = {c.name: c for c in [
    _c("pipeline", "dugout.studies.pipeline",
       "the main job: train briefly, then a tournament on every ruleset; a report",
       example=["--envs", "thats_baseball_v0", "--timesteps", "0"]),
    _c("tournament", "dugout.evaluate.cli", "a round robin of seat-swapped pairs, with a report",
       "tournament", ["--agents", "random", "heuristic", "--games", "4"]),
    _c("replay", "dugout.evaluate.cli", "the box score and play-by-play of one game (or a GIF)",
       "replay", ["--seed", "1", "--agents", "random", "heuristic"]),
    _c("crn", "dugout.evaluate.cli", "how much common random numbers narrow the interval", "crn",
       ["--agents", "random", "heuristic", "--games", "4"]),
    _c("analyze", "dugout.evaluate.cli", "search-priced decisions of a game or campaign; where a "
       "manager loses most", "analyze", ["--env", "grand_slam_v0", "--search", "search:sims=2,batch=1"]),
    _c("play", "dugout.web.cli", "play any ruleset in a browser, against a manager or watching two",
       example=["--no-browser"]),
    _c("challenge", "dugout.evaluate.manager_challenge",
       "managers in the solo Manager Challenge: Manager Points",
       example=["--campaigns", "1", "--agents", "random"]),
    _c("train", "dugout.train.ppo", "train a manager: MaskablePPO self-play (stable-baselines3)",
       example=["--timesteps", "64"]),
    _c("train vector", "dugout.train.vector_ppo",
       "train a That's Baseball manager on thousands of batched games",
       example=["--timesteps", "64"]),
    _c("train exit", "dugout.train.exit",
       "expert iteration: the search teaches a network that then plays its rollouts",
       example=["--rounds", "1", "--games", "2", "--sims", "2", "--eval-games", "4"]),
    _c("train distill", "dugout.train.distill",
       "a network learns an exact solver's policy at every state (That's Baseball)",
       example=["--sample", "2000", "--epochs", "1"]),
    _c("train challenge", "dugout.train.single", "train a Manager Challenge manager (single agent)",
       example=["--timesteps", "64"]),
    _c("train rllib", "dugout.train.rllib",
       "train against a league of past snapshots on Ray RLlib",
       example=["--iterations", "1"]),
    _c("solve thats_baseball", "dugout.agents.solvers.thats_baseball.cli",
       "That's Baseball's exact solution, and each manager's gap to it", example=["--innings", "1"]),
    _c("solve bottom_ninth", "dugout.agents.solvers.bottom_ninth.cli",
       "Bottom of the 9th's duel solved; each manager's exploitability",
       example=["--agents"]),
    _c("verify thats_baseball", "dugout.studies.verify_thats_baseball",
       "check That's Baseball's solution against simulated games", example=["--games", "100"]),
    _c("verify bottom_ninth", "dugout.studies.verify_bottom_ninth",
       "check Bottom of the 9th's solution against simulated games", example=["--games", "100"]),
    _c("tables", "dugout.agents.value_tables.__main__",
       "a ruleset's run and win expectancy by situation", example=["--innings", "1"]),
    _c("bench", "dugout.studies.bench", "decisions a second of every env, against PettingZoo's",
       example=["--games", "1"]),
    _c("bench vector", "dugout.studies.bench_vector", "the batched engine's games a second",
       example=["--sizes", "4", "--seconds", "0.1"]),
    _c("bench train", "dugout.studies.bench_train", "training speed: the batched trainer against SB3's",
       example=["--rounds", "1"]),
    _c("bench search", "dugout.studies.bench_search",
       "the search manager's seconds a game and decisions a second, per ruleset",
       example=["--games", "1", "--agent", "search:sims=1,batch=1"]),
    _c("strength", "dugout.studies.strength",
       "search against the heuristic on every ruleset: the search docs' table",
       example=["--games", "4", "--cases", "grand_slam", "--agents", "search:sims=1,batch=1", "heuristic"]),
    _c("standings", "dugout.studies.standings",
       "every kind of manager against the heuristic: the README's table",
       example=["--managers", "random", "--cases", "grand_slam", "--games", "4", "--no-exact"]),
    _c("pretrained", "dugout.studies.pretrained",
       "train, measure and write the shipped pretrained managers, with model cards",
       example=["--entries", "grand_slam", "--games", "4"]),
    _c("bench scaling", "dugout.studies.bench_scaling",
       "how tournaments scale with workers on Ray", example=["--games", "4"],
       needs="ray"),
    _c("openspiel", "dugout.studies.openspiel_interop",
       "OpenSpiel's MCTS against the heuristic; its MCCFR against the duel's solver",
       example=["--games", "1", "--simulations", "4", "--cfr-iterations", "1", "--value-games", "1"],
       needs="pyspiel"),
    _c("cards", "dugout.studies.bottom_ninth_cards",
       "Bottom of the 9th's cards: each batter against each pitcher",
       example=["--pas", "1"]),
    _c("calibrate", "dugout.studies.calibrate_showdown",
       "Showdown's simulated seasons against the real ones", example=["--games", "2"]),
    _c("runs-fit", "dugout.studies.runs_fit",
       "fit Showdown cards from real statistics to a season's runs", example=["--season", "2004"]),
    _c("realstats", "dugout.envs.realstats.__main__",
       "cards for a real team and season from the Lahman database", example=["--season", "2004", "--list"]),
    _c("showdown build-team", "dugout.envs.showdown.__main__",
       "a legal Showdown team (25 players, 5,000 points) from a season's cards", "team"),
    _c("showdown build-deck", "dugout.envs.showdown.__main__",
       "a legal 60-card Showdown strategy deck", "deck"),
]}


def _train_algo(argv: list[str]) -> list[str]:
    """``dugout train --algo NAME ...`` as the trainer's own subcommand (``sb3``: ``train``,
    ``rllib``: ``train rllib``, ``exit``: ``train exit``, ``distill``: ``train distill``; :data:`dugout.train.__main__.ALGOS`,
    what ``python -m dugout.train --algo`` reads); other argument lists as they are."""
    if not argv or argv[0] != "train" or not any(a == "--algo" or a.startswith("--algo=") for a in argv):
        return argv
    if len(argv) >= 2 and f"train {argv[1]}" in COMMANDS:
        return argv
    from ..train.__main__ import _algo, ALGOS
    algo, rest = _algo(argv[1:])                 # an unknown one: one line, exit status 2
    name = next(n for n, c in COMMANDS.items() if c.module == ALGOS[algo] and n.split()[0] == "train")
    return [*name.split(), *rest]


def command_for(argv: Sequence[str]) -> tuple[Command | None, list[str]]:
    """The subcommand ``argv`` starts with (two words before one) and the rest of it;
    ``train --algo NAME`` is that trainer's subcommand (``train exit`` for ``exit``)."""
    argv = _train_algo(list(argv))
    if len(argv) >= 2 and f"{argv[0]} {argv[1]}" in COMMANDS:
        return COMMANDS[f"{argv[0]} {argv[1]}"], argv[2:]
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]], argv[1:]
    return None, argv


def parser_for(command: Command) -> Parser:
    """The subcommand's parser, with its flags (for the tests and ``--help``)."""
    module = importlib.import_module(command.module)
    return build(f"dugout {command.name}", command.function("configure"), module.__doc__)


def run_command(name: str, argv: Sequence[str] | None = None) -> Any:
    """Run subcommand ``name`` with ``argv`` (default: ``sys.argv[1:]``), as ``dugout NAME
    ...`` does, and return what its ``run`` returns."""
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    return invoke(f"dugout {command.name}", command.function("configure"),
                  command.function("check"), command.function("run"), argv, module.__doc__)


def _overview() -> str:
    width = max(len(name) for name in COMMANDS)
    rows = "\n".join(f"  {name:<{width}}  {c.summary}" for name, c in COMMANDS.items())
    return ("usage: dugout SUBCOMMAND [flags]    (dugout SUBCOMMAND --help: its flags)\n\n"
            "Reinforcement-learning environments for tabletop baseball games, the managers that\n"
            "play them, and the harness that compares them.\n\nsubcommands:\n" + rows + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """The console entry point: ``dugout SUBCOMMAND [flags]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_overview(), end="")
        return 0
    if argv[0] == "--version":
        from .. import __version__
        print(f"dugout {__version__}")
        return 0
    command, rest = command_for(argv)
    if command is None:
        groups = sorted({n.split()[0] for n in COMMANDS if " " in n})
        known = ", ".join(COMMANDS)
        if argv[0] in groups:
            members = [n for n in COMMANDS if n.split()[0] == argv[0]]
            message = f"{argv[0]} takes one of: {', '.join(members)}"
        else:
            message = f"unknown subcommand {argv[0]!r}; known: {known}"
        sys.stderr.write(f"dugout: error: {message}\n")
        return 2
    run_command(command.name, rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
