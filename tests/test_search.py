"""The search manager (``dugout.agents.search``): it sees only its view and the public set-up,
its settings are checked, it plays legal whole games on every ruleset, and it keeps the rollout
manager's choice unless the evidence says otherwise.

The twin test is the one that matters: two live games that show a manager the same view but
differ in everything the view hides (the opponent's cards, the deck order, a committed secret
choice, the dice seed) must get the same decision, option values included, from a search of
the same seed. The twin's live state is itself a determinization of the view (another
``sample_state`` draw), so it is a game the rules can reach, with its own hidden parts.
"""

from __future__ import annotations

import random

import pytest

import helpers
from dugout.agents import agent_names, make_agent
from dugout.agents.play import play_game, tell_setup
from dugout.agents.ref import AgentRef
from dugout.agents.registry import managers
from dugout.agents.search import SearchAgent, SearchSettings, _beats, parse_options

#: Every ruleset the search plays, with each option set. The quick tier plays Bottom of the
#: 9th's Longer Game over one inning (a whole game of search there plays some 160 decisions
#: of rollouts, a minute in the quick tier's budget).
SEARCHED = [(env_id, options if helpers.FULL or options.get("mode") != "game" else {**options, "innings": 1})
            for env_id, options in helpers.cases() if env_id != "manager_challenge_v0"]
TINY = "search:sims=4,batch=2,horizon=1"


def tiny(env_id: str, sims: int = 4, batch: int = 2) -> str:
    """A small budget for ``env_id``: rollouts cut off after a half inning where the ruleset
    can score a cut-off rollout, else played to the end; simultaneous decisions and every
    kind of decision searched (whatever a ruleset's default budget says)."""
    spec = managers(env_id).search
    cut = ",horizon=1" if spec.truncates else ""
    both = ",simultaneous=matrix" if spec.simultaneous else ""
    return f"search:sims={sims},batch={batch}{cut}{both},kinds=all"


def _ids(case):
    return helpers.case_id(*case)


def _decision_points(env, seed: int, count: int, rng: random.Random):
    """Play random legal actions from ``reset(seed)``; yield the env at up to ``count``
    decisions with more than one legal action (the agent to act, the actions so far)."""
    env.reset(seed=seed)
    actions: list[int] = []
    game = env.unwrapped
    found = 0
    while game.state_.pending is not None and found < count:
        legal = game.state_.pending.legal
        if len(legal) > 1 and rng.random() < 0.3:
            found += 1
            yield env.agent_selection, list(actions)
        a = rng.choice(legal)
        actions.append(a)
        env.step(a)


def _search(env_id: str, env, seed: int = 11) -> SearchAgent:
    agent = make_agent(env_id, tiny(env_id))
    agent.reset(seed)
    tell_setup(env, [agent])
    return agent


@pytest.mark.parametrize("case", SEARCHED, ids=_ids)
def test_twins_get_the_same_decision(case):
    """Same view, different hidden game and dice: the same search seed gives the same choice
    and the same value for every option in every world."""
    env_id, options = case
    sample = __import__(managers(env_id).search.sample, fromlist=["sample_state"])
    rng = random.Random(7)
    checked = 0
    for seed in range(helpers.games(6, 2)):
        env = helpers.make(env_id, options, raw=True)
        for agent_name, actions in _decision_points(env, seed, 2, rng):
            seat = helpers.AGENTS.index(agent_name)
            view = env.view(agent_name)
            twin = helpers.make(env_id, options, raw=True)
            twin.reset(seed=seed)
            for a in actions:
                twin.step(a)
            twin.state_ = sample.sample_state(view, random.Random(1000 + seed), twin.public_setup())
            assert twin.view(agent_name) == view
            assert helpers.dumps(twin.state_) != helpers.dumps(env.state_)
            mine, theirs = _search(env_id, env), _search(env_id, twin)
            a = mine.act(env.observe(agent_name), view)
            b = theirs.act(twin.observe(agent_name), twin.view(agent_name))
            assert a == b
            assert mine.last.values == theirs.last.values and mine.last.values
            assert set(mine.last.estimates) == set(view.legal)
            checked += 1
            del seat
    assert checked >= 1


@pytest.mark.parametrize("case", SEARCHED, ids=_ids)
def test_a_search_plays_a_whole_game_legally(case):
    """Search against the heuristic, both seats: every choice legal (ViewAgent.act checks),
    the game finishes, a decision with one legal action draws no world, and every decision's
    kind is one the ruleset lists for the ``kinds`` setting."""
    env_id, options = case
    env = helpers.make(env_id, options)
    search = make_agent(env_id, tiny(env_id, 2, 1))
    forced = []
    original = search.decide

    def decide(view):
        assert view.decision in search.spec.kinds, view.decision
        state = search._rng.getstate()
        action = original(view)
        if len(view.legal) == 1:
            forced.append(search._rng.getstate() == state and search.last is None)
        return action

    search.decide = decide
    for seed, seats in ((0, ("away", "home")), (1, ("home", "away"))):
        result = play_game(env, {seats[0]: search, seats[1]: make_agent(env_id, "heuristic")}, seed)
        assert result.decisions[seats[0]] > 0
    assert all(forced)


def test_the_game_loop_hands_over_the_public_setup():
    class Recorder:
        name, needs_view = "recorder", False

        def __init__(self):
            self.setups = []
            self.inner = make_agent("grand_slam_v0", "random")

        def reset(self, seed=None):
            self.inner.reset(seed)

        def observe_setup(self, setup):
            self.setups.append(setup)

        def act(self, observation, view=None):
            return self.inner.act(observation, view)

    env = helpers.make("grand_slam_v0", {"innings": 2})
    recorder = Recorder()
    play_game(env, {"away": recorder, "home": make_agent("grand_slam_v0", "random")}, 3)
    assert recorder.setups == [env.unwrapped.public_setup()]
    assert recorder.setups[0].innings == 2


def test_a_search_without_the_setup_says_how_to_give_it():
    env = helpers.make("thats_baseball_v0", {}, raw=True)
    env.reset(seed=0)
    while env.state_.pending is not None and len(env.state_.pending.legal) < 2:
        env.step(env.state_.pending.legal[0])
    agent = make_agent("thats_baseball_v0", TINY)
    with pytest.raises(ValueError, match=r"observe_setup\(env.unwrapped.public_setup\(\)\)"):
        agent.act(env.observe(env.agent_selection), env.view(env.agent_selection))


# -- settings ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, says", [
    ("search:sims=0", "sims must be a positive integer"),
    ("search:sims=-3", "sims must be a positive integer"),
    ("search:sims=x", "sims must be an integer, got 'x'"),
    ("search:batch=65", "batch (65) must be at most sims (64)"),
    ("search:sims=4,batch=8", "batch (8) must be at most sims (4)"),
    ("search:horizon=-1", "horizon must be 0"),
    ("search:z=nan", "z must be a finite number"),
    ("search:z=x", "z must be a number"),
    ("search:simultaneous=both", "simultaneous must be one of matrix, rollout, got 'both'"),
    ("search:depth=3", "unknown option 'depth'"),
    ("search:rollout=search", "rollout must name another registered manager"),
    ("search:rollout=nobody", "search: rollout: unknown agent 'nobody'"),
    ("search:sims", "a setting is key=value"),
    ("search:sims=8,sims=9", "sims is set twice"),
    ("search:", "needs the search manager's settings"),
    ("search:kinds=steal", "kinds: 'steal' is not a decision kind of grand_slam_v0; its kinds: "
                           "batting_play, fielding_play"),
    ("search:kinds=batting_play+steal+pickoff", "kinds: 'pickoff', 'steal' are not decision kinds"),
    ("search:kinds=batting_play+batting_play", "kinds must be all or decision kinds joined by '+'"),
    ("search:kinds=all+batting_play", "kinds must be all or decision kinds joined by '+'"),
    ("search:kinds=batting_play+", "kinds must be all or decision kinds joined by '+'"),
])
def test_bad_settings_are_refused_by_name(text, says):
    with pytest.raises(ValueError) as error:
        make_agent("grand_slam_v0", text)
    assert says in str(error.value)


def test_settings_parse_over_the_defaults():
    ref = AgentRef.parse("search:sims=64,rollout=never-steal,z=1.5")
    assert (ref.kind, str(ref)) == ("search", "search:sims=64,rollout=never-steal,z=1.5")
    assert ref.settings == {"sims": "64", "rollout": "never-steal", "z": "1.5"}
    settings = parse_options(ref.settings, managers("thats_baseball_v0").search.settings)
    assert settings == SearchSettings(sims=64, rollout="never-steal", z=1.5, horizon=0)
    assert parse_options(ref.settings) == SearchSettings(sims=64, rollout="never-steal", z=1.5)
    agent = make_agent("thats_baseball_v0", ref)
    assert agent.settings == settings and agent.rollout.name == "never-steal"
    assert make_agent("thats_baseball_v0", "search").settings == managers("thats_baseball_v0").search.settings
    assert parse_options({"sims": "4"}).batch == 4 and parse_options({"sims": "64"}).batch == 8


def test_every_ruleset_registers_its_search():
    for env_id, _ in SEARCHED:
        assert "search" in agent_names(env_id)


def test_a_rollout_manager_must_read_the_view(tmp_path):
    """A trained manager (ppo:PATH) plays the rollouts through ViewPolicy (the view encoded as
    its observation); a manager that decides from the observation vector alone is refused."""
    from cli_table import checkpoint
    from dugout.agents.policy import ViewPolicy
    env = helpers.make("thats_baseball_v0", {})
    checkpoint("thats_baseball_v0", int(env.observation_space("away")["observation"].shape[0]),
               int(env.action_space("away").n))(tmp_path)
    agent = make_agent("thats_baseball_v0", f"search:rollout=ppo:{tmp_path / 'run'}")
    assert isinstance(agent.rollout, ViewPolicy)

    with pytest.raises(ValueError, match="decides from the observation vector"):
        SearchAgent(managers("thats_baseball_v0").search, helpers.ObservationOnly())


# -- the choice --------------------------------------------------------------------------------
def test_paired_differences_decide_what_beats_what():
    # option a better by 1 in three worlds of four, equal in the fourth: 0.75 +- 0.25
    a, b = [1.0, 1.0, 1.0, 0.5], [0.0, 0.0, 0.0, 0.5]
    assert _beats(a, b, 4, 2.0) and not _beats(b, a, 4, 2.0)
    # a noisy difference of the same mean is not beyond two standard errors
    assert not _beats([1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 0.0], 4, 2.0)
    # no spread: a positive difference beats, none does not
    assert _beats([1.0, 1.0], [0.0, 0.0], 2, 2.0) and not _beats([1.0, 1.0], [1.0, 1.0], 2, 2.0)
    assert not _beats([1.0], [0.0], 1, 2.0)         # one world says nothing


def test_the_rollout_managers_choice_stands_unless_beaten():
    agent = make_agent("grand_slam_v0", "search:z=2")
    noisy = {0: [1.0, 0.0, 1.0, 1.0], 1: [0.0, 1.0, 0.0, 0.0]}
    assert agent._choose((0, 1), [0, 1], noisy, base=1) == 1       # better on average, not beyond noise
    clear = {0: [1.0, 1.0, 1.0, 0.5], 1: [0.0, 0.0, 0.0, 0.5]}
    assert agent._choose((0, 1), [0, 1], clear, base=1) == 0
    # the base left the race: the best option still in it
    assert agent._choose((0, 1, 2), [0, 2], {0: [0.6] * 4, 1: [0.1] * 4, 2: [0.7] * 4}, base=1) == 2


def test_a_search_overrides_a_bad_rollout_manager():
    """With a rollout manager that plays at random, the search departs from its choice where
    the rollouts show another option better beyond noise, and only there (Grand Slam: a
    random card is often far worse than the best one now)."""
    env_id = "grand_slam_v0"
    env = helpers.make(env_id, {}, raw=True)
    agent = make_agent(env_id, "search:sims=32,batch=8,horizon=2,rollout=random,z=2")
    rng = random.Random(3)
    overridden = kept = 0
    for seed in range(4):
        for agent_name, _ in _decision_points(env, seed, 3, rng):
            agent.reset(seed)
            tell_setup(env, [agent])
            choice = agent.act(env.observe(agent_name), env.view(agent_name))
            e = agent.last
            if choice != e.base:
                n = min(len(e.values[choice]), len(e.values[e.base]))
                assert _beats(e.values[choice], e.values[e.base], n, 2.0)
                overridden += 1
            else:
                kept += 1
    assert overridden >= 1 and kept >= 1, (overridden, kept)


def test_the_longer_game_cuts_its_rollouts_off_and_scores_them_by_its_table():
    """A Longer Game's rollout cut off a half inning on is scored by the game's win
    expectancy (a chance strictly between 0 and 1 at the next half's start); one played to
    the end by the result (0, 1/2 or 1). (The Manager Challenge, with no game table, refuses
    a horizon: tests/test_challenge_search.py.)"""
    env = helpers.make("bottom_ninth_v0", {"mode": "game"}, raw=True)
    rng = random.Random(5)
    name, _ = next((a, acts) for a, acts in _decision_points(env, 2, 40, rng)
                   if env.view(a).decision not in ("pitch", "guess"))
    view = env.view(name)
    for horizon in (1, 0):
        agent = make_agent("bottom_ninth_v0", f"search:sims=4,batch=4,horizon={horizon}", seed=0)
        tell_setup(env, [agent])
        values = [v for vs in agent.evaluate(view, race=False).values.values() for v in vs]
        assert len(values) == 4 * len(view.legal)
        if horizon:
            assert all(0 < v < 1 for v in values) and len(set(values)) > 1, values
        else:
            assert set(values) <= {0.0, 0.5, 1.0}, values


def test_a_search_tournament_gives_the_same_games_on_one_worker_and_two():
    from dugout.evaluate.tournament import run_tournament
    agents = ["search:sims=2,batch=1,horizon=1", "heuristic"]
    one = run_tournament("grand_slam_v0", agents, games=8, seed=4, workers=1, chunk=2, bootstrap=0)
    two = run_tournament("grand_slam_v0", agents, games=8, seed=4, workers=2, chunk=2, bootstrap=0)
    assert one.matchups[0].pairs == two.matchups[0].pairs


def test_grand_slams_default_budget_is_the_decision_reports_64_worlds():
    """Grand Slam's search defaults to the 64 worlds a decision at which the decision report
    finds the heuristic's choices beyond noise (the docs' settings table and strength row);
    the other rulesets keep 16, and a given ``sims`` stands."""
    env = helpers.make("grand_slam_v0", {})
    env.reset(seed=0)
    default, given = make_agent("grand_slam_v0", "search"), make_agent("grand_slam_v0", "search:sims=16")
    tell_setup(env, [default, given])
    assert default.settings == SearchSettings(sims=64)
    assert (given.settings.sims, given.settings.batch) == (16, 8)
    for env_id in ("thats_baseball_v0", "showdown_v0", "pokemon_baseball_v0", "bottom_ninth_v0"):
        assert make_agent(env_id, "search").settings.sims == 16, env_id


def test_the_longer_games_default_budget_follows_its_setup_and_yields_to_a_given_setting():
    env = helpers.make("bottom_ninth_v0", {"mode": "game"})
    env.reset(seed=0)
    default = make_agent("bottom_ninth_v0", "search")
    tell_setup(env, [default])
    s = default.settings
    assert (s.sims, s.batch, s.horizon, s.simultaneous, s.z) == (16, 8, 2, "rollout", 3.0)
    given = make_agent("bottom_ninth_v0", "search:sims=2,horizon=0,simultaneous=matrix,z=2")
    tell_setup(env, [given])
    s = given.settings
    assert (s.sims, s.batch, s.horizon, s.simultaneous, s.z) == (2, 2, 0, "matrix", 2.0)
    duel = helpers.make("bottom_ninth_v0", {})
    duel.reset(seed=0)
    tell_setup(duel, [default])
    s = default.settings
    assert (s.sims, s.batch, s.horizon, s.simultaneous, s.z) == (16, 8, 0, "matrix", 2.0)


def _expert_decisions(seed: int = 1):
    """An MLB Showdown expert game with decks played by the heuristic from ``reset(seed)``:
    yields the env and the manager to act at each decision with more than one legal action."""
    env = helpers.make("showdown_v0", {"level": "expert", "decks": "default"}, raw=True)
    env.reset(seed=seed)
    heuristic = make_agent("showdown_v0", "heuristic")
    for name in env.agent_iter():
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        view = env.view(name)
        if len(view.legal) > 1:
            yield env, name
        env.step(heuristic.act(env.observe(name), view))


def test_kinds_leaves_every_other_decision_to_the_rollout_manager():
    """``kinds``: a decision of a kind it names is searched; any other is played as the
    rollout manager plays it, with no world drawn (the search's generator untouched)."""
    heuristic = make_agent("showdown_v0", "heuristic")
    search = make_agent("showdown_v0", "search:sims=2,batch=2,horizon=1,kinds=play_card+sacrifice_bunt")
    every = make_agent("showdown_v0", "search:sims=2,batch=2,horizon=1,kinds=all")
    seen: dict[str, int] = {}
    for env, name in _expert_decisions():
        view, obs = env.view(name), env.observe(name)
        if seen.get(view.decision, 0) >= 2:
            continue
        seen[view.decision] = seen.get(view.decision, 0) + 1
        for agent in (search, every):
            agent.reset(7)
            tell_setup(env, [agent])
        state = search._rng.getstate()
        action = search.act(obs, view)
        every.act(obs, view)
        assert every.last is not None and every.last.worlds > 0
        if view.decision in ("play_card", "sacrifice_bunt"):
            assert search.last is not None and search.last.worlds > 0, view.decision
            assert search.last.estimates == every.last.estimates     # the same search as kinds=all
        else:
            assert search.last is None and search._rng.getstate() == state, view.decision
            assert action == heuristic.act(obs, view), view.decision
        if len(seen) >= 5 and all(seen.get(k) for k in ("play_card", "sacrifice_bunt")):
            return
    raise AssertionError(f"the game ran out of decisions: {seen}")


def test_the_expert_games_default_searches_the_card_plays_only_and_yields_to_a_given_kinds():
    """MLB Showdown's expert game with decks: the default search takes ``kinds=play_card``
    when told the set-up (every decision in the other games), and a ``kinds`` the
    reference gives stands."""
    expert = helpers.make("showdown_v0", {"level": "expert", "decks": "default"})
    expert.reset(seed=0)
    default, given = make_agent("showdown_v0", "search"), make_agent("showdown_v0", "search:kinds=all")
    tell_setup(expert, [default, given])
    assert default.settings.kinds == "play_card" and default.settings.searched == {"play_card"}
    assert given.settings.kinds == "all" and given.settings.searched is None
    assert (default.settings.sims, default.settings.horizon) == (16, 2)
    for options in ({}, {"level": "expert"}):
        env = helpers.make("showdown_v0", options)
        env.reset(seed=0)
        tell_setup(env, [default])
        assert default.settings.kinds == "all", options


# -- simultaneous decisions: Bottom of the 9th's stare-down as a matrix game -------------------
def _stare_down(kind: str, seed: int = 0, raw: bool = True):
    """A Bottom of the 9th duel played by the heuristic from ``reset(seed)`` to its first
    ``kind`` decision ("pitch" or "guess") with more than one legal action: the env and the
    manager to act."""
    env = helpers.make("bottom_ninth_v0", {}, raw=raw)
    env.reset(seed=seed)
    heuristic = make_agent("bottom_ninth_v0", "heuristic", seed)
    for name in env.agent_iter():
        view = env.view(name)
        if view.decision == kind and len(view.legal) > 1:
            return env, name
        env.step(heuristic.act(env.observe(name), view))
    raise AssertionError(f"no {kind} decision in the duel of seed {seed}")


def _scripted(agent: SearchAgent, payoff):
    """``agent`` with every cell's rollout scored ``payoff(own, other)`` (the ruleset's own
    hook still enumerates the other side's choices and plays each pair in a world)."""
    from dataclasses import replace as _replace
    from dugout.agents.search import Simultaneous

    def recording(play):
        def played(state, own, other):
            play(state, own, other)
            state.scripted_pair = (own, other)
        return played

    agent.spec = _replace(agent.spec, simultaneous={
        kind: Simultaneous(s.others, recording(s.play)) for kind, s in agent.spec.simultaneous.items()})
    agent._play_out = lambda state, root, start: payoff(*state.scripted_pair)
    return agent


def _searcher(env, name, options="search:sims=2,batch=2", seed=5):
    agent = make_agent("bottom_ninth_v0", options)
    agent.reset(seed)
    tell_setup(env, [agent])
    return agent


@pytest.mark.parametrize("kind", ["pitch", "guess"])
def test_a_stare_down_with_one_clearly_best_choice_is_played_pure(kind):
    from dugout.envs.bottom_ninth import rules
    env, name = _stare_down(kind)
    agent = _searcher(env, name)
    best = env.view(name).legal[-1]
    # the searching side wins only with its best option, whatever the other side does
    _scripted(agent, lambda own, other: 1.0 if own == best else 0.0)
    choices = set()
    for seed in range(6):
        agent.reset(seed)
        choices.add(agent.act(env.observe(name), env.view(name)))
    e = agent.last
    assert choices == {best}
    assert e.mix[best] == 1.0 and sum(e.mix.values()) == pytest.approx(1.0)
    others = (tuple(rules.GUESS + g for g in range(4)) if kind == "pitch"
              else tuple(rules.THROW + p for p in range(4)))
    assert e.others == others and e.matrix.shape == (len(e.mix), 4)
    assert e.estimates[best].mean == 1.0 and e.value == 1.0


@pytest.mark.parametrize("kind", ["pitch", "guess"])
def test_a_symmetric_stare_down_is_played_mixed(kind):
    """Matching pennies on the four pitches: the batter wins on an exact guess. Either side's
    equilibrium is uniform; a pure answer would be read."""
    from dugout.envs.bottom_ninth import rules
    env, name = _stare_down(kind)
    agent = _searcher(env, name)
    batting = kind == "guess"

    def payoff(own, other):
        pitch, guess = (own, other) if kind == "pitch" else (other, own)
        hit = (pitch - rules.THROW) == (guess - rules.GUESS)
        return float(hit == batting)

    _scripted(agent, payoff)
    view = env.view(name)
    assert len(view.legal) == 4                     # a fresh pitcher: every pitch allowed
    probs = agent.action_probabilities(env.observe(name), view)
    assert probs == pytest.approx({a: 0.25 for a in view.legal})
    assert agent.last.value == pytest.approx(0.25 if batting else 0.75)
    seen = set()
    for seed in range(40):
        agent.reset(seed)
        seen.add(agent.act(env.observe(name), view))
    assert seen == set(view.legal)                  # drawn, not fixed


@pytest.mark.parametrize("kind", ["pitch", "guess"])
def test_a_stare_down_draw_is_reproducible_and_the_matrix_shared_by_twins(kind):
    """The same seed and view give the same matrix, mix and draw, whatever the live game hides
    (for the batter, the pitch actually committed); every cell met the same worlds."""
    from dugout.envs.bottom_ninth import rules
    env, name = _stare_down(kind, seed=2)
    view = env.view(name)
    sample = __import__(managers("bottom_ninth_v0").search.sample, fromlist=["sample_state"])
    twin, _ = _stare_down(kind, seed=2)
    twin.state_ = sample.sample_state(view, random.Random(9), twin.public_setup())
    if kind == "guess":                             # the other pitch committed
        twin.state_.secret = next(p for p in rules.legal_pitches(twin.state_) if p != env.state_.secret)
    assert twin.view(name) == view and helpers.dumps(twin.state_) != helpers.dumps(env.state_)
    mine, theirs = _searcher(env, name, seed=3), _searcher(twin, name, seed=3)
    a, b = mine.act(env.observe(name), view), theirs.act(twin.observe(name), twin.view(name))
    e, f = mine.last, theirs.last
    assert a == b and e.mix == f.mix and e.values == f.values
    assert (e.matrix == f.matrix).all()
    assert e.worlds == 2 and e.rollouts == 2 * len(view.legal) * len(e.others)
    assert a in view.legal and e.mix[a] > 0 and sum(e.mix.values()) == pytest.approx(1.0)
    mine.reset(3)
    assert mine.act(env.observe(name), view) == a and mine.last.mix == e.mix
    assert mine.seed == 3


@pytest.mark.parametrize("kind", ["pitch", "guess"])
def test_simultaneous_rollout_leaves_the_stare_down_to_the_rollout_manager(kind):
    """``simultaneous=rollout``: at the stare-down the search draws no world and plays as
    its rollout manager does (the heuristic's mix, for the exact evaluators too); a
    decision that is not simultaneous is still searched."""
    env, name = _stare_down(kind, seed=2)
    view, obs = env.view(name), env.observe(name)
    search = _searcher(env, name, "search:sims=2,batch=2,simultaneous=rollout", seed=9)
    heuristic = make_agent("bottom_ninth_v0", "heuristic")
    heuristic.reset(9)                                                # seeded as the search's rollouts
    state = search._rng.getstate()
    assert search.action_probabilities(obs, view) == heuristic.action_probabilities(obs, view)
    assert search.act(obs, view) == heuristic.act(obs, view)          # the same draws, the same seed
    assert search._rng.getstate() == state and search.last is None
    matrix = _searcher(env, name, "search:sims=2,batch=2", seed=9)
    matrix.act(obs, view)
    assert matrix.last is not None and matrix.last.matrix is not None
    for other in env.agent_iter():                                    # on to a decision of another kind
        v = env.view(other)
        if len(v.legal) > 1 and v.decision not in ("pitch", "guess"):
            search.act(env.observe(other), v)
            assert search.last is not None and search.last.worlds > 0
            return
        env.step(heuristic.act(env.observe(other), v))
    raise AssertionError("no other decision in the duel")


def test_only_a_search_with_simultaneous_decisions_says_how_it_plays():
    """action_probabilities (what the exact evaluators read as a mixed strategy) only where
    the ruleset has a simultaneous decision; That's Baseball's evaluator asks pure managers."""
    from dugout.agents.solvers.asking import SeededPerState, prepare
    from dugout.agents.solvers.bottom_ninth.policy import PUBLIC_SETUP
    mixing = make_agent("bottom_ninth_v0", "search:sims=2,batch=2", 4)
    pure = make_agent("thats_baseball_v0", TINY, 4)
    assert hasattr(mixing, "action_probabilities") and not hasattr(pure, "action_probabilities")
    assert mixing.seed == pure.seed == 4
    asked = prepare(mixing, dict(PUBLIC_SETUP))
    assert isinstance(asked, SeededPerState) and hasattr(asked, "action_probabilities")
    assert not hasattr(prepare(pure, None), "action_probabilities")
    # a stare-down's mix through the evaluator's wrapper: reseeded from the view, the
    # manager's own seed given back after
    env, name = _stare_down("pitch")
    observation, view = env.observe(name), env.view(name)
    first = asked.action_probabilities(observation, view)
    assert mixing.seed == 4
    assert asked.action_probabilities(observation, view) == first
    assert set(first) == set(view.legal) and sum(first.values()) == pytest.approx(1.0)
    other = prepare(make_agent("bottom_ninth_v0", "search:sims=2,batch=2", 5), dict(PUBLIC_SETUP))
    assert other.own == 5 and asked.own == 4


def test_a_search_plays_the_other_rulesets_as_before_it_mixed():
    """No ruleset but Bottom of the 9th names a simultaneous decision: their searches race."""
    for env_id in {case[0] for case in SEARCHED}:
        spec = managers(env_id).search
        assert bool(spec.simultaneous) == (env_id == "bottom_ninth_v0"), env_id
