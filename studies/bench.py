"""How fast are dugout's baseball games? Random-vs-random games, timed.

Every two-manager ruleset the env registry holds (:data:`BENCHED`: That's Baseball, Harry's
Grand Slam Baseball, MLB Showdown's basic, advanced and expert games, Bottom of the 9th's
duel and Longer Game, Pokemon Baseball), each through its PettingZoo AEC env and through its
rules engine alone, against PettingZoo's own ``tictactoe_v3`` and ``texas_holdem_v4``. The
single-agent Manager Challenge is not timed here (:data:`NOT_BENCHED` says why).

Run it with::

    dugout bench                  # 300 games per mode
    dugout bench --games 1000
    dugout bench --seconds 5      # about 5 s per measurement
    dugout bench --json bench.json
    dugout bench --games 100 --rounds 3 --markdown docs/benchmarks.md   # the docs' figures
    dugout bench --rounds 6       # and each AEC env against tictactoe_v3 in 6 alternating rounds
    dugout bench --rounds 6 --split   # and where a decision's time goes

(``python -m dugout.studies.bench`` is the same.)

What is measured
----------------
Two random managers play whole nine-inning games, in two modes per game:

* That's Baseball, the "sample" team away and the "reds" at home:
  ``thats_baseball_v0 (AEC)`` and ``thats_baseball engine``;
* Harry's Grand Slam Baseball with the Card Reference's deck: ``grand_slam_v0 (AEC)`` and
  ``grand_slam engine``;
* MLB Showdown's advanced game, the 2004 Yankees at the 2004 Red Sox (Red Sox rules: DH;
  the home team rolls for the rotation spot): ``showdown_v0 (AEC)`` and ``showdown engine``;
* MLB Showdown's basic game, the same teams: ``showdown_basic_v0 (AEC)`` and
  ``showdown_basic engine``. Each manager's one decision is his starting pitcher, then the
  engine plays the game through, so a basic game has exactly two decisions: its
  decisions per second mostly count resets and say little. For the basic game, games per
  second and plate appearances per second are the figures that matter (how fast the
  engine simulates baseball, e.g. for calibration runs such as
  ``python -m dugout.studies.calibrate_showdown``);
* MLB Showdown's expert game without strategy cards, the same teams:
  ``showdown_expert_v0 (AEC)`` and ``showdown_expert engine``. Random managers walk half
  the batters intentionally, so its games are longer than the advanced game's;
* Bottom of the 9th with the built-in cards and default teams: the duel (one half inning:
  ``bottom_ninth_v0 (AEC, duel)`` and ``bottom_ninth engine (duel)``) and the Longer Game
  (three innings: ``... (AEC, game)`` and ``... engine (game)``);
* Pokemon Baseball, the "harbor" team at "summit": ``pokemon_baseball_v0 (AEC)`` and
  ``pokemon_baseball engine``. Random managers set random lineups and substitute at
  random (the bench empties by the middle innings), so a game has over a hundred
  decisions, most of them lineup picks and substitution offers;
* That's Baseball's batched engine (:class:`dugout.vector.BatchedGames`, the same teams):
  ``thats_baseball batched (B=4,096)``, 4,096 games stepped at once in numpy, a finished
  game restarted at once with the next seed, as training does. It plays the same games as
  the scalar engine (``tests/test_vector_thats_baseball.py``). Since games of a batch run
  side by side, a game count says little about its length: it plays 20,000 decisions per
  game of ``--games`` up to 2,000,000 (with ``--seconds S``, about S seconds), and at least
  until a game has finished; its games are those finished.

The two modes:

* ``... (AEC)``: through the wrapped PettingZoo env, the way an agent sees the game:
  ``for agent in env.agent_iter(): ... env.last() ... env.step(action)``. This pays for
  observations, action masks, infos and PettingZoo's order-enforcing wrapper.
* ``... engine``: through the rules engine alone (``rules.new_game`` and
  ``rules.apply_action``), which is what the AEC env is built on. The gap between the two
  is what the AEC API costs.

For scale, PettingZoo's own ``tictactoe_v3`` and ``texas_holdem_v4`` (``pettingzoo.classic``,
installed with ``pip install -e .[bench]``) are timed through the very same AEC loop, and
each dugout AEC env's decisions per second are printed as a ratio to theirs ("1.52x
tictactoe_v3" means dugout makes 1.52 times as many decisions per second). In the JSON
figures these ratios are ``ratios`` (That's Baseball), ``grand_slam_ratios``,
``showdown_ratios`` (advanced), ``showdown_basic_ratios``, ``showdown_expert_ratios``,
``bottom_ninth_ratios`` (the
duel), ``bottom_ninth_game_ratios`` and ``pokemon_baseball_ratios``; ``batched_ratios`` are
the batched engine's decisions per second against the peers and the scalar engine.

Those ratios come from one measurement of each env after the other, minutes apart on a
machine whose speed drifts. ``--rounds R`` adds the fair comparison: each dugout AEC env and
``tictactoe_v3`` alternate in R short rounds (1/R of the games, at least one, or of the
seconds each, the peer playing whole games until it has made as many decisions as the env),
and the median ratio and its range are printed (in the JSON figures: ``interleaved_ratios``,
per env key, with each round's ratio). The Showdown basic game's two decisions a game make
its rounds short and its ratio noisy.

``--split`` (with ``--rounds R``) says where an AEC env's decision goes. In each of the R
rounds the env's games are played three ways: through the env, through the env with its
observation vectors left blank (zeros; masks, rewards and infos as they are) and through its
engine alone, the same games each way; then ``tictactoe_v3`` for as many decisions as the
env made (the env's ratio of that round, so ``--split`` does not time the rounds twice). A
decision's time, counted in tictactoe decisions, is the engine's, plus the observation's
(the env's less the blank env's), plus the rest of the AEC API's (the blank env's less the
engine's: ``agent_iter``, ``last``, ``step``, infos, masks and the benchmark's own loop,
which tictactoe pays too). The three ratios (median and range) and the parts' medians are
printed; in the JSON figures ``cost_split`` holds, per env key, each round's ``ratio``,
``blank_ratio``, ``engine_ratio`` (decisions/s against tictactoe_v3), ``engine``,
``observation`` and ``aec`` (tictactoe decisions) and their medians. The parts' medians need
not add up exactly, and a noisy round can make a small part negative. The blank env's ratio
is about what the env would reach if its observation cost nothing (it still builds an array
of zeros and the action mask).

Every figure counts:

* decisions: calls of ``step`` with an action (not the ``step(None)`` calls that retire
  agents once a game is over, although their time is counted);
* plate appearances (the dugout games only): the sum of ``pa`` over both teams' box-score
  lines at the end of each game;
* games: whole games; every game is reset with its own seed (seed + 1, seed + 2, ...).

The clock runs over resets and play, not over building the env; one untimed warm-up game
comes first. Every env picks its actions with the same cheap code (``pick`` below: a
``random.Random`` choosing among the legal actions), so the comparison measures the
envs, not the agents. With ``--games N`` each dugout mode plays N games and each
PettingZoo env plays whole games until it has made at least as many decisions as the
longest of the dugout AEC runs; with ``--seconds S`` every measurement plays whole games
for about S seconds. All dugout AEC envs are compared with the same peer runs.

Speeds depend on the machine and on what else it runs: compare figures from one run,
not across machines. Short games weigh resets heavily: ``texas_holdem_v4`` makes only a
few decisions a game, and its seeded reset is much dearer than an unseeded one (RLCard
rebuilds its random generators), so its decisions per second lean on that cost; the same
holds, more so, for the Showdown basic game's two decisions.
``main(argv)`` returns the figures as a dict (what ``--json`` writes).

``--markdown FILE`` writes the figures as markdown tables (the docs' benchmark page is made
this way, never edited by hand): a block between the lines :data:`MARKDOWN_BEGIN` and
:data:`MARKDOWN_END`, which names the command and the date. A file that already holds the
block has it replaced in place, the prose around it kept; a file without it gets the block
at its end; a new file is the block under a title.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..cli import args
from ._generated import GeneratedBlock
from ..envs import bottom_ninth_v0, grand_slam_v0, pokemon_baseball_v0, showdown_v0, thats_baseball_v0
from ..envs.core.dice import Dice
from ..envs.grand_slam import rules as gs_rules
from ..envs.showdown import cards as sd_cards
from ..envs.showdown import rules as sd_rules
from ..envs.thats_baseball import rules
from ..envs.thats_baseball.cards import load_team

__all__ = ["main", "configure", "check", "run", "Budget", "Result", "measure", "pick",
           "markdown_block", "write_markdown", "MARKDOWN_BEGIN", "MARKDOWN_END"]

TEAMS = ("sample", "reds")       # away, home: the env's default pairing
SHOWDOWN_TEAMS = ("nya2004", "bos2004")   # away, home: the 2004 Yankees at the Red Sox
SHOWDOWN_LEVELS = ("advanced", "basic", "expert")
INNINGS = 9
PEERS = ("tictactoe_v3", "texas_holdem_v4")
INSTALL_HINT = "pip install -e .[bench]"

# One game: given the action picker's rng and the game's seed, play it to the end and
# return (decisions, plate appearances); plate appearances are None for games without them.
PlayGame = Callable[[random.Random, int], "tuple[int, int | None]"]


# -- the one action picker every env uses ------------------------------------------------
def pick(rng: random.Random, legal: Sequence[int]) -> int:
    """A uniformly random legal action."""
    return int(legal[rng.randrange(len(legal))])


# -- one game, three ways ---------------------------------------------------------------------
def play_aec_game(env: Any, rng: random.Random, seed: int) -> int:
    """Play one game of any PettingZoo AEC env whose observations carry an action mask.

    Returns the number of decisions (steps with an action).
    """
    env.reset(seed=seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(pick(rng, np.flatnonzero(obs["action_mask"])))
            decisions += 1
    return decisions


def play_engine_game(game: Any, apply_action: Callable[[Any, int], Any], rng: random.Random,
                     over: Callable[[Any], bool] | None = None) -> tuple[int, int]:
    """Play one game of a ruleset's engine (its game state ``game``, its ``apply_action``), a
    uniformly random legal action at each decision, until none is pending (or ``over(game)``).

    Returns the number of decisions and the plate appearances.
    """
    decisions = 0
    while game.pending is not None and not (over is not None and over(game)):
        apply_action(game, pick(rng, game.pending.legal))
        decisions += 1
    return decisions, plate_appearances(game)


def plate_appearances(game: rules.GameState | gs_rules.GameState | sd_rules.GameState) -> int:
    """Plate appearances of both teams, from the box score."""
    return sum(line.pa for team in game.box.lines for line in team)


def without_observations(env: Any) -> Any:
    """``env`` with its observation vectors left at zeros (action masks, rewards and infos as
    they are): what a decision costs besides encoding the observation (``--split``). In a
    series the series pieces are still encoded after the zeros (``observe``)."""
    base = env.unwrapped
    size = base.OBS.size            # the ruleset's own pieces (a series env adds its own)

    def blank(seat: int) -> np.ndarray:
        return np.zeros(size, dtype=np.float32)

    base._encode = blank
    return env


def _aec(env: Any, observations: bool) -> PlayGame:
    """Random play of ``env``, a dugout AEC env (its observations blank unless ``observations``)."""
    if not observations:
        without_observations(env)

    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        decisions = play_aec_game(env, rng, seed)
        return decisions, plate_appearances(env.unwrapped.game)

    return play


def thats_baseball_aec(observations: bool = True) -> PlayGame:
    return _aec(thats_baseball_v0.env(teams=TEAMS, innings=INNINGS), observations)


def thats_baseball_engine() -> PlayGame:
    away, home = load_team(TEAMS[0]), load_team(TEAMS[1])

    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        return play_engine_game(rules.new_game(away, home, Dice(seed), INNINGS), rules.apply_action,
                                rng)

    return play


def grand_slam_aec(observations: bool = True) -> PlayGame:
    return _aec(grand_slam_v0.env(innings=INNINGS), observations)


def grand_slam_engine() -> PlayGame:
    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        return play_engine_game(gs_rules.new_game(Dice(seed), INNINGS), gs_rules.apply_action, rng)

    return play


def showdown_aec(level: str, observations: bool = True) -> PlayGame:
    """MLB Showdown at ``level`` ("advanced", "basic" or "expert") through ``showdown_v0.env``."""
    return _aec(showdown_v0.env(level=level, teams=SHOWDOWN_TEAMS, innings=INNINGS), observations)


def showdown_engine(level: str) -> PlayGame:
    """MLB Showdown at ``level`` through ``rules.new_game`` and ``rules.apply_action``, with
    the env's defaults (home team's DH rule; the rotation spot rolled or chosen)."""
    teams = tuple(sd_cards.load_team(name) for name in SHOWDOWN_TEAMS)

    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        game = sd_rules.new_game(teams, Dice(seed), level=level, innings=INNINGS)
        return play_engine_game(game, sd_rules.apply_action, rng)

    return play


def bottom_ninth_aec(mode: str, observations: bool = True) -> PlayGame:
    """Bottom of the 9th through ``bottom_ninth_v0.env``: the duel (one half inning, the
    default teams) or the Longer Game (three innings)."""
    return _aec(bottom_ninth_v0.env(mode=mode), observations)


def bottom_ninth_engine(mode: str) -> PlayGame:
    """Bottom of the 9th through ``rules.new_game`` and ``rules.apply_action`` (the env's
    defaults: the built-in cards and default teams)."""
    from ..envs.bottom_ninth import rules as b9_rules
    template = bottom_ninth_v0.raw_env(mode=mode)

    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        return play_engine_game(template._new_game(seed), b9_rules.apply_action, rng,
                                over=lambda game: game.board.over)

    return play


POKEMON_TEAMS = ("harbor", "summit")      # away, home: the env's default pairing


BATCH = 4096
BATCH_DECISIONS = 2_000_000     # with --games N: at most this, at least 20,000 N


def thats_baseball_batched(budget: Budget, seed: int) -> Result:
    """Random play of ``BATCH`` That's Baseball games at once (see the module docstring):
    :func:`dugout.studies.bench_vector.bench` until the budget is spent and a game has finished."""
    from .bench_vector import bench
    r = bench(BATCH, seconds=budget.seconds, seed=seed, observe=False, decisions=budget.decisions,
              min_finished=1, teams=TEAMS, innings=INNINGS)
    return Result("thats_baseball_batched", f"thats_baseball batched (B={BATCH:,})",
                  r["games"], r["decisions"], None, r["seconds"])


def pokemon_baseball_aec(observations: bool = True) -> PlayGame:
    return _aec(pokemon_baseball_v0.env(teams=POKEMON_TEAMS, innings=INNINGS), observations)


def pokemon_baseball_engine() -> PlayGame:
    from ..envs.pokemon_baseball import rules as pk_rules
    from ..envs.pokemon_baseball.cards import load_team as pk_team
    away, home = pk_team(POKEMON_TEAMS[0]), pk_team(POKEMON_TEAMS[1])

    def play(rng: random.Random, seed: int) -> tuple[int, int]:
        return play_engine_game(pk_rules.new_game(away, home, Dice(seed), INNINGS),
                                pk_rules.apply_action, rng)

    return play


def peer_aec(name: str) -> PlayGame:
    """A PettingZoo classic env by name; raises ImportError when it is not installed.

    The implementation modules are imported directly: ``pettingzoo.classic.tictactoe_v3``
    is the same ``env`` function, but newer PettingZoo releases warn on that import path.
    """
    if name == "tictactoe_v3":
        from pettingzoo.classic.tictactoe.tictactoe import env as make_env
    elif name == "texas_holdem_v4":
        from pettingzoo.classic.rlcard_envs.texas_holdem import env as make_env
    else:
        raise ValueError(f"no peer env named {name!r}; known: {', '.join(PEERS)}")
    env = make_env()

    def play(rng: random.Random, seed: int) -> tuple[int, None]:
        return play_aec_game(env, rng, seed), None

    return play


# -- timing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """When a measurement stops: after whole games, once any given limit is reached."""
    games: int | None = None
    seconds: float | None = None
    decisions: int | None = None

    def spent(self, games: int, decisions: int, seconds: float) -> bool:
        return ((self.games is not None and games >= self.games)
                or (self.seconds is not None and seconds >= self.seconds)
                or (self.decisions is not None and decisions >= self.decisions))


@dataclass
class Result:
    key: str                        # the name in the JSON figures
    label: str                      # the name in the printed table
    games: int
    decisions: int
    plate_appearances: int | None
    seconds: float

    def rate(self, count: int | None) -> float | None:
        return None if count is None else count / self.seconds

    def figures(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions": self.decisions,
            "plate_appearances": self.plate_appearances,
            "seconds": self.seconds,
            "decisions_per_s": self.rate(self.decisions),
            "plate_appearances_per_s": self.rate(self.plate_appearances),
            "games_per_s": self.rate(self.games),
        }


def measure(key: str, label: str, play: PlayGame, budget: Budget, seed: int) -> Result:
    """Play whole games until the budget is spent; time everything after the warm-up."""
    rng = random.Random(seed)
    play(rng, seed)                             # warm-up, untimed
    games = decisions = 0
    pas: int | None = 0
    start = time.perf_counter()
    while True:
        d, pa = play(rng, seed + 1 + games)
        games += 1
        decisions += d
        pas = None if pa is None else pas + pa
        seconds = time.perf_counter() - start
        if budget.spent(games, decisions, seconds):
            return Result(key, label, games, decisions, pas, seconds)


def interleaved(key: str, label: str, play: PlayGame, peer: PlayGame, rounds: int,
                budget: Budget, seed: int) -> dict[str, Any]:
    """``play`` against ``tictactoe_v3`` (``peer``) in ``rounds`` alternating rounds: each
    round plays ``play`` until ``budget`` is spent, then the peer for as many decisions, and
    gives the ratio of their decisions per second. Alternating in one process is the fair
    comparison on a shared machine, whose speed drifts from minute to minute."""
    ratios = []
    for r in range(rounds):
        at = seed + r * 100_003         # each round its own games
        mine = measure(key, label, play, budget, at)
        theirs = measure("tictactoe_v3", "tictactoe_v3", peer, Budget(decisions=mine.decisions), at)
        ratios.append(mine.rate(mine.decisions) / theirs.rate(theirs.decisions))
    return {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios),
            "rounds": ratios}


def cost_split(key: str, play: PlayGame, blank: PlayGame, engine: PlayGame, peer: PlayGame,
               rounds: int, budget: Budget, seed: int) -> dict[str, Any]:
    """Where a decision of an AEC env goes (``--split``). Each of ``rounds`` rounds times the
    same games three ways (``play``: the env, until ``budget`` is spent; ``blank``: the env with
    blank observations, :func:`without_observations`; ``engine``: its rules engine alone; the
    last two as many games as the first), then ``tictactoe_v3`` (``peer``) for as many
    decisions as the env made. A decision's time, in tictactoe decisions, splits into the
    engine's, the observation's (the env's less the blank env's) and the rest of the AEC
    API's (the blank env's less the engine's, the benchmark's own loop included).

    Returns, per figure of :data:`SPLIT_FIGURES`, each round's value (``rounds``) and their
    median (``median``); ``ratios`` holds the env's ratios as :func:`interleaved` gives them.
    The parts' medians need not add up to the whole exactly, and in a noisy round the
    observation's or the AEC API's part can come out below zero."""
    per_round: dict[str, list[float]] = {name: [] for name in SPLIT_FIGURES}
    for r in range(rounds):
        at = seed + r * 100_003         # each round its own games, the same for all three
        mine = measure(key, "env", play, budget, at)
        same_games = Budget(games=mine.games)
        blanked = measure(key, "blank", blank, same_games, at)
        alone = measure(key, "engine", engine, same_games, at)
        theirs = measure("tictactoe_v3", "tictactoe_v3", peer, Budget(decisions=mine.decisions), at)
        unit = theirs.rate(theirs.decisions)
        ratio = mine.rate(mine.decisions) / unit
        blank_ratio = blanked.rate(blanked.decisions) / unit
        engine_ratio = alone.rate(alone.decisions) / unit
        for name, value in (("ratio", ratio), ("blank_ratio", blank_ratio),
                            ("engine_ratio", engine_ratio), ("engine", 1 / engine_ratio),
                            ("observation", 1 / ratio - 1 / blank_ratio),
                            ("aec", 1 / blank_ratio - 1 / engine_ratio)):
            per_round[name].append(value)
    env_ratios = per_round["ratio"]
    return {"median": {name: statistics.median(v) for name, v in per_round.items()},
            "rounds": per_round,
            "ratios": {"median": statistics.median(env_ratios), "min": min(env_ratios),
                       "max": max(env_ratios), "rounds": env_ratios}}


#: ``cost_split``'s figures: decisions/s against tictactoe_v3 of the env, of the env with
#: blank observations and of the engine alone; then a decision's time, in tictactoe
#: decisions, in the engine, in the observation and in the rest of the AEC API
SPLIT_FIGURES = ("ratio", "blank_ratio", "engine_ratio", "engine", "observation", "aec")


def format_split(key: str, split: dict[str, Any]) -> str:
    """One env's line of the ``--split`` table: the three ratios, median (range), then the
    parts' medians and their shares of the parts' sum."""
    rounds, m = split["rounds"], split["median"]

    def ratio(name: str) -> str:
        return f"{m[name]:.2f}x ({min(rounds[name]):.2f}-{max(rounds[name]):.2f}x)"

    total = m["engine"] + m["observation"] + m["aec"]
    return (f"  {key}: {ratio('ratio')}, {ratio('blank_ratio')} with blank observations, "
            f"{ratio('engine_ratio')} the engine alone; a decision: engine {m['engine']:.2f} "
            f"({m['engine'] / total:.0%}) + observation {m['observation']:.2f} "
            f"({m['observation'] / total:.0%}) + rest of the AEC API {m['aec']:.2f} "
            f"({m['aec'] / total:.0%})")


# -- output -----------------------------------------------------------------------------------
COLUMNS = ("env", "games", "decisions", "PA", "seconds", "decisions/s", "PA/s", "games/s")


def _fmt(value: float | int | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def format_table(results: list[Result]) -> str:
    rows = [COLUMNS]
    for r in results:
        rows.append((r.label, _fmt(r.games), _fmt(r.decisions), _fmt(r.plate_appearances),
                     _fmt(r.seconds, 2), _fmt(r.rate(r.decisions)),
                     _fmt(r.rate(r.plate_appearances)), _fmt(r.rate(r.games), 1)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# -- the run ----------------------------------------------------------------------------------
#: The most rounds of ``--rounds``.
MAX_ROUNDS = 1000
#: The longest one measurement may be timed (``--seconds``): an hour.
MAX_SECONDS = 3600.0


def configure(parser: args.Parser) -> None:
    """``dugout bench``'s flags."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=args.count(1, args.MAX_GAMES, "games a mode"), default=300,
                      metavar="N", help=f"games per dugout mode, from 1 to {args.MAX_GAMES:,} "
                                        f"(default 300)")
    size.add_argument("--seconds", type=args.real(0, MAX_SECONDS, lo_open=True,
                                                  what="seconds a measurement"),
                      metavar="S", help=f"instead of a game count: play about S seconds per "
                                        f"measurement, more than 0 and at most {MAX_SECONDS:g}")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"seed of the action picker and of the first game, from 0 to "
                             f"{args.MAX_SEED} (default 0)")
    parser.add_argument("--rounds", type=args.integer(0, MAX_ROUNDS, "rounds"), default=0,
                        metavar="R",
                        help="also compare each dugout AEC env with tictactoe_v3 in R rounds "
                             "alternating the two in this process (1/R of the games, at least "
                             "one, or of the seconds, each) and print the median ratio and its "
                             f"range; 0 to {MAX_ROUNDS} (default 0: off)")
    parser.add_argument("--split", action="store_true",
                        help="with --rounds R: in each of the R rounds, also time each dugout "
                             "AEC env with blank observations and its engine alone on the same "
                             "games, and print where a decision's time goes (engine, "
                             "observation, the rest of the AEC API)")
    parser.add_argument("--json", metavar="PATH", type=args.out_file,
                        help="also write the figures to PATH as JSON")
    parser.add_argument("--markdown", metavar="FILE", type=args.out_file,
                        help="also write the figures to FILE as markdown tables: the block "
                             "between its generated-block markers is replaced (the text around "
                             "it kept), or added at its end, or the file made")


def check(ns: argparse.Namespace) -> None:
    """What needs more than one flag: ``--split`` goes with ``--rounds``; a ``--markdown``
    file that exists must hold the generated block whole, or not at all."""
    if ns.split and not ns.rounds:
        raise args.UsageError("--split", "--split needs --rounds R (R >= 1)")
    if getattr(ns, "markdown", None) is not None and Path(ns.markdown).is_file():
        try:
            _split_markdown(Path(ns.markdown).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise args.UsageError("--markdown", f"--markdown {ns.markdown}: {error}") from None


# The dugout AEC envs compared with the peers: (result key, JSON key of its ratios).
RATIO_KEYS = (("thats_baseball_v0", "ratios"), ("grand_slam_v0", "grand_slam_ratios"),
              ("showdown_v0", "showdown_ratios"), ("showdown_basic_v0", "showdown_basic_ratios"),
              ("showdown_expert_v0", "showdown_expert_ratios"),
              ("bottom_ninth_v0", "bottom_ninth_ratios"),
              ("bottom_ninth_game_v0", "bottom_ninth_game_ratios"),
              ("pokemon_baseball_v0", "pokemon_baseball_ratios"))
# Engine against AEC env, for the "what the AEC API costs" lines.
ENGINE_PAIRS = (("thats_baseball_engine", "thats_baseball_v0"),
                ("grand_slam_engine", "grand_slam_v0"),
                ("showdown_engine", "showdown_v0"),
                ("showdown_basic_engine", "showdown_basic_v0"),
                ("showdown_expert_engine", "showdown_expert_v0"),
                ("bottom_ninth_engine", "bottom_ninth_v0"),
                ("bottom_ninth_game_engine", "bottom_ninth_game_v0"),
                ("pokemon_baseball_engine", "pokemon_baseball_v0"))


#: Each registered env id the benchmark times, and the keys of its AEC measurements (an
#: option set apart from the default is a measurement of its own).
BENCHED: dict[str, tuple[str, ...]] = {
    "thats_baseball_v0": ("thats_baseball_v0",),
    "grand_slam_v0": ("grand_slam_v0",),
    "showdown_v0": ("showdown_v0", "showdown_basic_v0", "showdown_expert_v0"),
    "bottom_ninth_v0": ("bottom_ninth_v0", "bottom_ninth_game_v0"),
    "pokemon_baseball_v0": ("pokemon_baseball_v0",),
}
#: Each registered env id the benchmark does not time, and why.
NOT_BENCHED: dict[str, str] = {
    "manager_challenge_v0": "a single-agent Gymnasium env, its campaign one manager's: the "
                            "benchmark times two managers through the AEC loop against "
                            "PettingZoo's AEC envs, which has no counterpart for it (dugout "
                            "challenge prints its campaigns a second)",
}


def unaccounted() -> list[str]:
    """The registered env ids (``env_ids("all")``) neither timed (:data:`BENCHED`) nor said
    not to be (:data:`NOT_BENCHED`): a ruleset registered since, to add to :func:`dugout_runs`
    or to say why not."""
    from ..envs import env_ids
    return [e for e in env_ids("all") if e not in BENCHED and e not in NOT_BENCHED]


def dugout_runs() -> list[tuple[str, str, Callable[..., PlayGame]]]:
    """Every dugout measurement: (JSON key, table label, factory of its game player; an AEC
    env's factory takes ``observations=False`` for blank observations)."""
    return [
        ("thats_baseball_v0", "thats_baseball_v0 (AEC)", thats_baseball_aec),
        ("thats_baseball_engine", "thats_baseball engine", thats_baseball_engine),
        ("grand_slam_v0", "grand_slam_v0 (AEC)", grand_slam_aec),
        ("grand_slam_engine", "grand_slam engine", grand_slam_engine),
        ("showdown_v0", "showdown_v0 (AEC)", partial(showdown_aec, "advanced")),
        ("showdown_engine", "showdown engine", partial(showdown_engine, "advanced")),
        ("showdown_basic_v0", "showdown_basic_v0 (AEC)", partial(showdown_aec, "basic")),
        ("showdown_basic_engine", "showdown_basic engine", partial(showdown_engine, "basic")),
        ("showdown_expert_v0", "showdown_expert_v0 (AEC)", partial(showdown_aec, "expert")),
        ("showdown_expert_engine", "showdown_expert engine", partial(showdown_engine, "expert")),
        ("bottom_ninth_v0", "bottom_ninth_v0 (AEC, duel)", partial(bottom_ninth_aec, "duel")),
        ("bottom_ninth_engine", "bottom_ninth engine (duel)", partial(bottom_ninth_engine, "duel")),
        ("bottom_ninth_game_v0", "bottom_ninth_v0 (AEC, game)", partial(bottom_ninth_aec, "game")),
        ("bottom_ninth_game_engine", "bottom_ninth engine (game)",
         partial(bottom_ninth_engine, "game")),
        ("pokemon_baseball_v0", "pokemon_baseball_v0 (AEC)", pokemon_baseball_aec),
        ("pokemon_baseball_engine", "pokemon_baseball engine", pokemon_baseball_engine),
    ]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.bench``: the same as ``dugout bench``; the figures."""
    return args.invoke("dugout bench", configure, check, run, argv, __doc__)


def run(ns: argparse.Namespace) -> dict[str, Any]:
    """Run the benchmark, print the table, and return the figures."""
    if ns.seconds is not None:
        budget = Budget(seconds=ns.seconds)
        size = f"about {ns.seconds:g} s per measurement"
    else:
        budget = Budget(games=ns.games)
        size = f"{ns.games} games per mode"
    print(f"That's Baseball ({TEAMS[0]} at {TEAMS[1]}), Harry's Grand Slam Baseball, MLB "
          f"Showdown basic, advanced and expert ({SHOWDOWN_TEAMS[0]} at {SHOWDOWN_TEAMS[1]}), "
          f"Bottom of the 9th (duel and Longer Game) and Pokemon Baseball "
          f"({POKEMON_TEAMS[0]} at {POKEMON_TEAMS[1]}), {INNINGS} innings, random vs random, "
          f"{size}, seed {ns.seed}")
    for env_id in unaccounted():
        print(f"(not timed: {env_id}, registered but not in the benchmark)")
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print()

    results = [measure(key, label, make(), budget, ns.seed)
               for key, label, make in dugout_runs()]
    results.append(thats_baseball_batched(
        budget if ns.seconds is not None
        else Budget(decisions=min(BATCH_DECISIONS, 20_000 * ns.games)), ns.seed))
    by_key = {r.key: r for r in results}
    n_dugout = len(results)

    # The peers play as many decisions as the longest dugout AEC run (or as long, with --seconds).
    peer_budget = budget if ns.seconds is not None else Budget(
        decisions=max(by_key[key].decisions for key, _ in RATIO_KEYS))
    missing = None
    try:
        peers = [(name, peer_aec(name)) for name in PEERS]
    except ImportError as error:
        missing = (f"The comparison with {' and '.join(PEERS)} needs PettingZoo's classic envs "
                   f"({error}); install them with `{INSTALL_HINT}`.")
    else:
        for name, play in peers:
            results.append(measure(name, f"{name} (AEC)", play, peer_budget, ns.seed))

    print(format_table(results))
    print()

    all_ratios: dict[str, dict[str, float]] = {json_key: {} for _, json_key in RATIO_KEYS}
    if missing:
        print(missing)
    else:
        for key, json_key in RATIO_KEYS:
            rate = by_key[key].rate(by_key[key].decisions)
            for peer in results[n_dugout:]:
                all_ratios[json_key][peer.key] = rate / peer.rate(peer.decisions)
            print(f"{key} decisions/s: "
                  + ", ".join(f"{ratio:.2f}x {peer}"
                              for peer, ratio in all_ratios[json_key].items()))
    for engine_key, aec_key in ENGINE_PAIRS:
        engine, aec = by_key[engine_key], by_key[aec_key]
        note = " (the rest is what the AEC API costs)" if engine_key == ENGINE_PAIRS[0][0] else ""
        print(f"{engine.label} decisions/s: "
              f"{engine.rate(engine.decisions) / aec.rate(aec.decisions):.2f}x {aec_key}{note}")
    batched, engine = by_key["thats_baseball_batched"], by_key["thats_baseball_engine"]
    rate = batched.rate(batched.decisions)
    print(f"{batched.label} decisions/s: {rate / engine.rate(engine.decisions):.1f}x "
          f"thats_baseball engine" + ("" if missing else ", " + ", ".join(
              f"{rate / peer.rate(peer.decisions):.1f}x {peer.key}" for peer in results[n_dugout:])))
    all_ratios["batched_ratios"] = {} if missing else {
        peer.key: rate / peer.rate(peer.decisions) for peer in results[n_dugout:]}
    all_ratios["batched_ratios"]["thats_baseball_engine"] = rate / engine.rate(engine.decisions)
    basic, basic_engine = by_key["showdown_basic_v0"], by_key["showdown_basic_engine"]
    print(f"showdown basic game (two decisions a game, so games/s and PA/s are what count): "
          f"{_fmt(basic.rate(basic.games), 1)} games/s and "
          f"{_fmt(basic.rate(basic.plate_appearances))} PA/s through the AEC env, "
          f"{_fmt(basic_engine.rate(basic_engine.games), 1)} games/s and "
          f"{_fmt(basic_engine.rate(basic_engine.plate_appearances))} PA/s through the engine")

    rounds: dict[str, Any] = {}
    splits: dict[str, Any] = {}
    peer = None
    if ns.rounds:
        try:
            peer = peer_aec("tictactoe_v3")
        except ImportError as error:
            print(f"--rounds needs PettingZoo's tictactoe_v3 ({error}); install it with "
                  f"`{INSTALL_HINT}`.")
    if peer is not None:
        round_budget = (Budget(seconds=ns.seconds / ns.rounds) if ns.seconds is not None
                        else Budget(games=max(1, ns.games // ns.rounds)))
        makers = {key: (label, make) for key, label, make in dugout_runs()}
        engines = {aec_key: engine_key for engine_key, aec_key in ENGINE_PAIRS}
        for key, _ in RATIO_KEYS:
            label, make = makers[key]
            if ns.split:      # the same rounds, with the blank env and the engine in each
                splits[key] = cost_split(key, make(), make(observations=False),
                                         makers[engines[key]][1](), peer, ns.rounds,
                                         round_budget, ns.seed)
                rounds[key] = splits[key]["ratios"]
            else:
                rounds[key] = interleaved(key, label, make(), peer, ns.rounds, round_budget,
                                          ns.seed)
        times = "1 round" if ns.rounds == 1 else f"{ns.rounds} rounds"
        print(f"Decisions/s against tictactoe_v3, alternating in {times} in this process: "
              f"median (range)")
        for key, r in rounds.items():
            print(f"  {key}: {r['median']:.2f}x ({r['min']:.2f}-{r['max']:.2f}x)")
        if splits:
            print(f"Where a decision's time goes (--split): decisions/s against tictactoe_v3 of "
                  f"the env, of the env with blank observations and of its engine alone, median "
                  f"(range) of the same {times}; then a decision's time in tictactoe_v3 "
                  f"decisions, medians (the rest of the AEC API includes the benchmark's loop)")
            for key, split in splits.items():
                print(format_split(key, split))

    figures: dict[str, Any] = {
        "settings": {"games": None if ns.seconds is not None else ns.games,
                     "seconds": ns.seconds, "seed": ns.seed, "rounds": ns.rounds,
                     "teams": list(TEAMS), "showdown_teams": list(SHOWDOWN_TEAMS),
                     "pokemon_teams": list(POKEMON_TEAMS),
                     "innings": INNINGS},
        "platform": {"python": platform.python_version(), "machine": platform.machine(),
                     "system": platform.system()},
        "results": {r.key: r.figures() for r in results},
        **all_ratios,
        "interleaved_ratios": rounds,
        "cost_split": splits,
        "comparison_missing": missing,
    }
    if ns.json:
        args.write_json(ns.json, figures)
        print(f"Figures written to {ns.json}")
    if getattr(ns, "markdown", None):
        write_markdown(ns.markdown, figures, command_line(ns))
        print(f"Markdown tables written to {ns.markdown}")
    return figures


# -- the markdown page (--markdown) -----------------------------------------------------------
#: The first and last lines of the block ``--markdown`` writes; what lies between is replaced.
MARKDOWN_BEGIN = "<!-- generated by dugout bench --markdown -->"
MARKDOWN_END = "<!-- end of the block generated by dugout bench --markdown -->"
BLOCK = GeneratedBlock(MARKDOWN_BEGIN, MARKDOWN_END, "# Benchmarks")


def command_line(ns: argparse.Namespace) -> str:
    """The ``dugout bench`` command that makes these figures again (the output files left out)."""
    words = ["dugout bench"]
    words.append(f"--seconds {ns.seconds:g}" if ns.seconds is not None else f"--games {ns.games}")
    if ns.seed:
        words.append(f"--seed {ns.seed}")
    if ns.rounds:
        words.append(f"--rounds {ns.rounds}")
    if ns.split:
        words.append("--split")
    return " ".join(words)


def _split_markdown(text: str) -> tuple[str, str] | None:
    """The text before the generated block and the text after it (None: no block); a
    ``ValueError`` for a block that is not whole (one marker, or the end before the begin)."""
    parts = BLOCK.split(text)
    return None if parts is None else (parts[0], parts[2])


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A markdown table; the columns from ``right`` on are right-aligned."""
    align = ["---" if i < right else "---:" for i in range(len(header))]
    return "\n".join("| " + " | ".join(row) + " |" for row in [header, align, *rows])


def _labels() -> dict[str, str]:
    labels = {key: label for key, label, _ in dugout_runs()}
    labels["thats_baseball_batched"] = f"thats_baseball batched (B={BATCH:,})"
    labels.update({name: f"{name} (AEC)" for name in PEERS})
    return labels


def markdown_block(figures: dict[str, Any], command: str, date: str | None = None) -> str:
    """The figures of one run (what :func:`run` returns) as the markdown block
    ``--markdown`` writes, markers included: the command and date, the table of every
    measurement, the ratios against PettingZoo's classic envs and, with ``--rounds`` (and
    ``--split``), the interleaved comparison (and where a decision's time goes)."""
    date = date or datetime.date.today().isoformat()
    plat = figures["platform"]
    labels = _labels()
    results = figures["results"]
    out = [MARKDOWN_BEGIN,
           f"*Generated by `{command} --markdown FILE` on {date} (Python {plat['python']} on "
           f"{plat['machine']} {plat['system']}, {os.cpu_count()} CPUs); do not edit this "
           f"block by hand: run the command again.*", "",
           "Every measurement, random managers on both sides:", ""]
    rows = []
    for key, r in results.items():
        rows.append((f"`{labels.get(key, key)}`", _fmt(r["games"]), _fmt(r["decisions"]),
                     _fmt(r["plate_appearances"]), _fmt(r["seconds"], 2),
                     _fmt(r["decisions_per_s"]), _fmt(r["plate_appearances_per_s"]),
                     _fmt(r["games_per_s"], 1)))
    out += [_md_table(COLUMNS, rows), ""]

    if figures.get("comparison_missing"):
        out += [f"No comparison with PettingZoo's classic envs: {figures['comparison_missing']}", ""]
    else:
        peers = [p for p in PEERS if p in results]
        out += ["Decisions per second of each dugout AEC env against PettingZoo's, measured "
                "one after the other in this run:", ""]
        rows = [(f"`{key}`", *(f"{figures[json_key][p]:.2f}x" for p in peers))
                for key, json_key in RATIO_KEYS]
        out += [_md_table(["env", *(f"`{p}`" for p in peers)], rows), ""]

    rows = []
    for engine_key, aec_key in ENGINE_PAIRS:
        engine, aec = results[engine_key], results[aec_key]
        rows.append((f"`{aec_key}`", f"{engine['decisions_per_s'] / aec['decisions_per_s']:.2f}x"))
    out += ["The engine alone against its AEC env (decisions per second; the rest is what the "
            "AEC API costs):", "", _md_table(["env", "engine / AEC"], rows), ""]

    batched = figures.get("batched_ratios") or {}
    if batched:
        out += [f"`{labels['thats_baseball_batched']}`, decisions per second: "
                + ", ".join(f"{ratio:.1f}x `{key}`" for key, ratio in batched.items()) + ".", ""]

    rounds = figures.get("interleaved_ratios") or {}
    splits = figures.get("cost_split") or {}
    if rounds:
        n = figures["settings"]["rounds"]
        out += [f"Decisions per second against `tictactoe_v3`, alternating in {n} "
                f"round{'s' if n != 1 else ''} in one process (the fair comparison on a "
                f"machine whose speed drifts): median (range):", ""]
        if splits:
            header = ["env", "ratio", "blank observations", "engine alone",
                      "engine", "observation", "rest of the AEC API"]
            rows = []
            for key, split in splits.items():
                m, rr = split["median"], split["rounds"]
                total = m["engine"] + m["observation"] + m["aec"]
                rows.append((f"`{key}`", *(f"{m[n_]:.2f}x ({min(rr[n_]):.2f}-{max(rr[n_]):.2f}x)"
                                           for n_ in ("ratio", "blank_ratio", "engine_ratio")),
                             *(f"{m[n_]:.2f} ({m[n_] / total:.0%})"
                               for n_ in ("engine", "observation", "aec"))))
            out += [_md_table(header, rows), "",
                    "The last three columns split a decision's time, in `tictactoe_v3` "
                    "decisions (medians; the rest of the AEC API includes the benchmark's loop).",
                    ""]
        else:
            rows = [(f"`{key}`", f"{r['median']:.2f}x", f"{r['min']:.2f}-{r['max']:.2f}x")
                    for key, r in rounds.items()]
            out += [_md_table(["env", "median", "range"], rows), ""]
    out.append(MARKDOWN_END)
    return "\n".join(out) + "\n"


def write_markdown(path: str | os.PathLike, figures: dict[str, Any], command: str,
                   date: str | None = None) -> None:
    """Write :func:`markdown_block` into ``path``: in place of the block it holds, at its end
    if it holds none, or as a new page."""
    BLOCK.write(path, markdown_block(figures, command, date))


if __name__ == "__main__":
    main(sys.argv[1:])
