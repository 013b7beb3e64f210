"""Build an MLB Showdown team or strategy deck (``dugout showdown build-team``, ``build-deck``;
``python -m dugout.envs.showdown build-team ...`` is the same).

    dugout showdown build-team --season 2004 --seed 3 --out my_team.json
    dugout showdown build-deck --seed 3 --out my_deck.json
    dugout tournament --env showdown_v0 --env-option teams='["my_team.json","bos2004"]' ...

Without ``--out`` the JSON is printed. The team or deck is made by
:mod:`dugout.envs.showdown.build` and passes the loaders' checks before it is written; a
request the cards cannot meet (a cap below the cheapest roster, too few starters) is refused
before anything is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from ...cli import args
from ..core.errors import DugoutError
from . import build

__all__ = ["configure_team", "check_team", "run_team", "configure_deck", "check_deck", "run_deck",
           "main"]


def configure_team(parser: args.Parser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--season", type=args.integer(1871, 2100, "a season"),
                        help="build from the built-in teams' cards of this season (default 2004)")
    source.add_argument("--cards", type=args.in_file,
                        help="build from a card file instead (a list of cards, or a team file)")
    parser.add_argument("--points", type=args.integer(0, 100_000, "a point cap"),
                        default=build.POINT_CAP, help="the point cap (default 5,000)")
    parser.add_argument("--strategy", choices=build.TEAM_STRATEGIES, default="balanced",
                        help="balanced: the most value within the cap; random: a random legal roster")
    parser.add_argument("--seed", type=args.seed, default=None,
                        help="variety: each seed a different sensible team (default: the best one)")
    parser.add_argument("--nl", action="store_true",
                        help="the team plays NL rules at home (no designated hitter)")
    parser.add_argument("--out", type=args.out_file, help="the team file to write (default: print it)")


def check_team(ns: argparse.Namespace) -> None:
    """The season has built-in cards, the card file loads, and the cards make a team under
    the cap (built here, once; ``run_team`` writes it)."""
    what: object = 2004 if ns.season is None else ns.season
    if ns.cards is not None:
        what = str(ns.cards)
    try:
        ns.built = build.build_team(what, points=ns.points, seed=ns.seed, strategy=ns.strategy,
                                    dh=not ns.nl)
    except DugoutError as error:
        text = str(error)
        flag = ("--cards" if ns.cards is not None and "points" not in text
                else "--points" if "points" in text and "fits under" in text
                else "--season")
        raise args.UsageError(flag, f"{flag}: {text}") from None


def run_team(ns: argparse.Namespace) -> dict:
    return _emit(ns.built, ns.out)


def configure_deck(parser: args.Parser) -> None:
    parser.add_argument("--card-set", type=args.in_file,
                        help="the strategy cards to build from (default: dugout's own set)")
    parser.add_argument("--strategy", choices=build.DECK_STRATEGIES, default="balanced",
                        help="the colours' balance, or random: a random legal deck")
    parser.add_argument("--seed", type=args.seed, default=None,
                        help="variety: each seed a different deck (default: the best one)")
    parser.add_argument("--out", type=args.out_file, help="the deck file to write (default: print it)")


def check_deck(ns: argparse.Namespace) -> None:
    """The card set loads and holds enough cards for a deck (built here, once)."""
    try:
        ns.built = build.build_deck(None if ns.card_set is None else str(ns.card_set),
                                    seed=ns.seed, strategy=ns.strategy)
    except DugoutError as error:
        raise args.UsageError("--card-set", f"--card-set: {error}") from None


def run_deck(ns: argparse.Namespace) -> dict:
    return _emit(ns.built, ns.out)


def _emit(data: dict, out) -> dict:
    if out is None:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        args.write_json(out, data)
        print(f"wrote {out}")
    return data


def main(argv: Sequence[str] | None = None) -> dict:
    """``python -m dugout.envs.showdown build-team|build-deck [flags]``: the same as
    ``dugout showdown build-team`` / ``build-deck``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"build-team": (configure_team, check_team, run_team),
                "build-deck": (configure_deck, check_deck, run_deck)}
    if not argv or argv[0] not in commands:
        sys.exit("usage: python -m dugout.envs.showdown {build-team,build-deck} [flags]")
    configure, check, run = commands[argv[0]]
    return args.invoke(f"dugout showdown {argv[0]}", configure, check, run, argv[1:], __doc__)


if __name__ == "__main__":
    main()
