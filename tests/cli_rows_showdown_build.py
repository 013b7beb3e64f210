"""The bad-argument table's explicit rows for ``dugout showdown build-team`` and
``build-deck`` (what the shared types cannot generate: a season with no built-in cards, a cap
below the cheapest roster, a card file that cannot make a team, a card set too small for a
deck, two sources at once).

The rows take part in ``tests/test_cli.py`` once the two subcommands are in
``dugout.cli.main.COMMANDS``; ``tests/test_showdown_build.py`` runs every one of them in the
meantime (and after), through the subcommands' own functions.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_table import Row

TEAM, DECK = "showdown build-team", "showdown build-deck"


def _file(name: str, data) -> callable:
    """A fixture: ``{tmp}/NAME`` holding ``data`` as JSON."""
    def setup(tmp: Path) -> None:
        (tmp / name).write_text(json.dumps(data), encoding="utf-8")
    return setup


def _team_cards(drop_role: str | None = None, drop_position: str | None = None,
                teams: tuple[str, ...] = ("bos2004",)):
    """A fixture: ``{tmp}/cards.json``, the cards of ``teams`` less their pitchers of a role
    or their hitters who can play a position."""
    def setup(tmp: Path) -> None:
        from dugout.envs.showdown.cards import card_to_dict, load_team
        cards = []
        for c in [c for t in teams for c in load_team(t).players]:
            if drop_role and getattr(c, "role", None) == drop_role:
                continue
            if drop_position and c.kind == "hitter" and c.fielding(drop_position) is not None:
                continue
            cards.append(card_to_dict(c))
        (tmp / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    return setup


def _small_set(tmp: Path) -> None:
    from dugout.envs.showdown.strategy import card_set_to_dict, load_card_set
    data = card_set_to_dict(load_card_set())
    data["cards"] = data["cards"][:14]
    (tmp / "set.json").write_text(json.dumps(data), encoding="utf-8")


ROWS: list[Row] = [
    # where the cards come from
    Row(TEAM, ("--season", "1999"), "--season", "no built-in cards for season 1999"),
    Row(TEAM, ("--season", "2004", "--cards", "{tmp}/cards.json"), "--cards", "not allowed with",
        _team_cards()),
    Row(TEAM, ("--cards", "{tmp}/cards.json"), "--cards", "a card file is a list of cards",
        _file("cards.json", {"cards": []})),
    Row(TEAM, ("--cards", "{tmp}/cards.json"), "--cards", "starters", _team_cards("starter")),
    Row(TEAM, ("--cards", "{tmp}/cards.json"), "--cards", "qualifies at C",
        _team_cards(drop_position="C", teams=("bos2004", "nya2004"))),
    # the cap
    Row(TEAM, ("--points", "200"), "--points", "the cheapest of this shape costs"),
    Row(TEAM, ("--cards", "{tmp}/cards.json", "--points", "2000"), "--points", "fits under 2,000",
        _team_cards()),
    # the deck's card set
    Row(DECK, ("--card-set", "{tmp}/set.json"), "--card-set", "has 14 cards", _small_set),
    Row(DECK, ("--card-set", "{tmp}/set.json"), "--card-set", "must be an object",
        _file("set.json", [1, 2])),
]


def _registered() -> list[Row]:
    from dugout.cli.main import COMMANDS
    return [row for row in ROWS if row.command in COMMANDS]


#: ``tests/test_cli.py`` reads ``ROWS`` of every ``cli_rows_*`` module: until the subcommands
#: are registered it gets none of these (it could not run them), afterwards all of them.
ALL_ROWS, ROWS = ROWS, _registered()
