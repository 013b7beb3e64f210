"""Which decision kinds a search may be told to search (its ``kinds`` setting): a kind the
game being played never asks is refused when the search is told the game's public set-up,
with the rule or option that says so, instead of leaving every decision to the rollout
manager in silence.

The rulesets whose options decide which decisions come up (Showdown's levels, decks and
lineups; Bottom of the 9th's modes, draft, teams, bench and support cards) say which kinds a
set-up never asks (their sample module's ``kinds_never_asked``). Those claims are checked
here against play: random games under each set-up must ask no kind it names, and every kind
they ask must be one of the ruleset's (the Manager Challenge's too: its manager bats, so the
duel's pitching decisions are none of its kinds).
"""

from __future__ import annotations

import random

import pytest

from dugout.agents import make_agent
from dugout.agents.play import tell_setup
from dugout.agents.registry import check_agents, managers
from dugout.envs import make
from dugout.envs.bottom_ninth import challenge_sample
from dugout.envs.bottom_ninth import sample as bottom_ninth_sample
from dugout.envs.showdown import sample as showdown_sample

#: Each set-up, the games played under it, and the kinds it must never ask, by the rulebook:
#: the basic game's starting pitcher alone; no icons in the expert game, no expert decisions
#: in the advanced one, no cards without decks, the managers' lineups only when they set them;
#: the duel without the Longer Game's decisions, the Longer Game's bench decisions only with a
#: bench, the draft's only with a manager's draft, the teams' picks only when chosen, the
#: support card's pick only when each team picks its own.
SET_UPS = [
    ("showdown_v0", {"level": "basic"}, 8, {"pinch_hitter", "intentional_walk", "strikeout"}),
    ("showdown_v0", {"level": "advanced"}, 6, {"starting_pitcher", "pinch_runner", "play_card"}),
    ("showdown_v0", {"level": "advanced", "lineups": "manager"}, 3, {"starting_pitcher", "catcher_throw"}),
    ("showdown_v0", {"level": "expert"}, 4, {"strikeout", "gold_glove", "play_card", "lineup_dh"}),
    ("showdown_v0", {"level": "expert", "decks": "default"}, 4, {"stolen_base", "batting_order"}),
    ("bottom_ninth_v0", {}, 30, {"pinch_hit", "fatigue_split", "draft_pick", "select_batter",
                                 "select_support"}),
    ("bottom_ninth_v0", {"teams": "choose"}, 20, {"draft_order", "select_support"}),
    ("bottom_ninth_v0", {"teams": "choose", "draft": True, "support": True}, 10,
     {"select_support", "double_switch"}),
    ("bottom_ninth_v0", {"teams": "choose", "draft": "random"}, 10, {"draft_order", "draft_pick"}),
    ("bottom_ninth_v0", {"teams": "choose", "support": True}, 20, {"draft_pick"}),
    ("bottom_ninth_v0", {"support": True}, 20, {"select_support", "select_pitcher"}),
    ("bottom_ninth_v0", {"support": "shared"}, 20, {"select_support"}),
    ("bottom_ninth_v0", {"mode": "game", "innings": 1}, 6, {"pinch_hit", "pinch_slot", "double_switch",
                                                            "select_batter", "draft_order"}),
    ("bottom_ninth_v0", {"mode": "game", "innings": 1, "batters": 10}, 6, {"select_pitcher"}),
    ("bottom_ninth_v0", {"mode": "game", "innings": 1, "teams": "choose", "support": True}, 4,
     {"draft_pick", "pinch_hit"}),
    ("bottom_ninth_v0", {"mode": "game", "innings": 1, "teams": "choose", "draft": True,
                         "support": True, "batters": 9}, 3, {"select_support"}),
]

_SAMPLES = {"showdown_v0": showdown_sample, "bottom_ninth_v0": bottom_ninth_sample}


def _asked(env, seeds) -> dict[str, int]:
    """The kinds of the decisions random legal play asks over ``seeds``' games, counted."""
    asked: dict[str, int] = {}
    game = env.unwrapped
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while game.state_.pending is not None:
            decision = game.state_.pending
            asked[decision.kind] = asked.get(decision.kind, 0) + 1
            env.step(rng.choice(decision.legal))
    return asked


def _case_id(case) -> str:
    env_id, options, *_ = case
    return env_id.removesuffix("_v0") + "-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")


@pytest.mark.parametrize("case", SET_UPS, ids=_case_id)
def test_a_set_up_asks_no_kind_it_says_it_never_asks(case):
    env_id, options, games, expected = case
    env = make(env_id, **options)
    never = _SAMPLES[env_id].kinds_never_asked(env.unwrapped.public_setup())
    kinds = managers(env_id).search.kinds
    assert set(never) <= set(kinds), "a kind never asked must be one of the ruleset's"
    assert expected <= set(never), "the rulebook's exclusions for this set-up"
    assert all(isinstance(why, str) and why for why in never.values())
    asked = _asked(env, range(games))
    assert set(asked) <= set(kinds)
    assert not set(asked) & set(never), f"asked though said never: {sorted(set(asked) & set(never))}"
    assert sum(asked.values()) > games                  # the games were played


def test_the_set_ups_ask_every_kind_some_set_up_may():
    # each kind is asked under some set-up of the table (or, for the rare ones, allowed by
    # one): no kind is excluded everywhere, and the table's set-ups reach most of them
    for env_id, sample in _SAMPLES.items():
        allowed = set()
        for case in SET_UPS:
            if case[0] == env_id:
                allowed |= set(managers(env_id).search.kinds) - set(
                    sample.kinds_never_asked(make(env_id, **case[1]).unwrapped.public_setup()))
        assert allowed == set(managers(env_id).search.kinds)


def test_the_manager_challenge_asks_only_its_managers_kinds():
    from dugout.envs import manager_challenge_v0
    env = manager_challenge_v0.env()
    asked = set()
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            view = env.unwrapped.view()
            asked.add(view.decision)
            legal = [a for a, ok in enumerate(info["action_mask"]) if ok]
            obs, _, terminated, truncated, info = env.step(rng.choice(legal))
            done = terminated or truncated
    assert asked == set(challenge_sample.MANAGER_KINDS)


@pytest.mark.parametrize("env_id, options, kinds, named", [
    ("showdown_v0", {"level": "expert"}, "play_card+strikeout",
     "'play_card' (no strategy decks are in play), 'strikeout' (the expert game's icons are off)"),
    ("showdown_v0", {"level": "advanced"}, "intentional_walk", "'intentional_walk' (it is the expert game's)"),
    ("showdown_v0", {"level": "basic"}, "pinch_hitter",
     "'pinch_hitter' (the basic game asks only for the starting pitcher)"),
    ("bottom_ninth_v0", {}, "pitch+fatigue_split", "'fatigue_split' (it is the Longer Game's, mode='game')"),
    ("bottom_ninth_v0", {"mode": "game"}, "double_switch", "'double_switch' (no team has a bench, batters=8)"),
])
def test_a_search_told_the_set_up_refuses_a_kind_it_never_asks(env_id, options, kinds, named):
    env = make(env_id, **options)
    env.reset(seed=0)
    search = make_agent(env_id, f"search:kinds={kinds}")
    with pytest.raises(ValueError, match="never asks") as error:
        tell_setup(env, [search])
    assert named in str(error.value)
    with pytest.raises(ValueError, match="never asks"):       # before any game, by the CLI's check
        check_agents(env_id, [f"search:kinds={kinds}", "heuristic"], options)


@pytest.mark.parametrize("env_id, options, kinds", [
    ("showdown_v0", {"level": "advanced"}, "strikeout+pinch_hitter"),
    ("showdown_v0", {"level": "expert", "decks": "default"}, "play_card+intentional_walk"),
    ("showdown_v0", {"level": "basic"}, "starting_pitcher"),
    ("bottom_ninth_v0", {"mode": "game", "batters": 9}, "pinch_hit+double_switch"),
    ("bottom_ninth_v0", {"teams": "choose", "support": True}, "select_support+select_batter"),
    ("grand_slam_v0", {}, "batting_play"),
])
def test_a_search_told_the_set_up_keeps_a_kind_it_asks(env_id, options, kinds):
    env = make(env_id, **options)
    env.reset(seed=0)
    search = make_agent(env_id, f"search:kinds={kinds}")
    tell_setup(env, [search])
    assert search.settings.searched == frozenset(kinds.split("+"))
    check_agents(env_id, [f"search:kinds={kinds}", "heuristic"], options)
