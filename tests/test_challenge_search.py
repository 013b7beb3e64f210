"""The Manager Challenge's search manager (``dugout.agents.challenge_search``): it sees only its
view and the campaign's public set-up, plays whole campaigns legally, draws nothing for a forced
decision, keeps the rollout manager's choice unless beaten beyond noise, and refuses bad
settings by name.

The twin test is the one that matters: two live campaigns that show the manager the same view
but differ in what it hides (the Pitcher deck's order, and where the discard pile is hidden
which cards are in it; the game's and the campaign's dice) must get the same decision, option
values included, from a search of the same seed.
"""

from __future__ import annotations

import random

import pytest

from dugout.agents import agent_names, make_agent
from dugout.agents.challenge_search import ChallengeSearchAgent
from dugout.agents.manager_challenge import play_campaign
from dugout.agents.registry import check_agents
from dugout.agents.search import SearchSettings, _beats
from dugout.envs import manager_challenge_v0
from dugout.envs.bottom_ninth.challenge_sample import public_setup
from dugout.envs.core.dice import Dice

from helpers import ObservationOnly, dumps, games

ENV_ID = "manager_challenge_v0"
TINY = "search:sims=2,batch=1"


def _decisions(env, seed: int, count: int, rng: random.Random):
    """Play the heuristic from ``reset(seed)``; yield at up to ``count`` decisions with more
    than one legal action and a deck of two cards or more (chosen at random)."""
    heuristic = make_agent(ENV_ID, "heuristic")
    env.reset(seed=seed)
    found = 0
    while found < count and not env.unwrapped.campaign.over:
        view = env.unwrapped.view()
        if len(view.legal) > 1 and len(env.unwrapped.campaign.game.deck) > 1 and rng.random() < 0.1:
            found += 1
            yield view
        env.step(heuristic.decide(view))


def _twin(campaign):
    """A copy that differs only in what the manager cannot see: the deck's order reversed (and,
    where the discard pile is hidden, the hidden cards dealt the other way between the deck
    and the discard pile), the game's and the campaign's dice reseeded."""
    other = campaign.clone()
    g = other.game
    if g.level >= 2:
        keep = [g.revealed] if g.revealed >= 0 else []
        hidden = [c for c in g.deck + g.discard if c not in keep][::-1]
        n = len(g.deck)
        g.deck, g.discard = hidden[:n], hidden[n:] + keep
    else:
        g.deck = g.deck[::-1]
    g.dice = Dice(g.dice.seed + 1, g.dice.stream)
    other.dice = Dice(other.dice.seed + 1)
    return other


def _search(env, seed: int = 11, spec: str = TINY) -> ChallengeSearchAgent:
    agent = make_agent(ENV_ID, spec)
    agent.reset(seed)
    agent.observe_setup(env.unwrapped.public_setup())
    return agent


@pytest.mark.parametrize("level", ["standard", "manager_of_the_year"])
def test_twins_get_the_same_decision(level):
    """Same view, different deck order and dice: the same search seed gives the same choice
    and the same value for every option in every world."""
    rng = random.Random(5)
    checked = 0
    for seed in range(games(3, 1)):
        env = manager_challenge_v0.env(level=level, first_game="random")
        for view in _decisions(env, seed, 2, rng):
            live = env.unwrapped.campaign
            twin_env = manager_challenge_v0.env(level=level, first_game="random")
            twin_env.reset(seed=seed)
            twin_env.restore(_twin(live))
            assert twin_env.unwrapped.view() == view
            assert twin_env.unwrapped.campaign.game.deck != live.game.deck
            assert dumps(twin_env.unwrapped.campaign) != dumps(live)
            mine, theirs = _search(env), _search(twin_env)
            a = mine.act({}, view)
            b = theirs.act({}, twin_env.unwrapped.view())
            assert a == b
            assert mine.last.values == theirs.last.values and mine.last.values
            assert set(mine.last.estimates) == set(view.legal)
            checked += 1
    assert checked >= 2


def test_a_search_plays_a_whole_campaign_legally():
    """A campaign at a tiny budget (random rollouts, the mask path): every choice legal,
    six games played, each searched decision's values the Manager Points a game earns, and
    the choice the rollout manager's unless another option beats it by z standard errors."""
    env = manager_challenge_v0.env()
    search = make_agent(ENV_ID, "search:sims=2,batch=1,rollout=random")
    searched = []
    original = search.decide

    def decide(view):
        action = original(view)
        searched.append(search.last)
        return action

    search.decide = decide
    result = play_campaign(env, search, 4)
    assert result["illegal"] == "" and len(result["results"]) == 6
    assert result["decisions"] == len(searched) > 50
    for ev in searched:
        assert ev.worlds == 2
        assert all(v >= 0 and v == int(v) for vs in ev.values.values() for v in vs)
        n = min(len(ev.values[ev.choice]), len(ev.values[ev.base]))
        assert ev.choice == ev.base or _beats(ev.values[ev.choice], ev.values[ev.base], n, 2.0)


def test_the_default_search_pairs_every_option_in_every_world():
    """At the default settings, a heuristic-rollout search of one decision: every option
    meets every world (a paired comparison), values are Manager Points."""
    env = manager_challenge_v0.env()
    view = next(_decisions(env, 3, 1, random.Random(2)))
    agent = _search(env, spec="search")
    assert agent.settings == ChallengeSearchAgent.SETTINGS
    ev = agent.evaluate(view, race=False)
    assert ev.worlds == agent.settings.sims
    assert {len(v) for v in ev.values.values()} == {agent.settings.sims}
    assert ev.choice in view.legal


def test_a_decision_with_one_legal_action_draws_nothing():
    """No world is drawn (no set-up was handed over, so drawing one would raise), the
    generator is untouched and no evaluation is kept."""
    env = manager_challenge_v0.env()
    env.reset(seed=0)
    view = env.unwrapped.view()
    forced = object.__new__(type(view))
    forced.__dict__.update(view.__dict__, legal=view.legal[:1], labels=view.labels[:1])
    agent = make_agent(ENV_ID, TINY, seed=3)
    state = agent._rng.getstate()
    assert agent.act({}, forced) == view.legal[0]
    assert agent._rng.getstate() == state and agent.last is None
    with pytest.raises(ValueError, match="observe_setup"):
        agent.act({}, view)                  # more than one: a world is needed, and refused


def test_the_campaign_loop_hands_over_the_public_setup():
    """play_campaign gives the env's public set-up after each reset to a manager that asks."""

    class Recorder:
        name, needs_view = "recorder", True

        def __init__(self):
            self.setups = []
            self.inner = make_agent(ENV_ID, "heuristic")

        def reset(self, seed=None):
            self.setups.append("reset")

        def observe_setup(self, setup):
            self.setups.append(setup)

        def act(self, observation, view):
            return self.inner.act(observation, view)

    env = manager_challenge_v0.env(first_game="random")
    recorder = Recorder()
    for seed in (0, 1):
        play_campaign(env, recorder, seed)
    setup = env.unwrapped.public_setup()
    assert setup == public_setup(env) == {"cards": env.unwrapped.cardset, "first_game": "random"}
    assert recorder.setups == ["reset", setup, "reset", setup]


def test_search_is_registered():
    assert "search" in agent_names(ENV_ID)
    agent = make_agent(ENV_ID, "search:sims=4,batch=2,z=1.5", seed=1)
    assert isinstance(agent, ChallengeSearchAgent)
    assert agent.settings == SearchSettings(sims=4, batch=2, rollout="heuristic", horizon=0, z=1.5)
    assert isinstance(make_agent(ENV_ID, "search"), ChallengeSearchAgent)
    check_agents(ENV_ID, ["search", "search:rollout=random"])


@pytest.mark.parametrize("spec, says", [
    ("search:depth=3", "unknown option 'depth'"),
    ("search:sims=0", "sims must be a positive integer"),
    ("search:sims=four", "sims must be an integer"),
    ("search:sims=4,batch=8", "batch (8) must be at most sims (4)"),
    ("search:z=-1", "z must be a finite number"),
    ("search:horizon=2", "horizon must be 0"),
    ("search:rollout=nobody", "rollout: unknown agent 'nobody'"),
    ("search:rollout=search", "rollout must name another registered manager"),
])
def test_bad_settings_are_refused_by_name(spec, says):
    with pytest.raises(ValueError) as error:
        make_agent(ENV_ID, spec)
    assert says in str(error.value)
    with pytest.raises(ValueError) as error:
        check_agents(ENV_ID, [spec])
    assert says in str(error.value)


def test_a_rollout_manager_must_read_the_view(tmp_path):
    """A trained manager (ppo:PATH) plays a rollout's campaign through ViewPolicy (the view
    encoded as its observation); a manager that decides from the observation vector alone,
    which a rollout's campaign does not have, is refused by name."""
    from cli_table import checkpoint
    from dugout.agents.policy import ViewPolicy
    env = manager_challenge_v0.env()
    checkpoint(ENV_ID, int(env.observation_space.shape[0]), int(env.action_space.n))(tmp_path)
    agent = make_agent(ENV_ID, f"search:rollout=ppo:{tmp_path / 'run'}")
    assert isinstance(agent.rollout, ViewPolicy)

    with pytest.raises(ValueError, match="decides from the observation vector"):
        ChallengeSearchAgent(ObservationOnly())
