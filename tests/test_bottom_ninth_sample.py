"""Bottom of the 9th's determinization (``envs/bottom_ninth/sample.py``), the duel and the Longer
Game: a sampled state shows the manager exactly his view, plays on to the end and saves; what
the view hides is drawn from the rng alone (twins that differ only in hidden parts sample
alike), and it varies."""

from __future__ import annotations

import json
import random

import pytest

from dugout.agents import make_agent
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.sample import public_setup, sample_state
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core.dice import Dice
from dugout.envs.core.engine import play_out

from helpers import FULL, OPTION_SETS, dumps, games, make, roundtrip

ENV_ID = "bottom_ninth_v0"
DUEL_SETS = [o for o in OPTION_SETS[ENV_ID] if o.get("mode", "duel") == "duel"]
GAME_SETS = [o for o in OPTION_SETS[ENV_ID] if o.get("mode") == "game"]


def _random_states(env, seed: int):
    """Every state of a seeded game with random legal actions (the last one finished)."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    game = env.unwrapped
    while True:
        yield game.state_
        if game.state_.pending is None:
            return
        env.step(rng.choice(game.state_.pending.legal))


def _heuristic_states(env, seed: int):
    """Every state of a seeded game between heuristic managers, stepped as
    ``agents.play.play_game`` steps them (each shown his view when he needs it)."""
    env.reset(seed=seed)
    game = env.unwrapped
    agents = {name: make_agent(ENV_ID, "heuristic") for name in ("away", "home")}
    for i, name in enumerate(("away", "home")):
        agents[name].reset(seed=2 * seed + i)
    for agent in env.agent_iter():
        yield game.state_
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agents[agent]
        env.step(a.act(obs, game.view(agent) if getattr(a, "needs_view", False) else None))


def _check_sample(state, seat: int, setup: dict, seed: int, play: bool = True) -> None:
    view = view_of(state, seat)
    sample = sample_state(view, random.Random(seed), setup)
    assert view_of(sample, seat) == view
    if not play:
        return
    assert dumps(roundtrip(sample)) == dumps(sample)
    policy_rng = random.Random(seed)
    play_out(sample, rules, lambda s, d: policy_rng.choice(d.legal), check=True)
    assert sample.board.over


# -- 1. consistency ----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS[ENV_ID], ids=lambda o: json.dumps(o, sort_keys=True))
@pytest.mark.parametrize("managers", ["random", "heuristic"])
def test_a_sample_shows_the_view_plays_on_and_saves(options, managers):
    """Every state, both seats: the view shown; every state of a duel (every 8th of a
    Longer Game's hundreds in the quick tier) also loads and plays on to the end."""
    env = make(ENV_ID, options, raw=True)
    setup = public_setup(env)
    states = _random_states if managers == "random" else _heuristic_states
    game = options.get("mode") == "game"
    every = 1 if FULL or not game else 8
    n = 0
    for seed in range(games(6, 1) if game else games(40, 1)):   # a Longer Game has ~600 states
        for state in states(env, seed):
            for seat in (0, 1):
                n += 1
                _check_sample(state, seat, setup, n, play=n % every == 0)
    assert n > 20


@pytest.mark.parametrize("options", [{"mode": "game", "teams": "choose"},
                                     {"mode": "game", "teams": "choose", "support": True,
                                      "pitchers": 3, "batters": 9, "innings": 2, "max_innings": 3}],
                         ids=lambda o: json.dumps(o, sort_keys=True))
def test_the_longer_games_other_set_ups(options):
    """Picks without a draft (the staffs' order hidden during the set-up) and a game cut off
    at ``max_innings``, whose board the sample must rebuild."""
    env = make(ENV_ID, options, raw=True)
    setup = public_setup(env)
    assert setup["teams"] == "choose" and setup["max_innings"] == options.get("max_innings")
    n = 0
    for seed in range(games(6, 1)):
        for state in _random_states(env, seed):
            for seat in (0, 1):
                n += 1
                _check_sample(state, seat, setup, n, play=n % (1 if FULL else 8) == 0)


def test_a_substitution_in_progress_is_sampled_with_a_slot_for_it():
    """The runners' batting lines are drawn (public, not in the view); while the other manager
    places his pinch hitter, a draw that puts runners on every slot the hitter could take is a
    world the game never reaches (his card was offered because a slot was free): every
    sample asks a decision with a legal action, and shows the view."""
    options = {"mode": "game", "teams": "choose", "support": True, "pitchers": 3, "batters": 9,
               "innings": 2, "max_innings": 3}
    env = make(ENV_ID, options, raw=True)
    setup = public_setup(env)
    steps = ("pinch_slot", "ds_slot", "ds_slot_start", "ds_where", "ds_where_start")
    checked = 0
    for seed in range(games(12, 4)):
        for state in _random_states(env, seed):
            if state.step not in steps:
                continue
            for seat in (0, 1):
                view = view_of(state, seat)
                for r in range(20):
                    sample = sample_state(view, random.Random(r), setup)
                    assert sample.pending.legal, (seed, seat, r, state.step)
                    assert view_of(sample, seat) == view
                    checked += 1
    assert checked >= 40


def test_bad_input_is_refused():
    env = make(ENV_ID, {}, raw=True)
    env.reset(seed=0)
    view = view_of(env.unwrapped.state_, 0)
    with pytest.raises(TypeError):
        sample_state(env.unwrapped.state_, random.Random(0))
    with pytest.raises(TypeError):
        sample_state(view, 0)
    with pytest.raises(ValueError):
        sample_state(view, random.Random(0), {"teams": "dealt"})


# -- 2. twins -----------------------------------------------------------------------------------------
def _twin(state, rng: random.Random):
    """A copy of ``state`` differing only in what the batter's manager cannot see: another
    committed pitch (when the pitcher has a choice) and new dice."""
    other = state.clone()
    if state.secret >= 0:
        legal = rules.legal_pitches(state)
        if len(legal) > 1:
            other.secret = rng.choice([p for p in legal if p != state.secret])
    other.dice = Dice(rng.getrandbits(40), state.dice.stream)
    return other


def test_twins_that_differ_in_hidden_parts_sample_alike():
    rng = random.Random(5)
    for options in OPTION_SETS[ENV_ID]:
        env = make(ENV_ID, options, raw=True)
        setup = public_setup(env)
        for seed in range(games(10, 2 if options.get("mode") != "game" else 1)):
            for state in _random_states(env, seed):
                other = _twin(state, rng)
                for seat in (0, 1):
                    view = view_of(state, seat)
                    if seat == state.board.fielding and state.secret >= 0:
                        continue                   # the pitcher sees his own pitch
                    assert view_of(other, seat) == view
                    k = rng.getrandbits(32)
                    a = sample_state(view, random.Random(k), setup)
                    b = sample_state(view_of(other, seat), random.Random(k), setup)
                    assert dumps(a) == dumps(b)
                    assert a.dice.seed != state.dice.seed


def _guess_state():
    """A live duel where home is to guess a pitch the pitcher chose among several."""
    env = make(ENV_ID, {}, raw=True)
    for seed in range(50):
        for state in _random_states(env, seed):
            d = state.pending
            if d is not None and d.kind == "guess" and len(rules.legal_pitches(state)) == 4 \
                    and state.pa > 0:
                return state.clone()
    raise AssertionError("no guess found")


def test_the_hidden_pitch_is_drawn_not_copied():
    state = _guess_state()
    view = view_of(state, 1)
    secrets = [sample_state(view, random.Random(k)).secret for k in range(80)]
    assert set(secrets) == {0, 1, 2, 3}
    assert sum(s == state.secret for s in secrets) < 40
    # the pitcher's own view keeps his pitch
    assert {sample_state(view_of(state, 0), random.Random(k)).secret for k in range(10)} == {state.secret}


# -- 3. spread ----------------------------------------------------------------------------------------
def test_every_hidden_piece_varies():
    state = _guess_state()
    view = view_of(state, 1)
    samples = [sample_state(view, random.Random(k)) for k in range(40)]
    assert len({s.dice.seed for s in samples}) == 40
    assert len({s.secret for s in samples}) > 1
    # the Pitch die's face number as rolled, where several faces show the natural face
    env = make(ENV_ID, {}, raw=True)
    rolls, kinds = set(), set()
    for seed in range(40):
        for live in _random_states(env, seed):
            d = live.pending
            if d is not None and d.kind == "pitcher_ability" and live.face_natural == "B" and not rolls:
                rolls = {sample_state(view_of(live, 1), random.Random(k)).pitch_roll for k in range(30)}
            # home's view between batters while away decides: relief, a change or the pitch
            if d is not None and d.actor == 0 and d.kind in ("relief", "pitching_change") and len(kinds) < 2:
                kinds = {sample_state(view_of(live, 1), random.Random(k)).pending.kind
                         for k in range(30)}
    assert rolls == {1, 2, 3}
    assert len(kinds) > 1


def test_the_draft_die_agrees_with_the_view():
    env = make(ENV_ID, {"teams": "choose", "draft": True}, raw=True)
    setup = public_setup(env)
    env.reset(seed=3)
    state = env.unwrapped.state_
    assert state.pending.kind == "draft_order"
    actor = state.pending.actor
    for seat in (0, 1):
        kinds = set()
        for k in range(20):
            sample = sample_state(view_of(state, seat), random.Random(k), setup)
            assert sample.pending.actor == actor
            kinds.add(sample.pending.kind)
        # the winner knows he chooses; the other cannot tell the choice from the first pick
        assert kinds == ({"draft_order"} if seat == actor else {"draft_order", "draft_pick"})


# -- the Longer Game's hidden parts ------------------------------------------------------------------
GAME_ENV = {"mode": "game"}


def _game_state(options: dict, found) -> tuple:
    """The first state of seeded random Longer Games where ``found(state)`` gives a seat."""
    env = make(ENV_ID, options, raw=True)
    for seed in range(60):
        for state in _random_states(env, seed):
            seat = found(state)
            if seat is not None:
                return state.clone(), seat, public_setup(env)
    raise AssertionError("no such state")


def _batting_guess(state):
    d = state.pending
    if d is not None and d.kind == "guess" and len(rules.legal_pitches(state)) == 4:
        return state.board.batting
    return None


def test_the_longer_games_hidden_pitch_is_drawn_in_either_half():
    for half in (0, 1):
        state, seat, setup = _game_state(GAME_ENV, lambda s: _batting_guess(s) if s.board.half == half
                                         and s.pa > 0 else None)
        view = view_of(state, seat)
        secrets = [sample_state(view, random.Random(k), setup).secret for k in range(80)]
        assert set(secrets) == {0, 1, 2, 3}
        pitcher = view_of(state, 1 - seat)
        assert {sample_state(pitcher, random.Random(k), setup).secret for k in range(10)} == {state.secret}


def test_the_runners_are_drawn_among_the_batters_who_came_up():
    """Who stands on which base is not in the view: the samples vary it, always among the
    batters of this half before the one due, the earliest the lead runner."""
    def two_on(s):
        d = s.pending
        if d is not None and d.kind == "guess" and sum(r is not None for r in s.board.bases) >= 2 \
                and s.pa >= 4:
            return s.board.batting
        return None
    state, seat, setup = _game_state(GAME_ENV, two_on)
    view = view_of(state, seat)
    t = state.board.batting
    came_up = {(state.order[t] - j) % 9 for j in range(1, min(state.pa, 8) + 1)}
    seen = set()
    for k in range(40):
        bases = sample_state(view, random.Random(k), setup).board.bases
        on = [(b, r) for b, r in enumerate(bases) if r is not None]
        assert [b for b, _ in on] == [b for b in range(3) if state.board.bases[b] is not None]
        assert {r for _, r in on} <= came_up
        # lower bases hold later batters: counting back from the batter due
        back = [(state.order[t] - r) % 9 for _, r in on]
        assert back == sorted(back)
        seen.add(bases)
    assert len(seen) > 1


def test_the_other_managers_decision_between_batters_is_drawn():
    """Between batters, the batting manager cannot tell relief from a pitching change from
    the next pitch (the fielding manager's): the samples ask each."""
    def fielding_decides(s):
        d = s.pending
        if d is not None and d.kind in ("relief", "pitching_change") and s.pa > 0:
            return s.board.batting
        return None
    state, seat, setup = _game_state(GAME_ENV, fielding_decides)
    view = view_of(state, seat)
    kinds = {sample_state(view, random.Random(k), setup).pending.kind for k in range(40)}
    assert len(kinds) > 1 and "pitch" in kinds


def test_the_drafted_starter_is_drawn_while_the_set_up_hides_it():
    """With a draft, a team's starter is named before the other team sets its lineup; the
    view does not show him until play begins: the samples draw him among the team's
    pitchers who may start."""
    options = {"mode": "game", "teams": "choose", "draft": True}

    def home_selects(s):
        d = s.pending
        return 0 if d is not None and d.kind == "select_batter" and d.actor == 1 else None
    state, seat, setup = _game_state(options, home_selects)
    cs = state.cards
    starters = {c for c in state.drafted[0] if not cs.is_batter(c) and cs.card(c).can_start}
    drawn = {sample_state(view_of(state, seat), random.Random(k), setup).staffs[0][0] for k in range(40)}
    assert drawn <= starters
    assert len(drawn) == min(len(starters), 2) or len(drawn) > 1


def test_a_longer_game_setup_is_checked():
    env = make(ENV_ID, GAME_ENV, raw=True)
    env.reset(seed=0)
    view = view_of(env.unwrapped.state_, 0)
    with pytest.raises(ValueError):
        sample_state(view, random.Random(0), {"mode": "game", "batters": 12})
    with pytest.raises(ValueError):
        sample_state(view, random.Random(0), {"mode": "duel"})
