"""Bottom of the 9th, random card allocation (option ``draft="random"``).

Rulebook, Player Draft: "Pitcher and Batter Cards may be allocated randomly if you are going
to play a multiple-inning game or a series of several games. However, the following
procedure may instead be used for a structured draft." The draft's picks are dealt by the
dice (each a legal pick, so the teams are as legal as a draft's); each manager then sets
his lineup and starter from his cards as after a draft.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth.sample import public_setup
from dugout.envs.core import OptionError

from bottom_ninth_samples import check_samples
from helpers import FULL, dumps, games, random_games, roundtrip

DEALT = ({"teams": "choose", "draft": "random"},
         {"teams": "choose", "draft": "random", "support": True, "extra_innings": True},
         {"mode": "game", "teams": "choose", "draft": "random", "support": True, "batters": 9})


@pytest.mark.parametrize("options", DEALT, ids=str)
def test_the_cards_are_dealt_without_a_decision(options):
    """No die winner and no pick is asked: the game opens at the first selection, each team
    holding the draft's numbers of pitchers and batters (and a support card), dealt
    alternately from away; the same seed deals the same teams."""
    env = bottom_ninth_v0.raw_env(**options)
    game = options.get("mode") == "game"
    pitchers, batters = (4, options.get("batters", 8)) if game else (3, 6)
    env.reset(seed=5)
    s = env.unwrapped.state_
    assert s.pending.kind == "select_batter" and s.dealt and s.draft_first == 0
    for t in (0, 1):
        kinds = [s.cards.is_batter(c) for c in s.drafted[t]]
        assert kinds == [False] * pitchers + [True] * batters
        if options.get("support"):
            assert s.support[t] >= 0
    first = [list(x) for x in s.drafted]
    env.reset(seed=5)
    assert [list(x) for x in env.unwrapped.state_.drafted] == first


def test_the_deal_varies_and_reaches_every_card():
    """Over seeds the dealt teams differ and every card of the set is dealt to each team."""
    env = bottom_ninth_v0.raw_env(teams="choose", draft="random")
    n = games(200, 80)
    teams, seen = set(), [Counter(), Counter()]
    for seed in range(n):
        env.reset(seed=seed)
        s = env.unwrapped.state_
        teams.add(tuple(s.drafted[0]))
        for t in (0, 1):
            seen[t].update(s.drafted[t])
    assert len(teams) > 0.9 * n
    n_cards = len(env.unwrapped.cardset.cards)
    assert all(len(seen[t]) == n_cards for t in (0, 1))


def test_options_are_checked():
    with pytest.raises(OptionError, match="draft must be"):
        bottom_ninth_v0.raw_env(teams="choose", draft="dealt")
    with pytest.raises(OptionError, match="needs teams='choose'"):
        bottom_ninth_v0.raw_env(draft="random")
    with pytest.raises(OptionError, match="needs teams='choose'"):
        bottom_ninth_v0.raw_env(mode="game", draft="random")


@pytest.mark.parametrize("options", DEALT, ids=str)
def test_random_games_keep_the_contract(options):
    for env in random_games("bottom_ninth_v0", range(games(20, 5) if "mode" not in options else games(4, 1)),
                            options):
        state = env.unwrapped.state_
        assert dumps(roundtrip(state)) == dumps(state)


@pytest.mark.parametrize("options", DEALT, ids=str)
def test_a_sample_shows_the_view_plays_on_and_saves(options):
    setup = public_setup(bottom_ninth_v0.raw_env(**options))
    assert setup["dealt"] is True and setup["draft"] is True

    def dealt(state, sample):
        assert sample.dealt
    n = check_samples(options, range(games(6, 2)), play_every=1 if FULL else 8,
                      state_every=8 if options.get("mode") == "game" else 1, extra=dealt)
    assert n > 10
