"""Bottom of the 9th through the env: the secrecy of the stare-down (DESIGN contract 11),
save and restore, options and their errors, the rendered text."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth.rules import GUESS, THROW
from dugout.envs.core import DataError, OptionError

from test_bottom_ninth_cards import blank_cards, sample_cards


def batter_side(env):
    """Everything the batter's manager (or a spectator) can see, and the dice state."""
    g = env.unwrapped
    o = g.observe("home")
    return (o["observation"].tobytes(), o["action_mask"].tobytes(),
            json.dumps(g.infos["home"], sort_keys=True), repr(g.view("home")), g.render(),
            json.dumps(g.game.log.to_list()), json.dumps(g.game.dice.to_dict(), sort_keys=True),
            g.agent_selection)


@pytest.mark.parametrize("options", [{}, {"teams": "choose", "draft": True}])
def test_secrecy_the_batter_sees_nothing_of_the_committed_pitch(options):
    env = bottom_ninth_v0.raw_env(cards=sample_cards(), render_mode="ansi", **options)
    checked = 0
    for seed in range(40):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None:
            d = env.game.pending
            if d.kind == "pitch" and len(d.legal) > 1:
                saved = env.game.clone()
                sides, away = [], set()
                for a in d.legal:
                    env.restore(saved.clone())
                    env.step(a)
                    assert env.game.pending.kind == "guess"
                    sides.append(batter_side(env))
                    away.add(env.observe("away")["observation"].tobytes())
                    # the pitcher sees his own commitment
                    assert env.view("away").committed == a - THROW and env.view("home").committed == -1
                assert all(side == sides[0] for side in sides), "the batter can tell the pitches apart"
                assert len(away) == len(d.legal)
                env.restore(saved)
                checked += 1
            env.step(rng.choice(d.legal))
    assert checked > 100


def test_both_see_the_reveal():
    env = bottom_ninth_v0.raw_env(cards=blank_cards())
    env.reset(seed=1)
    env.step(THROW + 1)
    env.step(GUESS + 2)
    # blank cards: nothing to decide after the reveal, the pitch is played out at once
    for agent in ("away", "home"):
        assert env.view(agent).last.startswith("HA (guess LI)")


def test_save_and_restore_round_trip():
    env = bottom_ninth_v0.raw_env(cards=sample_cards(), teams="choose", draft=True)
    for seed in range(10):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.game.pending is not None:
            saved = json.dumps(env.game.to_dict())
            again = type(env.game).from_dict(json.loads(saved))
            assert json.dumps(again.to_dict()) == saved
            env.step(rng.choice(env.game.pending.legal))


@pytest.mark.parametrize("kwargs, words", [
    (dict(mode="longer"), "mode"),
    (dict(max_innings=9), "max_innings"),
    (dict(fatigue_rows=2), "fatigue_rows"), (dict(fatigue_rows=4.0), "fatigue_rows"),
    (dict(out_rule="runner"), "out_rule"),
    (dict(draft="yes"), "draft"), (dict(draft=True), "teams='choose'"),
    (dict(teams="random"), "teams"),
    (dict(teams={"batters": ["b00"], "pitchers": ["p0", "p1"]}), "6 batter ids"),
    (dict(teams={"batters": ["b00", "b01", "b02", "b03", "b04", "zz"], "pitchers": ["p0", "p1"]}), "'zz'"),
    (dict(teams={"batters": ["b00", "b01", "b02", "b03", "b04", "b11"], "pitchers": ["p0", "p1"]}),
     "six different positions"),
    (dict(teams={"batters": ["b00", "b01", "b02", "b03", "b04", "b05"], "pitchers": ["p2", "p1"]}),
     "cannot start"),
    (dict(teams={"batters": ["b00", "b01", "b02", "b03", "b04", "b05"], "pitchers": ["p0", "p4"]}),
     "cannot relieve"),
    (dict(pitch_faces={"B": 3, "X": 3}), "pitch_faces"), (dict(pitch_faces={"B": 0}), "pitch_faces"),
    (dict(colour="red"), "'colour'"),
])
def test_bad_options_fail_loudly(kwargs, words):
    with pytest.raises(OptionError, match=words.replace("(", r"\(").replace("'", "'")):
        bottom_ninth_v0.raw_env(cards=sample_cards(), **kwargs)


def test_draft_needs_a_big_enough_set():
    data = sample_cards()
    data["pitchers"] = data["pitchers"][:5]
    with pytest.raises(OptionError, match="at least 6 pitchers"):
        bottom_ninth_v0.raw_env(cards=data, teams="choose", draft=True)


def test_bad_card_file_is_a_data_error(tmp_path):
    data = sample_cards()
    data["pitchers"][3]["ace"]["ability"] = [{"reroll": "swing"}]
    path = tmp_path / "team.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match=r"team\.json.*pitchers\[3\] \('p3'\)\.ace\.ability\[0\]"):
        bottom_ninth_v0.raw_env(cards=path)


def test_given_teams_and_options_play():
    env = bottom_ninth_v0.raw_env(cards=sample_cards(), render_mode="ansi", fatigue_rows=6,
                                  pitch_faces={"B": 2, "S": 2, "C": 2}, innings=3,
                                  teams={"batters": ["b05", "b04", "b03", "b02", "b01", "b00"],
                                         "pitchers": ["p1", "p2"]})
    env.reset(seed=3)
    assert env.game.lineup == [5, 4, 3, 2, 1, 0] and env.game.staff == [14 + 1, 14 + 2]
    assert "Bottom of the 3rd" in env.render()
    rng = random.Random(3)
    while env.game.pending is not None:
        env.step(rng.choice(env.game.pending.legal))
    assert "Final" in env.render() and "BATTING" in env.unwrapped.scorecard()


def test_observation_size_and_docstring():
    env = bottom_ninth_v0.env(cards=sample_cards())
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (env.unwrapped.OBS.size,)
    assert np.all(obs["observation"] <= 1.0)
    assert "Bottom of the 9th" in bottom_ninth_v0.__doc__
