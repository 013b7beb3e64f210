"""The Gymnasium VectorEnv over batched That's Baseball games (``dugout.vector.env``) and the
masked PPO that trains on it (``dugout.train.vector_ppo``).

* a game of the vector env, replayed in the AEC env (``thats_baseball_v0``) with the same
  seed, the learner's recorded actions and the same opponent (the rulebook heuristic, a
  policy network), is the same game: the learner's observation and mask at every one of
  his decisions, and the reward at the end;
* the autoreset conventions (next step, same step), seats, seeds and reproducibility;
* bad input fails with a clear error;
* PPO on a tiny budget is reproducible with a fixed seed, and its checkpoint loads as a
  ``PolicyAgent`` that plays the AEC env.
"""

from __future__ import annotations

import numpy as np
import pytest

from dugout.agents.policy import PolicyAgent, build_actor
from dugout.agents.solvers.thats_baseball import SolverAgent
from dugout.agents.thats_baseball import ThatsBaseballHeuristic
from dugout.envs import thats_baseball_v0
from dugout.envs.core.errors import IllegalActionError
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.env import OBS
from dugout.vector import ThatsBaseballVectorEnv

AGENTS = ("away", "home")


def play_vector(env: ThatsBaseballVectorEnv, seed: int, rng: np.random.Generator):
    """Play every sub-env's first game with random learner actions; record per game its
    seed, the learner's seat, (observation, mask, action) at each decision and the reward."""
    obs, infos = env.reset(seed=seed)
    n = env.num_envs
    records = [{"seed": int(infos["seed"][i]), "seat": int(infos["seat"][i]), "steps": [],
                "reward": None} for i in range(n)]
    done = np.zeros(n, dtype=bool)
    masks = infos["action_mask"]
    while not done.all():
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        actions = keys.argmax(axis=1)
        for i in np.flatnonzero(~done):
            records[i]["steps"].append((obs[i].copy(), masks[i].copy(), int(actions[i])))
        obs, rewards, term, trunc, infos = env.step(actions)
        masks = infos["action_mask"]
        for i in np.flatnonzero((term | trunc) & ~done):
            records[i]["reward"] = float(rewards[i])
            records[i]["truncated"] = bool(trunc[i])
            records[i]["final_obs"] = (infos["final_obs"][i] if "final_obs" in infos
                                       else obs[i]).copy()
        done |= term | trunc
    return records


def replay_aec(record, opponent, innings=9, max_innings=None):
    """The same game through the AEC env: the learner plays his recorded actions, the
    opponent agent the other seat; checks the learner's observations on the way."""
    env = thats_baseball_v0.env(innings=innings, max_innings=max_innings)
    env.reset(seed=record["seed"])
    learner = AGENTS[record["seat"]]
    steps = iter(record["steps"])
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            if agent == learner:
                assert reward == record["reward"]
                assert trunc == record.get("truncated", False)
                assert np.array_equal(obs["observation"], record["final_obs"])
            env.step(None)
            continue
        if agent == learner:
            o, mask, action = next(steps)
            assert np.array_equal(obs["observation"], o)
            assert np.array_equal(obs["action_mask"].astype(bool), mask)
            env.step(action)
        else:
            env.step(opponent.act(obs, env.unwrapped.view(agent)))
    assert next(steps, None) is None, "the vector env's game had more learner decisions"


@pytest.mark.parametrize("name, manager", [("heuristic", ThatsBaseballHeuristic), ("solver", SolverAgent)])
def test_a_vector_game_is_the_aec_game_against_a_manager(name, manager):
    env = ThatsBaseballVectorEnv(48, opponent=name)
    records = play_vector(env, seed=11, rng=np.random.default_rng(5))
    assert {r["seat"] for r in records} == {0, 1}
    for r in records:
        replay_aec(r, manager())


def test_the_solver_opponent_answers_as_the_solver_everywhere():
    """The optimal manager read straight off the solved tables for a whole batch gives, in
    every game and at every kind of decision, the choice the solver agent gives from that
    game's view (the batting orders, the lead, the runners who tried to steal and the
    pickoff tried all taken into account)."""
    import dataclasses
    from dugout.vector.env import HeuristicOpponent, SolverOpponent
    n = 512
    env = ThatsBaseballVectorEnv(n, opponent="random", autoreset_mode="same_step")
    solver = SolverOpponent(env.games.teams, env.innings)
    agent = SolverAgent(solver.solution)
    views = HeuristicOpponent(env.games.teams, env.innings)          # builds a game's view
    _, infos = env.reset(seed=3)
    rng = np.random.default_rng(8)
    index = np.arange(n)

    def check_every_game():
        """Each game's answer is the agent's from its view; the views, for the record."""
        g = env.games
        answers, tried = solver.act(g, index, env.seat), g._tried_code(index)
        out = []
        for i in index:
            view = dataclasses.replace(views._view(g, int(i)),
                                       tried_steal=tuple(bool(tried[i] >> b & 1) for b in range(3)),
                                       pickoff_tried=bool(g.pickoff_tried[i]))
            assert answers[i] == agent.decide(view), view
            out.append(view)
        return out

    kinds, leads = set(), set()
    for _ in range(120):
        for view in check_every_game():
            kinds.add(view.decision)
            leads.add(view.score[1] - view.score[0])
        keys = rng.random((n, 5))
        keys[~infos["action_mask"]] = -1
        _, _, _, _, infos = env.step(keys.argmax(axis=1))
    assert kinds == set(rules.DECISION_KINDS) and max(abs(d) for d in leads) > 10
    g = env.games                           # leads beyond the tables' bound: read at the bound
    g.runs[:, 0], g.runs[:, 1] = rng.integers(0, 40, n), rng.integers(0, 40, n)
    assert (abs(g.runs[:, 1].astype(int) - g.runs[:, 0]) > solver.solution.bound).sum() > 50
    check_every_game()


def test_a_vector_game_is_the_aec_game_against_a_policy_network():
    import torch
    torch.manual_seed(3)
    actor = build_actor(OBS.size, [16], "Tanh", 5)
    env = ThatsBaseballVectorEnv(24, opponent=actor, seat=1)
    records = play_vector(env, seed=100, rng=np.random.default_rng(6))
    agent = PolicyAgent(actor, {"env_id": "thats_baseball_v0", "obs_size": OBS.size, "n_actions": 5,
                                "net_arch": [16], "activation": "Tanh"})
    for r in records:
        assert r["seat"] == 1
        replay_aec(r, agent)


def test_a_sampling_policy_opponent_plays_legal_actions_by_its_probabilities():
    import torch
    from dugout.vector.env import PolicyOpponent
    from dugout.vector.thats_baseball import BatchedGames
    torch.manual_seed(0)
    actor = build_actor(OBS.size, [8], "Tanh", 5)
    with torch.no_grad():
        actor[-1].bias.copy_(torch.tensor([0.0, 1.0, -1.0, 2.0, 0.5]))
    n = 20_000
    games = BatchedGames(n)                     # the same game n times: the same decision
    games.reset(np.full(n, 5))
    while games.mask[0].sum() < 3:
        games.step(games.mask.argmax(axis=1))
    i = 0
    assert (games.mask == games.mask[0]).all()
    opponent = PolicyOpponent(actor, deterministic=False, seed=1)
    index = np.arange(n)
    actions = opponent.act(games, index, games.actor[index])
    legal = np.flatnonzero(games.mask[i])
    assert set(np.unique(actions)) <= set(legal.tolist())
    agent = PolicyAgent(actor, {"env_id": "thats_baseball_v0", "obs_size": OBS.size, "n_actions": 5,
                                "net_arch": [8], "activation": "Tanh"}, deterministic=False)
    p = agent.policy_probabilities_batch(games.observe(int(games.actor[i]), [i]), games.mask[[i]])[0]
    freq = np.bincount(actions, minlength=5) / len(actions)
    sd = np.sqrt(p * (1 - p) / len(actions))
    assert np.all(np.abs(freq - p) <= 5 * sd + 1e-12), (freq, p)


def test_truncated_games_reward_zero_and_match_the_aec_env():
    env = ThatsBaseballVectorEnv(64, innings=1, max_innings=1, opponent="heuristic", seat=0)
    records = play_vector(env, seed=0, rng=np.random.default_rng(0))
    cut = [r for r in records if r["truncated"]]
    assert cut and all(r["reward"] == 0.0 for r in cut)
    assert all(r["reward"] in (-1.0, 1.0) for r in records if not r["truncated"])
    for r in records:
        replay_aec(r, ThatsBaseballHeuristic(), innings=1, max_innings=1)


def test_one_inning_games_always_wait_on_the_learner_with_same_step_autoreset():
    """A game that ends before the learner's first decision is not an episode: another seed
    is played in its place, so every game the learner sees has a decision for him."""
    env = ThatsBaseballVectorEnv(256, innings=1, opponent="heuristic", autoreset_mode="same_step")
    obs, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        obs, rewards, term, trunc, infos = env.step(keys.argmax(axis=1))
    assert env.games_skipped > 0 and env.games_finished > 0


@pytest.mark.parametrize("innings, max_innings", [(9, None), (1, None), (1, 1)])
def test_every_episode_of_same_step_autoreset_is_the_aec_game_of_its_seed(innings, max_innings):
    """With same-step autoreset a game that ends is restarted within the step and the new
    game's opening moves are played in the opponents' rounds the other games still need:
    every episode, the second and later ones of each sub-env too (one-inning games: some
    new games end before the learner's first decision and are skipped), is the AEC game
    of its seed, observation by observation (games cut off too), and seeds are never played
    twice."""
    n = 24
    env = ThatsBaseballVectorEnv(n, innings=innings, max_innings=max_innings, opponent="heuristic",
                                 autoreset_mode="same_step")
    obs, infos = env.reset(seed=40)
    rng = np.random.default_rng(9)
    current = [{"seed": int(infos["seed"][i]), "seat": int(infos["seat"][i]), "steps": []}
               for i in range(n)]
    episodes = []
    while len(episodes) < 3 * n or (innings == 1 and env.games_skipped < 3):
        assert len(episodes) < 100 * n, "no new game was skipped"
        masks = infos["action_mask"]
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        actions = keys.argmax(axis=1)
        for i in range(n):
            current[i]["steps"].append((obs[i].copy(), masks[i].copy(), int(actions[i])))
        obs, rewards, term, trunc, infos = env.step(actions)
        for i in np.flatnonzero(term | trunc):
            assert infos["final_info"]["seed"][i] == current[i]["seed"]
            assert infos["final_info"]["seat"][i] == current[i]["seat"]
            episodes.append({**current[i], "reward": float(rewards[i]), "truncated": bool(trunc[i]),
                             "final_obs": infos["final_obs"][i]})
            current[i] = {"seed": int(infos["seed"][i]), "seat": int(infos["seat"][i]), "steps": []}
    seeds = [e["seed"] for e in episodes] + [c["seed"] for c in current]
    assert len(set(seeds)) == len(seeds)
    assert env.games_finished == len(episodes)
    if max_innings is not None:
        assert any(e["truncated"] for e in episodes) and any(not e["truncated"] for e in episodes)
    for e in episodes:
        replay_aec(e, ThatsBaseballHeuristic(), innings=innings, max_innings=max_innings)


def test_next_step_autoreset_ignores_the_action_and_starts_a_new_game():
    env = ThatsBaseballVectorEnv(32, opponent="random", seed=1)
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    seen_done = False
    for _ in range(400):
        masks = env.action_masks()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        obs, rewards, term, trunc, infos = env.step(keys.argmax(axis=1))
        done = term | trunc
        if done.any():
            i = int(np.flatnonzero(done)[0])
            seed = infos["seed"][i]
            assert not env.action_masks()[i].any(), "a finished game waits for its reset"
            # any action (even an illegal one) is ignored at the reset step
            actions = np.zeros(env.num_envs, dtype=np.int64)
            masks = env.action_masks()
            live = np.flatnonzero(masks.any(axis=1))
            actions[live] = masks[live].argmax(axis=1)
            actions[i] = 4
            obs2, rewards2, term2, trunc2, infos2 = env.step(actions)
            assert rewards2[i] == 0 and not term2[i] and not trunc2[i]
            assert infos2["seed"][i] != seed
            assert env.action_masks()[i].any()
            seen_done = True
            break
    assert seen_done


def test_same_step_autoreset_returns_the_new_game_and_the_finished_games_last_step():
    """The first game of each sub-env is the same under both modes (the heuristic opponent
    draws nothing); same-step gives its last observation and infos in final_obs/final_info
    and the new game's first observation in its place."""
    kwargs = dict(num_envs=32, opponent="heuristic", seed=4)
    same = ThatsBaseballVectorEnv(autoreset_mode="same_step", **kwargs)
    nxt = ThatsBaseballVectorEnv(autoreset_mode="next_step", **kwargs)
    first = play_vector(nxt, 2, np.random.default_rng(2))
    obs, infos = same.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = np.zeros(32, dtype=bool)
    while not ended.all():
        masks = infos["action_mask"]
        assert masks.any(axis=1).all(), "with same-step autoreset every game waits on the learner"
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        before_seed = infos["seed"].copy()
        obs, rewards, term, trunc, infos = same.step(keys.argmax(axis=1))
        done = term | trunc
        if done.any():
            assert np.array_equal(infos["_final_obs"], done)
            assert np.array_equal(infos["_final_info"], done)
        for i in np.flatnonzero(done & ~ended):
            r = first[i]
            assert rewards[i] == r["reward"]
            assert np.array_equal(infos["final_obs"][i], r["final_obs"])
            assert infos["final_info"]["seed"][i] == before_seed[i] == r["seed"]
            assert infos["final_info"]["seat"][i] == r["seat"]
            assert not infos["final_info"]["action_mask"][i].any()
            assert infos["seed"][i] != r["seed"] and masks[i].any()
            assert not np.array_equal(obs[i], r["final_obs"])
        ended |= done


def test_disabled_autoreset_waits_for_a_reset_mask():
    env = ThatsBaseballVectorEnv(16, opponent="random", autoreset_mode="disabled", seed=0)
    obs, infos = env.reset()
    rng = np.random.default_rng(0)
    finished = np.zeros(16, dtype=bool)
    while not finished.all():
        masks = env.action_masks()
        assert not masks[finished].any()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        actions = keys.argmax(axis=1)
        actions[finished] = 4                   # ignored: the game is over
        obs, rewards, term, trunc, infos = env.step(actions)
        assert not (rewards[finished].any() or term[finished].any() or trunc[finished].any())
        finished |= term | trunc
    seeds = infos["seed"].copy()
    obs, infos = env.reset(options={"reset_mask": np.arange(16) < 4})
    assert (infos["seed"][:4] != seeds[:4]).all() and (infos["seed"][4:] == seeds[4:]).all()
    assert env.action_masks()[:4].any(axis=1).all() and not env.action_masks()[4:].any()
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.ones(3, dtype=bool)})


def _same_runs(a, b) -> bool:
    return all(x["seed"] == y["seed"] and x["seat"] == y["seat"] and x["reward"] == y["reward"]
               and len(x["steps"]) == len(y["steps"])
               and all(np.array_equal(p[0], q[0]) and p[2] == q[2] for p, q in zip(x["steps"], y["steps"]))
               for x, y in zip(a, b))


def test_reset_with_a_seed_reproduces_the_run_and_numbers_the_games():
    def run(seed):
        env = ThatsBaseballVectorEnv(16, opponent=["random", "heuristic"])
        return play_vector(env, seed, np.random.default_rng(0))
    a, b = run(7), run(7)
    assert [r["seed"] for r in a] == list(range(7, 23))
    assert _same_runs(a, b)


def test_the_constructors_seed_reproduces_a_reset_without_one():
    def run():
        env = ThatsBaseballVectorEnv(16, opponent=["random", "heuristic"], seed=3)
        return play_vector(env, None, np.random.default_rng(0))
    assert _same_runs(run(), run())


def test_spaces_hold_the_observations():
    env = ThatsBaseballVectorEnv(8)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == 5 and env.action_space.shape == (8,)
    assert env.metadata["autoreset_mode"].value == "NextStep"


@pytest.mark.parametrize("kwargs, words", [
    ({"num_envs": 0}, "num_envs"),
    ({"num_envs": 4, "seat": 2}, "seat"),
    ({"num_envs": 4, "opponent": "nobody"}, "unknown opponent"),
    ({"num_envs": 4, "opponent": ["random", "heuristic"], "opponent_weights": [1.0]}, "opponent_weights"),
    ({"num_envs": 4, "autoreset_mode": "never"}, "autoreset_mode"),
    ({"num_envs": 4, "teams": ("sample", "nowhere")}, "nowhere"),
])
def test_bad_options_fail_naming_the_problem(kwargs, words):
    with pytest.raises(Exception, match=words):
        ThatsBaseballVectorEnv(**kwargs)


def test_illegal_or_malformed_actions_are_refused():
    env = ThatsBaseballVectorEnv(4, opponent="random")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="4 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    masks = env.action_masks()
    actions = masks.argmax(axis=1)
    i = 0
    actions[i] = int(np.flatnonzero(~masks[i])[0])
    with pytest.raises(IllegalActionError, match=f"game {i}"):
        env.step(actions)
    with pytest.raises(RuntimeError, match="reset"):
        ThatsBaseballVectorEnv(2).step(np.zeros(2, dtype=np.int64))


# -- the trainer --------------------------------------------------------------------------------
def _tiny(tmp_path, name, **kw):
    from dugout.train.vector_ppo import VectorSettings
    return VectorSettings(total_timesteps=2 * 64 * 8, num_envs=64, num_steps=8, num_minibatches=4,
                          update_epochs=2, pool_every=64 * 8, pool_size=2, eval_every=10**9,
                          eval_games=32, net_arch=(16,), out=str(tmp_path / name), **kw)


def test_vector_ppo_is_reproducible_and_its_checkpoint_plays_the_aec_env(tmp_path):
    import torch
    from dugout.agents.play import play_game
    from dugout.train.vector_ppo import train
    a = train(_tiny(tmp_path, "a"), log=lambda _: None)
    b = train(_tiny(tmp_path, "b"), log=lambda _: None)
    wa, wb = (torch.load(p / "model" / "policy.pt", weights_only=True) for p in (a, b))
    assert wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    from dugout.train.vector_ppo import actor_critic
    torch.manual_seed(0)                                            # the run's seed: its init
    init = actor_critic(OBS.size, 5, (16,)).actor.state_dict()
    assert all(wa[k].shape == init[k].shape for k in wa)
    assert any(not torch.equal(wa[k], init[k]) for k in wa)       # it learned something
    agent = PolicyAgent.load(a / "model", env_id="thats_baseball_v0")
    assert agent.meta["timesteps"] == 2 * 64 * 8 and agent.meta["trainer"] == "vector_ppo"
    env = thats_baseball_v0.env()
    result = play_game(env, {"away": agent, "home": ThatsBaseballHeuristic()}, seed=0)
    assert result is not None
    assert (a / "eval.csv").is_file() and (a / "summary.json").is_file()


def test_the_trainers_tanh_is_torchs_to_the_last_bits_forward_and_backward():
    """``dugout.train.tanh.Tanh`` (numpy's tanh, the batched trainer's activation) against
    ``torch.tanh``: values within 2 units in the last place, gradients the same function
    of the output, the exact gradient in float64, and torch's own path for other dtypes."""
    import torch
    from dugout.train.tanh import Tanh
    x = torch.cat([torch.randn(50_000) * 4, torch.tensor([0.0, -0.0, 1e-30, 9.0, -9.0, 40.0,
                                                          float("inf"), float("-inf")])])
    ours, torchs = Tanh()(x), torch.tanh(x)
    assert ours.dtype == torch.float32 and ours.shape == x.shape
    exact = np.tanh(x.numpy().astype(np.float64))
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert np.max(np.abs(ours.numpy() - exact) / ulp) <= 2.0
    assert np.max(np.abs(ours.numpy() - torchs.numpy())) <= 2.4e-7
    xg = x[:1000].clone().requires_grad_(True)
    g = torch.randn(1000)
    Tanh()(xg).backward(g)
    ours_grad = xg.grad.clone()
    xg.grad = None
    torch.tanh(xg).backward(g)
    assert torch.allclose(ours_grad, xg.grad, rtol=1e-5, atol=1e-6)
    x64 = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Tanh(), (x64,))
    with torch.no_grad():                          # works without autograd too
        assert torch.equal(Tanh()(x[:10]), ours[:10])
    half = torch.randn(7).to(torch.bfloat16)       # torch's path: the same values
    assert torch.equal(Tanh()(half), torch.tanh(half))
    strided = torch.randn(8, 6)[:, ::2]            # not contiguous
    assert torch.allclose(Tanh()(strided), torch.tanh(strided), atol=2.4e-7)
    for scalar in (torch.tensor(0.5), torch.tensor(-2.0, dtype=torch.float64, requires_grad=True)):
        assert Tanh()(scalar).shape == () and torch.allclose(Tanh()(scalar), torch.tanh(scalar))
    assert Tanh()(torch.zeros(0, 3)).shape == (0, 3)
    sparse = torch.tensor([[0.0, 1.5], [-0.5, 0.0]]).to_sparse()    # torch's path
    assert torch.equal(Tanh()(sparse).to_dense(), torch.tanh(sparse).to_dense())


def test_a_batched_run_plays_the_same_with_nn_tanh_as_it_trained():
    """The trainer's network uses the numpy Tanh, its checkpoint is loaded with nn.Tanh
    (``PolicyAgent``): the two give the same logits to float32 precision."""
    import torch
    from dugout.agents.policy import build_actor
    from dugout.train.vector_ppo import actor_critic
    torch.manual_seed(3)
    trained = actor_critic(OBS.size, 5, (64, 64)).actor
    loaded = build_actor(OBS.size, [64, 64], "Tanh", 5)
    loaded.load_state_dict(trained.state_dict())
    assert isinstance(loaded[1], torch.nn.Tanh) and not isinstance(trained[1], torch.nn.Tanh)
    obs = torch.rand(2_000, OBS.size)
    with torch.no_grad():
        a, b = trained(obs), loaded(obs)
    assert torch.allclose(a, b, rtol=0, atol=1e-5)
    assert torch.equal(a.argmax(1), b.argmax(1))


def test_vector_ppo_refuses_bad_settings(tmp_path):
    from dugout.train.vector_ppo import VectorSettings
    with pytest.raises(ValueError, match="num_minibatches"):
        VectorSettings(num_envs=10, num_steps=3, num_minibatches=4)
    with pytest.raises(ValueError, match="opponent"):
        VectorSettings(opponent="everyone")
    with pytest.raises(ValueError, match="p_random"):
        VectorSettings(p_random=0.8, p_heuristic=0.5)
    with pytest.raises(ValueError, match="shaping"):
        VectorSettings(shaping="dense")
    with pytest.raises(ValueError, match="teacher"):
        VectorSettings(teacher="oracle")
    with pytest.raises(ValueError, match="teacher_fraction"):
        VectorSettings(teacher="heuristic", teacher_fraction=0.0)
    with pytest.raises(ValueError, match="teacher_coef"):
        VectorSettings(teacher="heuristic", teacher_coef=-1.0)


# -- the heuristic or the solver as a teacher ------------------------------------------------------------------
@pytest.mark.parametrize("name, manager", [("heuristic", ThatsBaseballHeuristic),
                                           ("solver", SolverAgent)])
def test_the_teacher_is_its_manager_at_the_learners_decisions_and_fades_out(name, manager):
    """The teacher's choice in each game of the batch is what its manager (the rulebook
    heuristic, or the optimal manager) chooses from the learner's own view (the AEC env's,
    replayed), and its weight falls linearly to 0 at its share of the run, so the objective
    after it is PPO's alone."""
    from dugout.train.vector_ppo import Teacher
    n = 16
    teacher = Teacher(ThatsBaseballVectorEnv(2), coef=2.0, fraction=0.25, teacher=name)
    assert teacher.weight(0.0) == 2.0 and teacher.weight(0.125) == pytest.approx(1.0)
    assert teacher.weight(0.25) == 0.0 and teacher.weight(0.9) == 0.0
    # play whole games with the learner taking the teacher's choices (autoreset off: each
    # game is one AEC game), then replay them in the AEC env with the manager on both sides
    env = ThatsBaseballVectorEnv(n, opponent=name, autoreset_mode="disabled")
    teacher = Teacher(env, coef=1.0, fraction=1.0, teacher=name)
    _, infos = env.reset(seed=4)
    seeds, seats = infos["seed"].copy(), infos["seat"].copy()
    taught = [[] for _ in range(n)]
    done = np.zeros(n, dtype=bool)
    while not done.all():
        actions = teacher.actions()
        assert (actions[done] == -1).all()              # no choice in a game that is over
        for i in np.flatnonzero(~done):
            assert infos["action_mask"][i, actions[i]]
            taught[i].append(int(actions[i]))
        _, _, term, trunc, infos = env.step(np.where(done, 0, actions))
        done |= term | trunc
    checked = 0
    for i in range(n):
        aec = thats_baseball_v0.env()
        aec.reset(seed=int(seeds[i]))
        playing, k = manager(), 0
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            action = playing.act(obs, aec.unwrapped.view(agent))
            if agent == AGENTS[seats[i]]:
                assert action == taught[i][k]
                k += 1
                checked += 1
            aec.step(action)
        assert k == len(taught[i])
    assert checked > 200


def test_a_run_taught_by_the_heuristic_plays_more_like_it(tmp_path):
    """The imitation term works: a short run with the teacher on all along agrees with the
    heuristic at far more decisions than the same run without it."""
    from dugout.train.vector_ppo import Teacher, train
    agree = {}
    for name, kw in (("plain", {"teacher": "none"}), ("taught", {"teacher": "heuristic", "teacher_fraction": 1.0,
                                                "teacher_coef": 2.0})):
        settings = _tiny(tmp_path, name, **kw)
        settings.total_timesteps, settings.net_arch = 20 * 64 * 8, (32, 32)
        agent = PolicyAgent.load(train(settings, log=lambda _: None) / "model",
                                 env_id="thats_baseball_v0")
        env = ThatsBaseballVectorEnv(256, opponent="heuristic", autoreset_mode="same_step")
        teacher = Teacher(env, coef=1.0, fraction=1.0)
        obs, infos = env.reset(seed=11)
        same = total = 0
        for _ in range(20):
            chosen = agent.action_probabilities_batch(obs, infos["action_mask"]).argmax(axis=1)
            free = infos["action_mask"].sum(axis=1) > 1            # a real choice
            same += int((chosen == teacher.actions())[free].sum())
            total += int(free.sum())
            obs, _, _, _, infos = env.step(chosen)
        agree[name] = same / total
    assert agree["taught"] > 0.8 and agree["taught"] > agree["plain"] + 0.2, agree


# -- the win-expectancy potential and the trainer's shaping -------------------------------------
def test_the_vector_win_expectancy_is_the_learners_win_expectancy_from_his_view():
    """``win_expectancy()`` of every game at each of the learner's decisions, along random
    games against the heuristic, is ``dugout.agents.thats_baseball.win_expectancy`` of the
    learner's view at that decision of the same game in the AEC env; NaN once it is over."""
    from dugout.agents.thats_baseball import win_expectancy
    n = 16
    env = ThatsBaseballVectorEnv(n, opponent="heuristic", autoreset_mode="disabled")
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(8)
    seeds, seats = infos["seed"].copy(), infos["seat"].copy()
    we, actions_of = [[] for _ in range(n)], [[] for _ in range(n)]
    done = np.zeros(n, dtype=bool)
    while not done.all():
        w = env.win_expectancy()
        keys = rng.random((n, 5))
        keys[~infos["action_mask"]] = -1
        actions = keys.argmax(axis=1)
        for i in np.flatnonzero(~done):
            we[i].append(w[i])
            actions_of[i].append(int(actions[i]))
        _, _, term, trunc, infos = env.step(actions)
        done |= term | trunc
    assert np.isnan(env.win_expectancy()).all()
    checked = 0
    for i in range(n):
        aec = thats_baseball_v0.env()
        aec.reset(seed=int(seeds[i]))
        learner, heuristic, k = AGENTS[seats[i]], ThatsBaseballHeuristic(), 0
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
            elif agent == learner:
                assert we[i][k] == pytest.approx(win_expectancy(aec.unwrapped.view(agent)), abs=1e-12)
                aec.step(actions_of[i][k])
                k += 1
                checked += 1
            else:
                aec.step(heuristic.act(obs, aec.unwrapped.view(agent)))
        assert k == len(we[i])
    assert checked > 200


def test_value_tables_win_expectancies_are_the_scalar_ones():
    from dugout.agents.thats_baseball import thats_baseball_tables
    from dugout.envs.thats_baseball.cards import load_team
    t = thats_baseball_tables((load_team("sample").aas, load_team("reds").aas), 9)
    rng = np.random.default_rng(0)
    inning, half, outs = rng.integers(1, 14, 500), rng.integers(0, 2, 500), rng.integers(0, 4, 500)
    bases, lead = rng.integers(0, 8, 500), rng.integers(-25, 26, 500)
    many = t.win_expectancies(inning, half, outs, bases, lead)
    for j in range(500):
        assert many[j] == t.win_expectancy(int(inning[j]), int(half[j]), int(outs[j]), int(bases[j]),
                                           int(lead[j]))
    with pytest.raises(ValueError, match="inning"):
        t.win_expectancies(np.array([0]), 0, 0, 0, 0)


def test_shaped_returns_are_the_results_less_the_first_potential():
    """Potential-based shaping, batched: each game's shaped rewards add up to its result
    less the potential at the learner's first decision, so the best policy is unchanged;
    and it does shape (rewards before the end)."""
    from dugout.train.vector_ppo import WinExpectancyShaping
    n = 64
    env = ThatsBaseballVectorEnv(n, opponent=["heuristic", "random"], autoreset_mode="same_step")
    shaping = WinExpectancyShaping(env)
    _, infos = env.reset(seed=9)
    first = shaping.reset().copy()
    total = np.zeros(n)
    rng = np.random.default_rng(1)
    games = shaped_midgame = 0
    for _ in range(400):
        keys = rng.random((n, 5))
        keys[~infos["action_mask"]] = -1
        _, reward, term, trunc, infos = env.step(keys.argmax(axis=1))
        done = term | trunc
        shaped = shaping(reward, done)
        assert shaped.dtype == np.float32
        total += shaped
        shaped_midgame += int((np.abs(shaped[~done]) > 1e-6).sum())
        for i in np.flatnonzero(done):
            assert total[i] == pytest.approx(reward[i] - first[i], abs=1e-5)
            total[i], first[i] = 0.0, shaping.phi[i]
            games += 1
    assert games > 50 and shaped_midgame > 1000


def test_shaping_refuses_envs_it_cannot_shape():
    """The potential of a finished game's successor is read in the same step, so an env
    that resets on the next step (or never) would shape with the NaN of a game that is
    over: refused, as is a discount outside (0, 1]. With a discount the shaping is
    gamma phi' - phi."""
    from dugout.train.vector_ppo import WinExpectancyShaping
    for mode in ("next_step", "disabled"):
        with pytest.raises(ValueError, match="same_step"):
            WinExpectancyShaping(ThatsBaseballVectorEnv(4, opponent="random", autoreset_mode=mode))
    env = ThatsBaseballVectorEnv(8, opponent="random", autoreset_mode="same_step")
    with pytest.raises(ValueError, match="gamma"):
        WinExpectancyShaping(env, gamma=0.0)
    shaping = WinExpectancyShaping(env, gamma=0.9)
    env.reset(seed=3)
    phi = shaping.reset().copy()
    _, reward, term, trunc, _ = env.step(env.action_masks().argmax(axis=1))
    shaped = shaping(reward, term | trunc)
    want = reward + 0.9 * np.where(term | trunc, 0.0, shaping.phi) - phi
    np.testing.assert_allclose(shaped, want, atol=1e-6)

