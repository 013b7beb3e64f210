"""dugout's games in OpenSpiel (``dugout.integrations.openspiel``).

* OpenSpiel's own API checks (``pyspiel.random_sim_test``) pass for every game and option set of
  the contract suite (``helpers.OPTION_SETS``) and the Manager Challenge, in each game's own
  chance mode and the other one; a serialization round trip (``state.serialize()`` and
  ``game.deserialize_state``; ``pyspiel.serialize_game_and_state`` too with explicit chance)
  gives back a state that plays on exactly as the original.
* Parity: with sampled chance, a game of seed ``s`` is the env's ``reset(seed=s)`` and the next
  one its next ``reset()``: under the same random actions both give the same observations,
  masks, players and returns. With explicit chance, choosing at each chance node the draw the
  keyed dice made plays the same game again (the chance nodes are the engine's own draws).
* Hidden information: a state redrawn from a player's information state
  (``resample_from_infostate``, the rulesets' samplers) has his information state (string and
  tensor) and differs elsewhere; two duels that differ only in the committed pitch and the
  dice seed give the batter the same information state and the pitcher different ones.
  With explicit chance a redrawn state still meets chance nodes (its dice to come unknown).
* Parameters: an unknown one, a bad type and a bad value each raise an error naming it; a
  value of every documented option of every ruleset goes through ``game_parameters`` and
  ``pyspiel.load_game``; the missing extra's ImportError is one line with the install command.
* The interop study runs at a tiny size (``studies/openspiel_interop.py``): the MCCFR
  policy's information states are the strings dugout's evaluator builds from its views, the
  Ace duel's uniform play is exploitable and the policy is evaluated as itself; a policy agent
  asks with the string the game gives at every decision of a played duel.
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import helpers
from dugout.envs import bottom_ninth, make, pokemon_baseball, showdown
from dugout.envs.core.dice import Dice
from dugout.envs.core.errors import OptionError
from dugout.integrations import openspiel as dos

CHALLENGE = ("manager_challenge_v0", {"max_decisions": 60})
CASES = helpers.cases() + [CHALLENGE]
IDS = [helpers.case_id(e, o) for e, o in CASES]


def _game(env_id: str, options: dict, **more) -> dos.DugoutGame:
    return dos.load_game(env_id, **options, **more)


def _other(env_id: str) -> str:
    return "sampled" if dos.DEFAULT_CHANCE.get(env_id, "sampled") == "explicit" else "explicit"


def _step(state, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        action = rng.choices(actions, probs)[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def _play_to(state, rng: random.Random, moves: int):
    for _ in range(moves):
        if state.is_terminal():
            break
        _step(state, rng)
    return state


# -- OpenSpiel's API checks and serialization ---------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_sim_test_in_both_chance_modes(case):
    env_id, options = case
    own, other = dos.DEFAULT_CHANCE.get(env_id, "sampled"), _other(env_id)
    for chance, most in ((own, helpers.games(400, 40)), (other, helpers.games(200, 15))):
        cut = {} if most is None or options.get("max_decisions", most) < most else \
            {"max_decisions": most}         # a game cut short by max_decisions: a truncation
        game = _game(env_id, {**options, **cut}, chance=chance)
        # pyspiel cannot serialize a sampled-chance Python game with serialize_game_and_state
        # (it asks the game for an RNG state a Python game cannot give): the round trip
        # below serializes those states by state.serialize()
        pyspiel.random_sim_test(game, num_sims=1, serialize=chance == "explicit", verbose=False)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_serialization_round_trip_plays_on_the_same(case):
    env_id, options = case
    rng = random.Random(7)
    for chance in ("sampled", "explicit"):
        game = _game(env_id, options, chance=chance, seed=3)
        state = _play_to(game.new_initial_state(), rng, rng.randrange(5, 40))
        if chance == "explicit":
            again_game, again = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state))
            assert str(again_game) == str(game)
        else:
            again = game.deserialize_state(state.serialize())
        assert str(again) == str(state)
        assert again.history() == state.history()
        for p in range(game.num_players()):
            assert again.information_state_string(p) == state.information_state_string(p)
            assert again.observation_tensor(p) == state.observation_tensor(p)
        moves = random.Random(11)
        for _ in range(60):
            if state.is_terminal():
                break
            action = _step(state, moves)
            again.apply_action(action)
            assert again.legal_actions() == state.legal_actions()
        assert str(again) == str(state)
        assert again.returns() == state.returns()


def test_a_clone_is_independent_and_a_terminal_state_says_so():
    game = dos.load_game("bottom_ninth_v0")
    state = _play_to(game.new_initial_state(), random.Random(1), 10)
    copy = state.clone()
    assert str(copy) == str(state)
    _play_to(copy, random.Random(2), 10_000)
    assert copy.is_terminal() and not state.is_terminal()
    assert copy.current_player() == pyspiel.PlayerId.TERMINAL
    assert sorted(copy.returns()) == [-1.0, 1.0]
    assert copy.legal_actions() == [] and not any(copy.observation(0)["action_mask"])


# -- parity with the PettingZoo env ---------------------------------------------------------------------
def _env_observation(env, env_id: str, seat: str):
    if env_id == "manager_challenge_v0":
        return env.encode_view(env.view())
    return env.observe(seat)["observation"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_sampled_games_are_the_envs_games(case):
    """The game of seed 5 and ``initial_state(seed=6)`` against the env's ``reset(seed=5)`` and
    ``reset(seed=6)``: the same random actions, the same observations and masks for both
    seats, the same player to act, the same returns."""
    env_id, options = case
    game = _game(env_id, options, chance="sampled", seed=5)
    one = env_id == "manager_challenge_v0"
    env = make(env_id, **options, illegal_action="raise") if one else \
        helpers.make(env_id, options, raw=True)
    seats = ("home",) if one else helpers.AGENTS
    rng = random.Random(5)
    for seed in (5, 6):
        state = game.new_initial_state() if seed == 5 else game.initial_state(seed=seed)
        env.reset(seed=seed)
        total = [0.0] * len(seats)
        for _ in range(helpers.games(400, 150)):
            for p, seat in enumerate(seats):
                np.testing.assert_array_equal(state.observation(p)["observation"],
                                              _env_observation(env, env_id, seat))
                np.testing.assert_array_equal(state.observation_tensor(p),
                                              _env_observation(env, env_id, seat))
            if state.is_terminal():
                break
            player = state.current_player()
            if not one:
                assert seats[player] == env.agent_selection
                np.testing.assert_array_equal(state.observation(player)["action_mask"],
                                              env.observe(seats[player])["action_mask"])
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if one:
                _, reward, term, trunc, _ = env.step(action)
                total[0] += reward
            else:
                env.step(action)
        else:
            continue            # a long game: compared as far as it went
        if one:
            assert state.returns() == pytest.approx(total)
        else:
            assert env.terminations["away"] or env.truncations["away"]
            assert state.returns() == [float(env.rewards[a]) for a in seats]


class _Recording(Dice):
    """Keyed dice that write down every draw (a die's face less one, a randbelow's value)."""
    __slots__ = ("log",)

    def roll(self, purpose, dice=1, sides=6):
        total = dice
        for _ in range(dice):
            face = self._draw(purpose) % sides
            self.log.append(face)
            total += face
        return total

    def randbelow(self, purpose, n):
        value = self._draw(purpose) % n
        self.log.append(value)
        return value


def test_explicit_chance_nodes_are_the_engines_draws():
    """A duel played with keyed dice, every draw written down; the explicit game, choosing
    those draws at its chance nodes (each uniform over the die's faces), is the same game."""
    for seed in range(3):
        env = helpers.make("bottom_ninth_v0", {}, raw=True)
        env.reset(seed=seed)
        recording = _Recording(seed)
        recording.log = []
        env.game.dice = recording
        rng = random.Random(seed)
        actions, observations = [], []
        while env.game.pending is not None:
            observations.append([env.observe(a)["observation"] for a in helpers.AGENTS])
            actions.append(rng.choice(env.game.pending.legal))
            env.step(actions[-1])
        state = dos.load_game("bottom_ninth_v0", chance="explicit").new_initial_state()
        draws = iter(recording.log)
        for action, seen in zip(actions, observations):
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [p for _, p in outcomes] == pytest.approx([1 / len(outcomes)] * len(outcomes))
                state.apply_action(next(draws))
            for p in (0, 1):
                np.testing.assert_array_equal(state.observation(p)["observation"], seen[p])
            state.apply_action(action)
        while state.is_chance_node():
            state.apply_action(next(draws))
        assert next(draws, None) is None
        assert state.is_terminal()
        assert state.returns() == [float(env.rewards[a]) for a in helpers.AGENTS]


# -- hidden information ----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_redrawn_state_keeps_the_players_information_state(case):
    env_id, options = case
    game = _game(env_id, options, seed=2)
    rng = random.Random(2)
    sampler = np.random.RandomState(2).random_sample
    differs = False
    for _ in range(6):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 30)):         # a decision before the end
            after = state.clone()
            _step(after, rng)
            while after.is_chance_node():
                _step(after, rng)
            if after.is_terminal():
                break
            state = after
        while state.is_chance_node():
            _step(state, rng)
        player = state.current_player()
        twin = state.resample_from_infostate(player, sampler)
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.information_state_tensor(player) == state.information_state_tensor(player)
        assert twin.observation_string(player) == state.observation_string(player)
        assert twin.legal_actions() == state.legal_actions()
        differs |= str(twin) != str(state)
    assert differs, "the redrawn states never differed from the live one (nothing was drawn)"


@pytest.mark.parametrize("env_id", sorted(dos.GAME_NAMES))
def test_a_redrawn_explicit_chance_state_still_draws_its_dice(env_id):
    """With explicit chance a redrawn state rolls its dice to come at chance nodes (the
    ruleset's sampler gives keyed dice with a new seed: played as they are, the search
    would know every roll of its world)."""
    options = {"max_decisions": 60} if env_id == "manager_challenge_v0" else {}
    game = dos.load_game(env_id, chance="explicit", seed=4, **options)
    rng = random.Random(4)
    sampler = np.random.RandomState(4).random_sample
    for _ in range(3):
        state = _play_to(game.new_initial_state(), rng, rng.randrange(0, 40))
        while state.is_chance_node():
            _step(state, rng)
        if state.is_terminal():
            continue
        twin = state.resample_from_infostate(state.current_player(), sampler)
        chance = 0
        for _ in range(400):
            if twin.is_terminal():
                break
            chance += twin.is_chance_node()
            _step(twin, rng)
        assert chance > 0, f"{env_id}: a redrawn state played on without a chance node"


def test_the_committed_pitch_and_the_dice_are_not_in_the_batters_information_state():
    """Two duels, other seeds (sampled chance) and other committed pitches, at the batter's
    guess: his information state is one, the pitcher's are two."""
    twins = []
    for seed, pitch in ((1, 0), (2, 3)):
        state = dos.load_game("bottom_ninth_v0", chance="sampled", seed=seed).new_initial_state()
        assert state.current_player() == 0 and pitch in state.legal_actions()
        state.apply_action(pitch)
        assert state.current_player() == 1
        twins.append(state)
    a, b = twins
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)


# -- parameters and the extra --------------------------------------------------------------------------------
def test_parameters_are_the_envs_options():
    game = pyspiel.load_game("dugout_showdown", {"level": "expert", "seed": 4})
    assert game.options == {"level": "expert"} and game.seed == 4
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    game = dos.load_game("showdown_v0", teams=("nya2004", "bos2004"), dh=True, max_innings=12)
    assert game.options == {"teams": ["nya2004", "bos2004"], "dh": True, "max_innings": 12}
    again = pyspiel.load_game(str(game))             # the game's string loads the same game
    assert again.options == game.options
    duel = pyspiel.load_game("dugout_bottom_ninth")
    assert duel.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert duel.num_distinct_actions() == len(make("bottom_ninth_v0").unwrapped.ACTION_MEANINGS)
    assert duel.max_game_length() == 20_000
    solo = pyspiel.load_game("dugout_manager_challenge", {"reward": "win"})
    assert solo.num_players() == 1 and (solo.min_utility(), solo.max_utility()) == (-6, 6)


@pytest.mark.parametrize("params, named", [
    ({"levle": "expert"}, "levle"),                 # an unknown parameter
    ({"level": 3}, "level"),                        # of the wrong type
    ({"level": "expertt"}, "level"),                # a bad value (the env's own check)
    ({"chance": "drawn"}, "chance"),
    ({"seed": -2}, "seed"),
    ({"dh": 2}, "dh"),
    ({"max_innings": 0}, "max_innings"),
])
def test_a_bad_parameter_is_named(params, named):
    with pytest.raises((pyspiel.SpielError, OptionError), match=named):
        pyspiel.load_game("dugout_showdown", params)


def _data(module, *parts: str) -> str:
    """A built-in data file of a ruleset, as a path (an option value that names a file)."""
    return str(Path(module.__file__).parent.joinpath(*parts))


#: A representative value (or several) of every option of every ruleset, as the env's
#: docstring and ``docs/rulesets/<id>.md`` list them, each with the other options it needs.
OPTION_VALUES = {
    "thats_baseball_v0": {"teams": [("reds", "sample"), ("nya1927", "cin1975")], "innings": [7],
                          "max_innings": [12], "max_decisions": [500]},
    "grand_slam_v0": {"innings": [5], "max_innings": [12], "max_decisions": [500],
                      "deck": [{"single": 20, "strike_out": 20, "ground_out": 15}]},
    "showdown_v0": {
        "level": ["basic", "expert"], "teams": [("nya2004", "atl2004")], "dh": [True, False],
        "starter": [2], "innings": [7], "max_innings": [12], "point_cap": [None, (6000, {"teams": ("nya2004", "bos2004")})],
        "decks": [("default", {"level": "expert"}), (("default", None), {"level": "expert"}),
                  (("hooks", "small_ball"), {"level": "expert"})],
        "card_set": [(lambda: _data(showdown, "data", "strategy", "cards.json"),
                      {"level": "expert", "decks": "default"})],
        "max_decisions": [500], "series": [3, {"games": 3}, {"best_of": 5}],
        "lineups": ["manager", ("manager", {"level": "expert", "dh": False})]},
    "bottom_ninth_v0": {
        "mode": ["game"], "teams": ["choose", {"batters": ["b02", "b04", "b06", "b08", "b10",
                                                            "b12"], "pitchers": ["p02", "p06"]}],
        "draft": [(True, {"teams": "choose"}), ("random", {"teams": "choose"})],
        "cards": [(lambda: _data(bottom_ninth, "data", "cards.json"), {})],
        "fatigue_rows": [3, 10], "pitch_faces": [{"B": 2, "S": 2, "C": 2}],
        "out_rule": ["batter"], "innings": [(2, {"mode": "game"})],
        "max_innings": [(5, {"mode": "game"})], "batters": [(10, {"mode": "game"})],
        "pitchers": [(2, {"mode": "game"})], "support": [True, "shared"],
        "max_decisions": [500], "extra_innings": [True],
        "series": [3, {"games": 2}], "condition": ["random", "e05"]},
    "pokemon_baseball_v0": {
        "teams": [("grove", "ember")], "creatures": [lambda: _data(pokemon_baseball, "data",
                                                                   "creatures.json")],
        "innings": [7], "max_innings": [12], "dh": [True], "edge": ["gt"], "rest_by": ["outs"],
        "bench": ["reserves"], "used_twice": ["roster", "reentry+teams"],
        "series": [3, {"games": 2}], "max_decisions": [500]},
    "manager_challenge_v0": {
        "level": ["veteran", "hall_of_fame"], "reward": ["win"], "first_game": ["random"],
        "cards": [lambda: _data(bottom_ninth, "data", "cards.json")],
        "solo_cards": [lambda: _data(bottom_ninth, "data", "solo.json")],
        "pitch_faces": [{"B": 2, "S": 3, "C": 1}], "out_rule": ["batter"],
        "max_decisions": [500]},
}


def _option_cases():
    for env_id, table in OPTION_VALUES.items():
        for name, values in table.items():
            for entry in values:
                value, more = entry if isinstance(entry, tuple) and len(entry) == 2 \
                    and isinstance(entry[1], dict) else (entry, {})
                yield pytest.param(env_id, name, value, more, id=f"{env_id}-{name}-{value!r:.20}")


def test_the_option_table_names_every_option_of_every_ruleset():
    assert set(OPTION_VALUES) == set(dos.GAME_NAMES)
    for env_id in dos.GAME_NAMES:
        assert set(OPTION_VALUES[env_id]) == set(dos._options(env_id)), env_id


@pytest.mark.parametrize("env_id, name, value, more", list(_option_cases()))
def test_every_documented_option_value_goes_through_the_parameters(env_id, name, value, more):
    """A value of each option (of another type than the default's too: Showdown's series
    as a dict, Bottom of the 9th's draft="random" and support="shared") through
    ``game_parameters``, ``pyspiel.load_game``, and the game's own string where it holds no
    comma: the game's options hold the value, and a first state is set up."""
    value = value() if callable(value) else value
    params = dos.game_parameters(env_id, **more, **{name: value})
    game = pyspiel.load_game(dos.GAME_NAMES[env_id], params)
    expected = list(value) if isinstance(value, tuple) else value
    assert game.options[name] == expected
    again = dos.load_game(env_id, **more, **{name: value})
    assert again.options == game.options
    if "," not in str(game):
        assert pyspiel.load_game(str(game)).options == game.options
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions()


def test_without_openspiel_the_import_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)           # import pyspiel fails
    monkeypatch.delitem(sys.modules, "dugout.integrations.openspiel")
    with pytest.raises(ImportError) as caught:
        importlib.import_module("dugout.integrations.openspiel")
    message = str(caught.value)
    assert "\n" not in message
    assert "pip install 'dugout-baseball[openspiel]'" in message


# -- the study --------------------------------------------------------------------------------------------
def test_the_interop_study_runs_small(capsys, tmp_path):
    from dugout.studies import openspiel_interop
    page = tmp_path / "page.md"
    page.write_text("# Interop\n\nbefore\n\n<!-- generated by dugout openspiel -->\nold\n"
                    "<!-- end of dugout openspiel's block -->\n\nafter\n")
    results = openspiel_interop.main(["--games", "1", "--simulations", "4", "--cfr-iterations", "30",
                                      "--value-games", "20", "--seed", "1", "--markdown", str(page)])
    text = page.read_text()
    assert text.startswith("# Interop\n\nbefore\n") and text.endswith("\nafter\n")
    assert "old" not in text and text.count("<!-- generated by dugout openspiel -->") == 1
    assert ("*Generated by `dugout openspiel --games 1 --simulations 4 --cfr-iterations 30 "
            "--value-games 20 --seed 1`") in text
    assert "OpenSpiel MCTS, random rollouts, 4 simulations | 1 |" in text
    out = capsys.readouterr().out
    assert "MCTS" in out and "exploitability" in out and "found" in out
    assert set(results["matches"]) == {"random rollouts", "heuristic rollouts", "baseline"}
    for match in results["matches"].values():
        assert match["games"] == 1 and 0.0 <= match["mcts_score"] <= 1.0
    agreement = results["agreement"]
    # the policy crosses whole: the information states MCCFR met at the decisions dugout's
    # evaluator asks are the strings the evaluator's questions build (before, none were)
    assert agreement["met_asked"] > 100 and agreement["met_found"] > 0.9
    assert agreement["found"] >= agreement["met_asked"] * agreement["met_found"] - 1e-9
    # the Ace makes the stare-down matter: uniform play is exploitable by a clear margin, and
    # the MCCFR policy, asked where it was learnt, is evaluated as itself, not as uniform play
    assert agreement["uniform"] > 0.05
    assert abs(agreement["exploitability"] - agreement["uniform"]) > 1e-4
    assert abs(agreement["simulated"] - agreement["solver"]) <= agreement["halfwidth"]


def test_an_openspiel_policy_is_asked_by_the_information_state_of_the_view():
    """The policy agent builds, from a manager's view alone, the string the game gives that
    seat at that position, at every decision of a played duel (both seats, chance nodes
    too), and asks the policy with it."""
    from dugout.studies.openspiel_interop import OpenSpielPolicyAgent

    class Recording:
        def __init__(self):
            self.asked = []

        def action_probabilities(self, state, player_id=None):
            self.asked.append(state.information_state_string(player_id))
            legal = state.legal_actions()
            return {a: 1.0 / len(legal) for a in legal}

    game = dos.load_game("bottom_ninth_v0")
    policy = Recording()
    agent = OpenSpielPolicyAgent(game, policy, known=set())
    state, rng, decisions = game.new_initial_state(), random.Random(8), 0
    while not state.is_terminal():
        if not state.is_chance_node():
            player = state.current_player()
            for p in (0, 1):
                assert game.view_information_key(state.view(p)) == state.information_state_string(p)
            probs = agent.action_probabilities(state.observation(player), state.view(player))
            assert policy.asked[-1] == state.information_state_string(player)
            assert sorted(probs) == state.legal_actions()
            decisions += 1
        _step(state, rng)
    assert decisions > 5 and agent.asked == decisions and agent.found == 0
