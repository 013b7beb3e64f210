"""MLB Showdown's starting lineups set by the managers (``lineups="manager"``, lineup.py):
the rulebook's lineup rules, random games under the option, saves, hidden information, the
search's worlds and the heuristic's lineup against a random one."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import helpers
from dugout.agents import make_agent
from dugout.agents.play import play_game
from dugout.agents.showdown import ShowdownHeuristic
from dugout.envs import make
from dugout.envs.core.dice import Dice, ScriptedDice
from dugout.envs.core.errors import OptionError
from dugout.envs.core.state import SaveError
from dugout.envs.showdown import lineup, rules, sample
from dugout.envs.showdown.actions import LINEUP_KINDS, PLAYER
from dugout.envs.showdown.cards import (FIELD_POSITIONS, INFIELD, OUTFIELD, fielding_at,
                                        load_team, team_from_dict, team_to_dict)
from dugout.envs.showdown.state import GameState, new_at_bat

AWAY, HOME = 0, 1


def teams(*names_or_dicts):
    return tuple(team_from_dict(t, "test", point_cap=None) if isinstance(t, dict)
                 else load_team(t, point_cap=None) for t in names_or_dicts)


def new(pair=("nya2004", "sea2004"), level="advanced", dh=True, dice=None, starter=1):
    return rules.new_game(teams(*pair), dice or Dice(0), lineups="manager", level=level,
                           dh=dh, starter=starter)


def k_of(state, t, name):
    return next(k for k, c in enumerate(state.teams[t].players) if c.name == name)


def set_lineup(state, t, field: dict, order: list, dh=None):
    """Team ``t`` picks ``field`` (position -> name), ``dh`` and ``order`` (names, "P" for
    the pitcher); a pick the rules make (one option) must be the one wanted."""
    n = len(FIELD_POSITIONS)
    while state.step == "set_lineups":
        i = len(state.lineup_picks[t])
        spot = i - n - int(state.dh)
        if (i < n and FIELD_POSITIONS[i] not in field) or spot >= len(order):
            break
        if i < n:
            want = k_of(state, t, field[FIELD_POSITIONS[i]])
        elif state.dh and i == n:
            want = k_of(state, t, dh)
        else:
            want = state.starter[t] if order[spot] == "P" else k_of(state, t, order[spot])
        d = state.pending
        assert d.actor == t and PLAYER + want in d.legal, (d, want)
        rules.apply_action(state, PLAYER + want)
    return state


NYA_FIELD = {"C": "Jorge Posada", "1B": "Tony Clark", "2B": "Miguel Cairo", "3B": "Alex Rodriguez",
             "SS": "Derek Jeter", "LF": "Hideki Matsui", "CF": "Bernie Williams",
             "RF": "Gary Sheffield"}
NYA_ORDER = ["Derek Jeter", "Alex Rodriguez", "Gary Sheffield", "Ruben Sierra", "Hideki Matsui",
             "Jorge Posada", "Bernie Williams", "Tony Clark", "Miguel Cairo"]
SEA_FIELD = {"C": "Dan Wilson", "1B": "John Olerud", "2B": "Bret Boone", "3B": "Scott Spiezio",
             "SS": "Rich Aurilia", "LF": "Raul Ibanez", "CF": "Randy Winn", "RF": "Ichiro Suzuki"}
SEA_ORDER = ["Ichiro Suzuki", "Randy Winn", "Edgar Martinez", "Bret Boone", "Raul Ibanez",
             "John Olerud", "Dan Wilson", "Scott Spiezio", "Rich Aurilia"]


# ================================================================== the rulebook's rules

def test_a_pick_that_leaves_a_position_unfillable_is_never_offered():
    """Player Positions: "Whenever your team takes the field, you have to be able to fill every
    position with a player who qualifies there": a shortstop who is the team's only one is
    not offered at second base, though he qualifies there."""
    nya = team_to_dict(load_team("nya2004"))
    for c in nya["players"]:
        if c["name"] == "Derek Jeter":
            c["positions"] = {"2B": 3, "SS": 3}
        if c["name"] == "Enrique Wilson":
            c["positions"] = {"2B": 2}
    state = new((nya, "sea2004"))
    set_lineup(state, AWAY, {"C": "Jorge Posada", "1B": "Tony Clark"}, [])
    d = state.pending
    assert (d.kind, d.subject, d.actor) == ("lineup_position", 2, AWAY)
    jeter = k_of(state, AWAY, "Derek Jeter")
    assert state.card(AWAY, jeter).fielding("2B") == 3
    assert PLAYER + jeter not in d.legal
    assert PLAYER + k_of(state, AWAY, "Miguel Cairo") in d.legal
    # every pick offered can be completed: random completions from every offer never stall
    rng = random.Random(0)
    for _ in range(30):
        trial = state.clone()
        while trial.step == "set_lineups":
            rules.apply_action(trial, rng.choice(trial.pending.legal))
        assert trial.pending is not None and trial.step != "set_lineups"


def test_of_and_if_qualify_at_every_outfield_and_infield_spot_and_nowhere_else():
    """Player Positions: "A player whose position is OF qualifies at all 3 outfield
    positions. A player whose position is IF qualifies at all 4 infield positions"."""
    nya = team_to_dict(load_team("nya2004"))
    for c in nya["players"]:
        if c["name"] == "Kenny Lofton":
            c["positions"] = {"OF": 1}
        if c["name"] == "Enrique Wilson":
            c["positions"] = {"IF": 2}
    state = new((nya, "sea2004"))
    lofton, wilson = k_of(state, AWAY, "Kenny Lofton"), k_of(state, AWAY, "Enrique Wilson")
    offered = {position: set(lineup.position_choices(state, AWAY, _placeholders(state, i)))
               for i, position in enumerate(FIELD_POSITIONS)}
    for position in FIELD_POSITIONS:
        assert (lofton in offered[position]) == (position in OUTFIELD), position
        assert (wilson in offered[position]) == (position in INFIELD), position
    assert all(lineup.qualifies_at(state.card(AWAY, lofton), p, False) == (p in OUTFIELD)
               for p in FIELD_POSITIONS)


def _placeholders(state, i):
    """Picks standing for the first ``i`` positions, taking no hitter: pitchers' indices
    (position_choices reads which position is next from how many picks there are, and
    leaves out the players picked)."""
    return [k for k, c in enumerate(state.teams[AWAY].players) if c.kind == "pitcher"][:i]


def test_the_dh_is_a_full_cost_hitter_not_in_the_field():
    """Player Positions: "You can use any of your fielders or other hitters that aren't
    already in your lineup as your designated hitter ... Your designated hitter must be a
    full-cost player": no backup, no pitcher, nobody already in the field."""
    state = new(("nya2004", "bos2004"))
    bos = state.teams[HOME]
    assert bos.backups
    set_lineup(state, AWAY, NYA_FIELD, NYA_ORDER, dh="Ruben Sierra")
    while state.step == "set_lineups" and len(state.lineup_picks[HOME]) < 8:
        rules.apply_action(state, state.pending.legal[0])
    picks = state.lineup_picks[HOME]
    options = lineup.designated_hitter_choices(state, HOME, picks[:8])
    assert options
    for k in options:
        card = bos.players[k]
        assert card.kind == "hitter" and card.key not in bos.backups and k not in picks[:8]
    backups = [k for k, c in enumerate(bos.players) if c.key in bos.backups]
    assert not set(backups) & set(options)


def test_first_base_out_of_position_only_in_the_expert_game_with_minus_one_or_two():
    """Playing First Base Out of Position: "If someone who doesn't qualify at first base
    plays there, his Fielding becomes -1 ..., unless he doesn't qualify at any position, in
    which case his Fielding becomes -2"; the advanced game offers only first basemen."""
    edgar_name, posada_name = "Edgar Martinez", "Jorge Posada"
    for level in ("advanced", "expert"):
        state = new(level=level)
        set_lineup(state, AWAY, {"C": "Jorge Posada"}, [])
        one_b = lineup.position_choices(state, AWAY, state.lineup_picks[AWAY])
        jeter = k_of(state, AWAY, "Derek Jeter")
        assert (jeter in one_b) == (level == "expert")
        assert k_of(state, AWAY, "Tony Clark") in one_b
    state = new(level="expert")
    edgar = k_of(state, HOME, edgar_name)
    assert not state.card(HOME, edgar).positions
    assert fielding_at(state.card(HOME, edgar), "1B", True) == -2
    assert fielding_at(state.card(AWAY, k_of(state, AWAY, posada_name)), "1B", True) == -1
    # the double play (Different Kinds of Outs): d20 + the infield's Fielding must beat the
    # batter's Speed; Edgar at first for Olerud (0) takes 2 off the infield, and the roll
    # that turned two with Olerud no longer does
    totals, outs = {}, {}
    for first in ("John Olerud", edgar_name):
        state = new(level="expert")
        set_lineup(state, AWAY, NYA_FIELD, NYA_ORDER, dh="Ruben Sierra")
        field = dict(SEA_FIELD, **{"1B": first})
        dh = "John Olerud" if first == edgar_name else edgar_name     # the same nine bat
        set_lineup(state, HOME, field, SEA_ORDER, dh=dh)
        assert state.step != "set_lineups"
        assert state.pos[HOME][state.lineup[HOME].index(k_of(state, HOME, first))] == "1B"
        totals[first] = state.fielding(HOME, INFIELD)
        batter = k_of(state, AWAY, "Derek Jeter")
        speed = state.card(AWAY, batter).speed
        outs[first] = state
    assert totals[edgar_name] == totals["John Olerud"] - 2
    roll = speed - totals["John Olerud"] + 1
    assert 1 <= roll <= 20
    for first, state in outs.items():
        b = state.board
        state.pending = None
        b.inning, b.half, b.outs = 1, 0, 0
        state.order[AWAY] = state.lineup[AWAY].index(batter)
        runner = k_of(state, AWAY, "Alex Rodriguez")
        b.bases = (runner, None, None)
        state.responsible[runner] = state.pitcher[HOME]
        state.ab = new_at_bat()
        state.ab.result = "GB"
        state.dice = ScriptedDice([("double_play", roll)])
        rules.choose_double_play(state, None, rules.YES)
        rules.double_play_roll(state)
        outs[first] = b.outs
    assert outs == {"John Olerud": 2, edgar_name: 1}


def test_the_chosen_batting_order_is_the_order_batters_come_up():
    """Basic Setup 5: "Place your batters in the Batting Order boxes marked "1" through "9""."""
    env = make("showdown_v0", teams=("nya2004", "sea2004"), lineups="manager", dh=False)
    env.reset(seed=3)
    game = env.unwrapped
    want = [NYA_ORDER[i] for i in (8, 7, 6, 5, 4, 3, 2, 1, 0)]
    want = ["P" if n == "Ruben Sierra" else n for n in want]
    set_lineup(game.state_, AWAY, NYA_FIELD, want)
    rng = random.Random(0)
    while game.state_.step == "set_lineups":
        env.step(rng.choice(game.state_.pending.legal))
    s = game.state_
    names = [s.card(AWAY, k).name if k >= 0 else "P" for k in s.lineup[AWAY]]
    starter = s.card(AWAY, s.starter[AWAY]).name
    assert names == [starter if n == "P" else n for n in want]
    order = list(s.lineup[AWAY])
    while not s.board.over:             # no substitutions: 0 (pass) is always legal first
        env.step(s.pending.legal[0])
    came_up = [p.actor for p in s.log.plays if p.kind == "pa" and p.half == AWAY]
    assert len(came_up) >= 27
    assert came_up[:27] == order * 3


# ================================================================== random games

CASES = [("advanced", True, None), ("advanced", False, None), ("expert", True, None),
         ("expert", False, None), ("expert", True, "default")]


@pytest.mark.parametrize("level,dh,decks", CASES)
def test_random_games_complete_with_full_lineups_and_observations_in_their_space(level, dh, decks):
    options = dict(level=level, dh=dh, lineups="manager", teams=("nya2004", "sea2004"))
    if decks:
        options["decks"] = decks
    env = make("showdown_v0", **options)
    space = env.observation_space("away")["observation"]
    kinds = set()
    for seed in range(helpers.games(12, 3)):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        game = env.unwrapped
        revealed = False
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert space.contains(obs["observation"])
            other = env.observe("home" if agent == "away" else "away")["observation"]
            assert space.contains(other)
            s = game.state_
            kinds.add(s.pending.kind)
            if s.step != "set_lineups" and s.pending.kind in LINEUP_KINDS:
                raise AssertionError("a lineup decision after the lineups are set")
            if s.step != "set_lineups" and not revealed:     # the lineups as they start
                revealed = True
                for t in (0, 1):
                    field = [p for p in s.pos[t] if p in FIELD_POSITIONS]
                    assert len(s.lineup[t]) == 9 and sorted(field) == sorted(FIELD_POSITIONS)
                    assert ("DH" in s.pos[t]) == dh and ("P" in s.pos[t]) == (not dh)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        s = game.state_
        assert revealed and (s.board.over or game.truncated_by)
        for t in (0, 1):
            assert len(s.lineup_picks[t]) == lineup.picks_needed(s)
            first = s.lineup_picks[t][:8]
            expert = level == "expert"
            for i, k in enumerate(first):
                assert lineup.qualifies_at(s.card(t, k), FIELD_POSITIONS[i], expert)
    assert kinds & set(LINEUP_KINDS)


def test_the_files_lineups_picked_by_hand_play_the_files_game():
    """Managers who pick their team files' lineups play exactly the default game (same
    dice, same plays): the option changes who sets the lineup, nothing else."""
    for level in ("advanced", "expert"):
        a = rules.new_game(teams("nya2004", "sea2004"), Dice(5), level=level, dh=True)
        b = rules.new_game(teams("nya2004", "sea2004"), Dice(5), lineups="manager", level=level,
                            dh=True)
        for t in (0, 1):
            file = b.teams[t].lineups["dh"]
            names = {p: b.teams[t].card(p).name for p, _ in file}
            field = {pos: names[p] for p, pos in file if pos != "DH"}
            dh = next(names[p] for p, pos in file if pos == "DH")
            set_lineup(b, t, field, [names[p] for p, _ in file], dh=dh)
        assert b.step != "set_lineups"
        for _ in range(400):
            if a.board.over:
                break
            assert (a.pending, a.board.runs, a.lineup, a.pos) == (b.pending, b.board.runs,
                                                                 b.lineup, b.pos)
            action = a.pending.legal[len(a.pending.legal) // 2]
            rules.apply_action(a, action)
            rules.apply_action(b, action)
        assert a.box.summary(a.board) == b.box.summary(b.board)


def test_the_option_is_checked_and_off_by_default():
    assert make("showdown_v0").unwrapped.lineups == "file"
    for bad in ("managers", 1, None):
        with pytest.raises(OptionError, match="lineups"):
            make("showdown_v0", lineups=bad)
    with pytest.raises(OptionError, match="basic"):
        make("showdown_v0", level="basic", lineups="manager")
    plain = make("showdown_v0", level="expert")
    chosen = make("showdown_v0", level="expert", lineups="manager")
    extra = chosen.observation_space("away")["observation"].shape[0] - \
        plain.observation_space("away")["observation"].shape[0]
    assert extra == sum(p[1] for p in __import__("dugout.envs.showdown.env",
                                                 fromlist=["x"]).LINEUP_PIECES)


def test_the_fast_observation_agrees_with_the_views():
    from dugout.envs.showdown.env import encode_view
    env = make("showdown_v0", level="expert", lineups="manager", dh=False).unwrapped
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(150):
        s = env.state_
        if s.board.over:
            break
        for seat, agent in enumerate(("away", "home")):
            assert np.array_equal(env.observe(agent)["observation"], encode_view(env.view(agent)))
        env.step(rng.choice(s.pending.legal))


# ================================================================== saves

def test_a_save_mid_lineup_round_trips_and_a_tampered_one_is_refused():
    env = make("showdown_v0", level="expert", lineups="manager",
               teams=("nya2004", "sea2004")).unwrapped
    env.reset(seed=4)
    rng = random.Random(4)
    while len(env.state_.lineup_picks[HOME]) < 3:
        env.step(rng.choice(env.state_.pending.legal))
    assert env.state_.step == "set_lineups" and env.state_.lineup_picks[HOME]
    saved = env.state_.to_dict()
    loaded = GameState.from_dict(saved)
    assert loaded.to_dict() == saved
    twin = make("showdown_v0", level="expert", lineups="manager",
                teams=("nya2004", "sea2004")).unwrapped
    twin.reset(seed=99)
    twin.restore(loaded)
    assert twin.view("home") == env.view("home")

    def tampered(change):
        data = GameState.from_dict(saved).to_dict()
        change(data)
        return data

    pitcher = next(k for k, c in enumerate(env.state_.teams[HOME].players) if c.kind == "pitcher")
    bad = [
        lambda d: d["lineup_picks"][HOME].__setitem__(0, pitcher),        # a pitcher at C
        lambda d: d["lineup_picks"][AWAY].pop(),                          # away not done
        lambda d: d["lineup_picks"][HOME].append(d["lineup_picks"][HOME][0]),
        lambda d: d.__setitem__("lineup_setting", "managers"),
        lambda d: d.__setitem__("lineup_setting", "file"),
    ]
    for change in bad:
        with pytest.raises(SaveError):
            GameState.from_dict(tampered(change))
    other = make("showdown_v0", level="expert", teams=("nya2004", "sea2004")).unwrapped
    other.reset(seed=1)
    with pytest.raises(Exception, match="lineups"):
        other.restore(GameState.from_dict(saved))


# ================================================================== hidden information

def _home_picking(pick_away, seed=6, level="advanced"):
    env = make("showdown_v0", level=level, lineups="manager", teams=("nya2004", "sea2004"),
               dh=True, render_mode="ansi").unwrapped
    env.reset(seed=seed)
    rng = random.Random(pick_away)
    while env.state_.pending.actor == AWAY and env.state_.step == "set_lineups":
        env.step(rng.choice(env.state_.pending.legal))
    return env


def test_an_unfinished_or_unshown_lineup_never_reaches_the_other_manager():
    """Advanced Game Setup 4-5: the lineups are told once both are set; two games whose away
    lineups differ look the same to the home manager while he picks, observation, view,
    infos and render alike, and he picks the same way (heuristic and search)."""
    a, b = _home_picking(1), _home_picking(2)
    assert a.state_.lineup_picks[AWAY] != b.state_.lineup_picks[AWAY]
    search_a = make_agent("showdown_v0", "search:sims=4,batch=2,horizon=1")
    search_b = make_agent("showdown_v0", "search:sims=4,batch=2,horizon=1")
    for s, env in ((search_a, a), (search_b, b)):
        s.reset(11)
        s.observe_setup(env.public_setup())
    checked = 0
    rng = random.Random(0)
    while a.state_.step == "set_lineups":
        assert a.view("home") == b.view("home")
        assert np.array_equal(a.observe("home")["observation"], b.observe("home")["observation"])
        assert np.array_equal(a.observe("home")["action_mask"], b.observe("home")["action_mask"])
        assert a.infos["home"] == b.infos["home"]
        assert a.render() == b.render()
        if len(a.state_.pending.legal) > 1 and checked < 2:
            va, vb = a.view("home"), b.view("home")
            assert search_a.act(a.observe("home"), va) == search_b.act(b.observe("home"), vb)
            assert search_a.last.values == search_b.last.values
            checked += 1
        h = ShowdownHeuristic()
        assert h.decide(a.view("home")) == h.decide(b.view("home"))
        action = rng.choice(a.state_.pending.legal)
        a.step(action)
        b.step(action)
    assert checked
    # and while the away manager picks, nothing of the home lineup (none yet) nor the
    # away picks reaches the home view
    c, d = (make("showdown_v0", lineups="manager", teams=("nya2004", "sea2004")).unwrapped
            for _ in range(2))
    c.reset(seed=6)
    d.reset(seed=6)
    c.step(c.state_.pending.legal[0])
    d.step(d.state_.pending.legal[-1])
    assert c.view("home") == d.view("home")
    assert np.array_equal(c.observe("home")["observation"], d.observe("home")["observation"])
    # once both are set, both are shown
    assert a.view("home").lineup_picks[AWAY] == tuple(a.state_.lineup_picks[AWAY])


def test_the_search_draws_worlds_consistent_with_a_view_taken_while_lineups_are_set():
    """sample_state: own picks copied, the away lineup (set, unshown) drawn pick by pick."""
    env = _home_picking(3, level="expert")
    view = env.view("home")
    worlds = [sample.sample_state(view, random.Random(i), env.public_setup()) for i in range(8)]
    for w in worlds:
        assert w.step == "set_lineups" and w.pending == env.state_.pending
        assert len(w.lineup_picks[AWAY]) == lineup.picks_needed(w)
    assert len({tuple(w.lineup_picks[AWAY]) for w in worlds}) > 1
    # a world is a game the rules play on to the end
    w = worlds[0]
    rng = random.Random(0)
    while not w.board.over:
        rules.apply_action(w, rng.choice(w.pending.legal))
    # the away manager's view while picking: nothing to draw of the home lineup
    env = make("showdown_v0", lineups="manager").unwrapped
    env.reset(seed=1)
    view = env.view("away")
    w = sample.sample_state(view, random.Random(0), env.public_setup())
    assert w.pending == env.state_.pending
    # and after the lineups are set, a world keeps who started (the pinch-hitter rule)
    env = _home_picking(4)
    while env.state_.step == "set_lineups":
        env.step(env.state_.pending.legal[0])
    for _ in range(30):
        env.step(env.state_.pending.legal[0])
    seat = env.state_.pending.actor
    agent = ("away", "home")[seat]
    w = sample.sample_state(env.view(agent), random.Random(0), env.public_setup())
    assert w.lineup_picks == env.state_.lineup_picks and w.lineup_setting == "manager"


# ================================================================== the heuristic

def _weak_bench():
    """The 2004 Yankees with ten full-cost bench hitters who cannot hit (every swing on their
    charts a strikeout), qualified all over the field: their four bench hitters, and six of
    their relievers turned into such hitters (a 25-man roster with 19 hitters, 4 starters
    and 2 relievers; the point cap waived). A random lineup starts several of them, a
    sensible one none."""
    nya = team_to_dict(load_team("nya2004"))
    weak = {"Jason Giambi": {"IF": 3}, "Kenny Lofton": {"OF": 3}, "John Olerud": {"C": 3},
            "Enrique Wilson": {"IF": 3, "OF": 3}}
    template = next(c for c in nya["players"] if c["name"] == "Jason Giambi")
    relievers = [c for c in nya["players"] if c["kind"] == "pitcher" and c.get("role") != "starter"]
    for i, c in enumerate(relievers[:6]):
        new = {key: value for key, value in template.items() if key != "fit"}
        new.update(id=f"weak{i}", name=f"Weak Hitter {i}")
        nya["players"][nya["players"].index(c)] = new
        weak[new["name"]] = {"IF": 3, "OF": 3, "C": 3}
    for c in nya["players"]:
        if c["name"] in weak:
            c["positions"] = weak[c["name"]]
            c["on_base"] = 0
            c["chart"] = {r: "-" for r in c["chart"]}
            c["chart"]["SO"] = "1-20"
    return nya


class RandomLineup(ShowdownHeuristic):
    """The heuristic with its lineup picked uniformly among the legal picks."""

    def __init__(self, seed: int, **options):
        super().__init__(**options)
        self.rng = random.Random(seed)

    def decide(self, view):
        if view.decision in LINEUP_KINDS:
            return self.rng.choice(view.legal)
        return super().decide(view)


def test_the_heuristics_lineup_beats_a_random_lineup():
    """Seat-swapped: the heuristic with its own lineup against the heuristic with a random
    one, both teams the weak-bench Yankees; the 95% interval's low end is above one half.
    Neither pinch-hits (a pinch hitter for a weak starter after his first at-bat would
    undo most of the lineup's difference: what is measured is the lineup)."""
    weak = team_from_dict(_weak_bench(), "weak bench", point_cap=None)
    env = make("showdown_v0", teams=(weak, weak), lineups="manager")
    n = helpers.games(400, 40)
    wins = 0
    for g in range(n):
        seats = ("away", "home") if g % 2 == 0 else ("home", "away")
        play_game(env, {seats[0]: ShowdownHeuristic(pinch_margin=99.0),
                                 seats[1]: RandomLineup(g, pinch_margin=99.0)}, g // 2)
        runs = env.unwrapped.state_.board.runs
        winner = "away" if runs[0] > runs[1] else "home"
        wins += winner == seats[0]
    p = wins / n
    low = p - 1.96 * math.sqrt(p * (1 - p) / n)
    assert low > 0.5, (wins, n)


def test_the_heuristic_sets_the_rulebooks_batting_order():
    """Creating a Team Batting Order: the pitcher bats last under NL rules, and the
    heuristic's nine are the team's best hitters (the weak bench never starts)."""
    weak = team_from_dict(_weak_bench(), "weak bench", point_cap=None)
    env = make("showdown_v0", teams=(weak, "sea2004"), lineups="manager", dh=False)
    h = ShowdownHeuristic()
    env.reset(seed=0)
    while env.unwrapped.state_.step == "set_lineups":
        s = env.unwrapped.state_
        env.step(h.decide(env.unwrapped.view(("away", "home")[s.pending.actor])))
    s = env.unwrapped.state_
    assert s.pos[AWAY][-1] == "P"
    names = {s.card(AWAY, k).name for k in s.lineup[AWAY] if k >= 0}
    assert not names & {"Jason Giambi", "Kenny Lofton", "John Olerud", "Enrique Wilson"}
    assert not any(n.startswith("Weak Hitter") for n in names)
