"""The pretrained managers dugout ships (``make_agent(env_id, "pretrained")``,
``dugout.agents.pretrained``): every one loads with torch alone from its two safe files,
plays whole games of its env with legal actions, matches its card, and refuses a game of
options it was not trained on, naming the option."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import torch

from dugout.agents import agent_names, make_agent, register
from dugout.agents.registry import check_agents
from dugout.agents.manager_challenge import play_campaign
from dugout.agents.play import play_game
from dugout.agents.pretrained import (PretrainedAgent, PretrainedOptionsError, entries,
                                      entries_for, options_differ)
from dugout.agents.pretrained import _folder as folder_of
from dugout.envs import ENV_IDS, env_ids, make
from dugout.studies.pretrained import CARD, ENTRIES, MEASUREMENTS, card_text

SHIPPED = {e.name: e for e in entries()}
TWO_PLAYER = [e for e in ENV_IDS if e != "manager_challenge_v0"]


def test_every_env_ships_a_pretrained_manager_and_the_registry_lists_it():
    assert {e.env_id for e in SHIPPED.values()} == set(env_ids("all"))   # the Challenge too
    assert set(SHIPPED) <= set(ENTRIES)
    for env_id in env_ids("all"):
        assert "pretrained" in agent_names(env_id)
        assert entries_for(env_id)[0].options == {}, "the first is the env's defaults' manager"


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_folder_holds_only_safe_small_files_read_as_tensors(name):
    folder = folder_of(SHIPPED[name])
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["meta.json", "policy.pt", CARD, MEASUREMENTS])
    state = torch.load(folder / "policy.pt", map_location="cpu", weights_only=True)
    assert state and all(isinstance(v, torch.Tensor) for v in state.values())


def test_the_shipped_weights_stay_small():
    """A few MB at most: 2.66 MiB with the expert game's clone of the heuristic, a (256, 256)
    network of 640 inputs (489 KiB as float16)."""
    total = sum(p.stat().st_size for e in SHIPPED.values() for p in folder_of(e).iterdir())
    assert total < 3 * 2**20, f"{total / 2**20:.2f} MiB of pretrained managers"


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_rebuilding_an_entry_trains_it_as_its_shipped_checkpoint_was(name, tmp_path):
    """``dugout pretrained --entries NAME`` without ``--checkpoint`` trains by the entry's
    recipe: its trainer and every setting the shipped checkpoint's meta records (the run's
    folder aside) must be the ones it was made with, or a rebuild would make another
    manager than the card describes."""
    from dataclasses import asdict
    from dugout.studies.pretrained import entry_settings
    entry = ENTRIES[name]
    shipped = json.loads((folder_of(SHIPPED[name]) / MEASUREMENTS).read_text())["recipe"]
    settings = json.loads(json.dumps(asdict(entry_settings(entry, entry.timesteps, 0, tmp_path))))
    assert shipped["trainer"] == {"vector": "vector_ppo"}.get(entry.trainer, entry.trainer)
    recorded = {k: v for k, v in shipped["settings"].items() if k != "algo"}
    assert {k: settings.get(k, "(not a setting of the trainer)") for k in recorded} == recorded
    if "total_timesteps" in recorded:      # the run went on to the end of its last rollout
        rollout = recorded["n_steps"] * recorded["n_envs"]
        assert entry.timesteps <= shipped["timesteps"] < entry.timesteps + rollout


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_rebuilding_an_entry_runs_the_trainer_its_settings_belong_to(name, tmp_path, monkeypatch):
    """The training function ``dugout pretrained`` calls for an entry comes from the module of
    its settings' class, and gets those settings (the trainers stubbed: no training)."""
    import importlib
    from dugout.studies import pretrained
    calls = []
    for module, function in set(pretrained._TRAIN.values()):
        found = importlib.import_module(f"dugout.train.{module}")
        monkeypatch.setattr(found, function,
                            lambda settings, _m=found.__name__: calls.append((_m, settings)))
    entry = ENTRIES[name]
    assert pretrained._train(entry, entry.timesteps, 0, tmp_path) == tmp_path / name / "model"
    [(module, settings)] = calls
    assert module == type(settings).__module__
    assert settings == pretrained.entry_settings(entry, entry.timesteps, 0, tmp_path / name)


def test_importing_and_loading_them_needs_torch_only():
    code = ("import sys\n"
            "from dugout.agents import make_agent\n"
            "from dugout.envs import env_ids\n"
            "agents = [make_agent(e, 'pretrained') for e in env_ids('all')]\n"
            "assert all(a.actor is not None for a in agents)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('stable_baselines3', 'sb3_contrib')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_its_meta_and_its_card_say_what_its_measurements_hold(name):
    entry = SHIPPED[name]
    folder = folder_of(entry)
    meta = json.loads((folder / "meta.json").read_text())
    measured = json.loads((folder / MEASUREMENTS).read_text())
    assert meta["env_id"] == measured["env_id"] == ENTRIES[name].env_id
    assert meta["pretrained"]["env_options"] == measured["env_options"] == ENTRIES[name].options
    assert meta["pretrained"]["covered_options"] == measured["covered_options"]
    assert not options_differ(meta["env_id"], measured["env_options"], meta["env_options"])
    assert (folder / CARD).read_text() == card_text(measured)
    assert "/" not in meta["run"].replace("pretrained/", "") and not meta["run"].startswith("/")
    assert measured["weights_bytes"] == (folder / "policy.pt").stat().st_size
    if measured["env_id"] != "manager_challenge_v0":
        assert {m["opponent"] for m in measured["matchups"]} == {"random", "heuristic"}
        assert all(m["games"] >= 100 for m in measured["matchups"])


def test_the_cards_carry_the_exact_figures_of_the_solvers():
    tb = json.loads((folder_of(SHIPPED["thats_baseball"]) / MEASUREMENTS).read_text())["gap"]
    assert 0 <= tb["gap_as_away"] < 1 and 0 <= tb["gap_as_home"] < 1
    b9 = json.loads((folder_of(SHIPPED["bottom_ninth"]) / MEASUREMENTS).read_text())
    assert b9["exploitability"]["exploitability_pitching"] >= -1e-9


@pytest.mark.parametrize("env_id", TWO_PLAYER)
def test_it_plays_whole_games_of_its_env_with_legal_actions(env_id):
    env = make(env_id)                    # env(): an illegal action would end the game
    agent = make_agent(env_id, "pretrained", seed=1)
    other = make_agent(env_id, "random", seed=2)
    for seed, seats in ((3, {"away": agent, "home": other}), (4, {"away": other, "home": agent})):
        result = play_game(env, seats, seed)           # raises on an illegal action
        assert result.winner in ("away", "home", None)
        assert sum(result.decisions.values()) > 0


def test_it_plays_a_whole_manager_challenge_campaign():
    env = make("manager_challenge_v0")
    result = play_campaign(env, make_agent("manager_challenge_v0", "pretrained", 0), 5)
    assert not result["illegal"] and len(result["results"]) == 6


def test_an_option_it_was_not_trained_on_is_refused_at_the_set_up_naming_it():
    env = make("thats_baseball_v0", innings=7)
    agent = make_agent("thats_baseball_v0", "pretrained")
    with pytest.raises(PretrainedOptionsError, match=r"innings=7, but it was trained with innings=9"):
        play_game(env, {"away": agent, "home": make_agent("thats_baseball_v0", "random")}, 1)


def test_that_baseballs_teams_are_judged_by_their_averages_so_the_solver_can_score_it():
    """The solver knows teams only by their lineups' adjusted averages (batters #1 to #9, named
    away and home): the game it solves is the one the manager was trained on, so the manager
    is asked there (``dugout solve thats_baseball`` scores it); another lineup is refused."""
    from types import SimpleNamespace
    from dugout.agents.solvers.thats_baseball.policy import public_setup
    from dugout.envs.thats_baseball.cards import load_team
    sample, reds = load_team("sample").aas, load_team("reds").aas
    agent = make_agent("thats_baseball_v0", "pretrained")
    agent.observe_setup(public_setup(SimpleNamespace(lineups=(sample, reds), innings=9)))
    other = (*reds[:8], reds[8] + 1)
    with pytest.raises(PretrainedOptionsError, match="teams=.*but it was trained with teams="):
        agent.observe_setup(public_setup(SimpleNamespace(lineups=(sample, other), innings=9)))


def test_showdown_of_another_level_is_refused_before_any_game_naming_the_level():
    with pytest.raises(PretrainedOptionsError, match=r"level='basic', but it was trained with "
                                                     r"level='advanced'"):
        check_agents("showdown_v0", ["pretrained", "heuristic"], {"level": "basic"})
    env = make("showdown_v0", level="basic")
    with pytest.raises(PretrainedOptionsError, match="level"):
        play_game(env, {"away": make_agent("showdown_v0", "pretrained"),
                        "home": make_agent("showdown_v0", "random")}, 1)


def test_a_series_is_refused_though_its_set_up_shows_no_series():
    agent = make_agent("showdown_v0", "pretrained")
    with pytest.raises(PretrainedOptionsError, match="series=3"):
        agent.check_options({"series": 3})


def test_a_cut_off_is_covered_and_the_defaults_written_out_are_the_same_game():
    check_agents("thats_baseball_v0", ["pretrained"], {"max_innings": 12})
    check_agents("thats_baseball_v0", ["pretrained"], {"teams": ["sample", "reds"], "innings": 9})
    env = make("thats_baseball_v0", max_innings=12)
    play_game(env, {"away": make_agent("thats_baseball_v0", "pretrained"),
                    "home": make_agent("thats_baseball_v0", "random")}, 2)


def test_showdowns_expert_game_plays_its_own_manager_or_is_refused():
    expert = {"level": "expert", "decks": "default"}
    agent = make_agent("showdown_v0", "pretrained")
    if "showdown_expert" in SHIPPED:
        agent.check_options(expert)
        assert agent.entry.name == "showdown_expert"
        env = make("showdown_v0", **expert)
        play_game(env, {"away": agent, "home": make_agent("showdown_v0", "random")}, 1)
        agent.check_options({})
        assert agent.entry.name == "showdown"
    else:
        with pytest.raises(PretrainedOptionsError, match="decks=.default.*level=.expert."):
            agent.check_options(expert)


def test_bottom_of_the_9ths_longer_game_plays_its_own_manager_and_the_duels_comes_back():
    agent = make_agent("bottom_ninth_v0", "pretrained", seed=1)
    agent.check_options({"mode": "game"})
    assert agent.entry.name == "bottom_ninth_longer"
    env = make("bottom_ninth_v0", mode="game")
    for seed, seats in ((1, {"away": agent, "home": make_agent("bottom_ninth_v0", "random", 2)}),
                        (2, {"away": make_agent("bottom_ninth_v0", "heuristic", 3), "home": agent})):
        result = play_game(env, seats, seed)           # raises on an illegal action
        assert result.winner in ("away", "home")
    assert agent.entry.name == "bottom_ninth_longer"   # the game's set-up kept it
    agent.check_options({})
    assert agent.entry.name == "bottom_ninth"
    with pytest.raises(PretrainedOptionsError, match="innings=5"):
        agent.check_options({"mode": "game", "innings": 5})


def test_an_env_without_a_pretrained_manager_is_refused():
    with pytest.raises(ValueError, match="no pretrained manager ships for nope_v0"):
        PretrainedAgent("nope_v0")
    register("pretrained_test_league_v0", "random", lambda seed: None)
    assert "pretrained" not in agent_names("pretrained_test_league_v0")
    with pytest.raises(ValueError, match="unknown agent 'pretrained' for pretrained_test_league_v0"):
        make_agent("pretrained_test_league_v0", "pretrained")


@pytest.mark.parametrize("page", ["docs/managers.md"])
def test_the_docs_table_is_the_one_the_measurements_give(page):
    from pathlib import Path
    from dugout.studies.pretrained import BLOCK, default_out, markdown_block, shipped_measurements
    page = Path(__file__).resolve().parents[1] / page
    assert BLOCK.current(page).rstrip("\n") == markdown_block(shipped_measurements(default_out()))


@pytest.mark.parametrize("relative", [False, True])
def test_an_expert_iteration_checkpoint_ships_without_machine_paths_and_with_its_command(
        tmp_path, monkeypatch, relative):
    """``--checkpoint`` of an expert-iteration run: the shipped meta names no folder of the
    machine that made it (the run, its rounds' rollout=ppo:PATH), and the recipe gives the
    ``dugout train exit`` command that makes it again (its non-default flags and its size)."""
    from dugout.agents.policy import build_actor
    from dugout.studies.pretrained import build_entry
    run = "/some/where/exit_run"
    if relative:             # --out runs/exit_run: the meta's run as given, its rounds resolved
        monkeypatch.chdir(tmp_path)
        run = "runs/exit_run"
    ckpt = tmp_path / "model"
    ckpt.mkdir()
    env = make("grand_slam_v0")
    obs, n = env.observation_space("away")["observation"].shape[0], env.action_space("away").n
    (ckpt / "meta.json").write_text(json.dumps({
        "env_id": "grand_slam_v0", "env_options": {}, "run": run, "algo": "exit", "round": 1,
        "expert": f"search:sims=2,rollout=ppo:{tmp_path / run if relative else run}"
                  f"/checkpoints/round_000",
        "settings": {"algo": "exit", "env": "grand_slam_v0", "rounds": 2, "games": 4, "sims": 2,
                     "net_arch": [4], "epochs": 20, "seed": 3, "out": run, "env_options": {}},
        "obs_size": int(obs), "n_actions": int(n), "net_arch": [4], "activation": "Tanh",
        "timesteps": 99}))
    torch.save(build_actor(int(obs), [4], "Tanh", int(n)).state_dict(), ckpt / "policy.pt")
    recipe = build_entry(ENTRIES["grand_slam"], tmp_path / "gs", ckpt, "checkpoint")
    shipped = (tmp_path / "gs" / "meta.json").read_text()
    assert "/some/where" not in shipped and str(tmp_path) not in shipped
    assert "rollout=ppo:<run>/checkpoints" in shipped
    assert recipe["trainer"] == "exit"
    assert recipe["made_by"] == ("dugout train exit --env grand_slam_v0 --rounds 2 --games 4 "
                                 "--sims 2 --seed 3 --net-arch 4 --out runs/exit_grand_slam")
    from dugout.studies.pretrained import _length
    assert _length(recipe) == "2 rounds of 4 search games (99 decisions learned in the last)"
    from dugout.agents.policy import PolicyAgent            # an ordinary checkpoint folder
    assert PolicyAgent.load(tmp_path / "gs", env_id="grand_slam_v0").meta["run"] == "pretrained/grand_slam"


def test_a_manager_challenge_checkpoint_ships_with_the_command_that_made_it(tmp_path):
    """``--checkpoint`` of a ``dugout train challenge`` run: the recipe names the trainer and
    gives the command that trains it again (its non-default flags and its size); the shipped
    folder names no folder of this machine and plays a campaign."""
    from dugout.agents.manager_challenge import play_campaign
    from dugout.agents.policy import PolicyAgent
    from dugout.studies.pretrained import build_entry
    from dugout.train.single import SingleSettings, train_single
    run = train_single(SingleSettings(total_timesteps=512, n_steps=64, n_envs=2, batch_size=64,
                                      net_arch=(8,), teacher="heuristic", teacher_coef=10.0,
                                      eval_every=10**9, eval_campaigns=1, progress=False,
                                      out=str(tmp_path / "run")))
    recipe = build_entry(ENTRIES["manager_challenge"], tmp_path / "mc", run / "model", "checkpoint")
    assert recipe["trainer"] == "challenge"
    assert recipe["made_by"] == ("dugout train challenge --timesteps 512 --n-envs 2 --n-steps 64 "
                                 "--batch-size 64 --teacher heuristic --teacher-coef 10.0 "
                                 "--eval-every 1000000000 --eval-campaigns 1 --net-arch 8 "
                                 "--out runs/challenge_manager_challenge")
    assert recipe["made_in"] == "runs/challenge_manager_challenge/model"
    assert str(tmp_path) not in (tmp_path / "mc" / "meta.json").read_text()
    agent = PolicyAgent.load(tmp_path / "mc", env_id="manager_challenge_v0")
    assert play_campaign(make("manager_challenge_v0"), agent, 3)["illegal"] == ""


def test_a_cloned_heuristic_ships_with_the_command_that_made_it(tmp_path):
    """``--checkpoint`` of ``dugout train exit --expert heuristic`` (behaviour cloning, the
    expert game's recipe): the card names behaviour cloning and the heuristic's games, and
    its command repeats the run's flags without the search's (``--sims``)."""
    from dugout.studies.pretrained import _length, _trainer, build_entry
    from dugout.train.exit import ExitSettings, train
    entry = ENTRIES["showdown_expert"]
    assert entry.trainer == "exit" and entry.overrides["expert"] == "heuristic"
    run = train(ExitSettings(env="showdown_v0", env_options=dict(entry.options), expert="heuristic",
                             rounds=1, games=2, net_arch=(4,), epochs=1, eval_games=4,
                             out=str(tmp_path / "run")))
    recipe = build_entry(entry, tmp_path / "sx", run / "model", "checkpoint")
    assert recipe["made_by"] == ("dugout train exit --env showdown_v0 --rounds 1 --expert heuristic "
                                 "--games 2 --epochs 1 --eval-games 4 --net-arch 4 "
                                 '--env-option level="expert" --env-option decks="default" '
                                 "--out runs/exit_showdown_expert")
    assert _trainer(recipe).startswith("behaviour cloning of the heuristic")
    assert re.fullmatch(r"1 round of 2 heuristic games \([\d,]+ decisions learned\)",
                        _length(recipe)), _length(recipe)
    from dugout.agents.policy import PolicyAgent
    agent = PolicyAgent.load(tmp_path / "sx", env_id="showdown_v0")
    play_game(make("showdown_v0", **entry.options),                 # raises on an illegal action
              {"away": agent, "home": make_agent("showdown_v0", "heuristic")}, 1)


def test_a_meta_that_still_names_a_machine_folder_is_not_shipped(tmp_path):
    """A path the run's folder does not explain (here a teacher's checkpoint elsewhere) stops
    the build before anything is written."""
    from dugout.agents.policy import build_actor
    from dugout.studies.pretrained import build_entry
    ckpt = tmp_path / "model"
    ckpt.mkdir()
    env = make("grand_slam_v0")
    obs, n = env.observation_space("away")["observation"].shape[0], env.action_space("away").n
    (ckpt / "meta.json").write_text(json.dumps({
        "env_id": "grand_slam_v0", "env_options": {}, "run": "runs/x", "trainer": "ppo",
        "settings": {"teacher": "ppo:/elsewhere/teacher/model"}, "obs_size": int(obs),
        "n_actions": int(n), "net_arch": [4], "activation": "Tanh", "timesteps": 9}))
    torch.save(build_actor(int(obs), [4], "Tanh", int(n)).state_dict(), ckpt / "policy.pt")
    with pytest.raises(ValueError, match="names a folder of this machine"):
        build_entry(ENTRIES["grand_slam"], tmp_path / "gs", ckpt, "checkpoint")
    assert not (tmp_path / "gs").exists()


def test_options_that_are_not_rules_are_never_refused():
    """How the env is driven (its rendering, what an illegal action does) is no rule of the
    game: a pretrained manager plays under any value of them."""
    assert check_agents("grand_slam_v0", ["pretrained", "heuristic"],
                        {"render_mode": "ansi", "illegal_action": "lose"}) is not None


def test_a_pretrained_rollout_manager_refuses_and_picks_as_the_pretrained_manager_does():
    """``search:rollout=pretrained``: the search's rollouts play the pretrained network, which
    refuses a game it was not trained on before any game (check_agents), and in a game of
    the expert Showdown entry's options plays that entry's network (the game's set-up,
    passed on by the search)."""
    from dugout.agents.play import tell_setup
    with pytest.raises(PretrainedOptionsError, match="innings=7"):
        check_agents("thats_baseball_v0", ["search:sims=2,batch=1,rollout=pretrained"], {"innings": 7})
    options = {"level": "expert", "decks": "default"}
    check_agents("showdown_v0", ["search:sims=2,batch=1,rollout=pretrained"], options)
    search = make_agent("showdown_v0", "search:sims=2,batch=1,horizon=1,rollout=pretrained")
    env = make("showdown_v0", **options)
    env.reset(seed=1)
    search.reset(1)
    tell_setup(env, [search])
    expert = PretrainedAgent("showdown_v0")
    expert.observe_setup(env.unwrapped.public_setup())
    assert search.rollout.meta["obs_size"] == expert.meta["obs_size"]
    view = env.unwrapped.view(env.agent_selection)
    assert len(search.rollout.encode(view)) == search.rollout.meta["obs_size"]


def test_measuring_again_keeps_the_training_and_writes_todays_measuring_flags():
    """``--measure-only`` rewrites a manager's command: how it was trained (its entry, its
    checkpoint, its timesteps, its seed) stays, the measuring flags are the ones just used."""
    import argparse
    from dugout.studies.pretrained import _remeasured
    ns = argparse.Namespace(games=4000, search_games=0, campaigns=200)
    assert _remeasured("dugout pretrained --entries showdown", ns) == \
        "dugout pretrained --entries showdown --games 4000"
    assert _remeasured("dugout pretrained --entries grand_slam --checkpoint runs/x/model --games 400 "
                       "--search-games 20 --seed 3", ns) == \
        "dugout pretrained --entries grand_slam --checkpoint runs/x/model --seed 3 --games 4000"
    ns = argparse.Namespace(games=400, search_games=0, campaigns=4000)
    assert _remeasured("dugout pretrained --entries manager_challenge --games 4000", ns) == \
        "dugout pretrained --entries manager_challenge --campaigns 4000"


def test_the_challenge_measurement_pairs_the_campaigns_of_the_same_seeds():
    """``dugout pretrained``'s Manager Challenge figures: each manager's mean Manager Points
    on the same seeds, and the pretrained manager's paired differences to the others."""
    from dugout.studies.pretrained import SEED, _campaigns
    entry = ENTRIES["manager_challenge"]
    figures = _campaigns(entry, folder_of(SHIPPED["manager_challenge"]), 3)
    env = make("manager_challenge_v0")
    mp = {name: [play_campaign(env, make_agent("manager_challenge_v0", ref, 0), s)["mp"]
                 for s in range(SEED, SEED + 3)]
          for name, ref in (("pretrained", "pretrained"), ("heuristic", "heuristic"),
                            ("random", "random"))}
    assert figures["campaigns"] == 3
    for name, points in mp.items():
        assert figures[name]["mp"] == pytest.approx(sum(points) / 3)
        assert figures[name]["mp_low"] <= figures[name]["mp"] <= figures[name]["mp_high"]
    for other in ("heuristic", "random"):
        d = [a - b for a, b in zip(mp["pretrained"], mp[other])]
        got = figures[f"minus_{other}"]
        assert got["mp"] == pytest.approx(sum(d) / 3)
        if len(set(d)) > 1:
            assert got["mp_low"] < got["mp"] < got["mp_high"]


def _built(tmp_path, name: str):
    """A copy of the shipped ``name`` folder in ``tmp_path/out`` as it was before its row
    against the search was measured (the row taken out, the card written again), and its
    measurements."""
    import shutil
    out = tmp_path / "out"
    shutil.copytree(folder_of(SHIPPED[name]), out / name)
    measured = json.loads((out / name / MEASUREMENTS).read_text())
    for key in ("search_command", "search_date"):
        measured.pop(key, None)
    measured["search"] = None
    (out / name / MEASUREMENTS).write_text(json.dumps(measured, indent=2, sort_keys=True) + "\n")
    (out / name / CARD).write_text(card_text(measured))
    return out, measured


def test_the_search_row_is_added_to_a_built_manager_keeping_its_other_figures(tmp_path):
    """``--search-only --search-games N``: the manager against the search in N seat-swapped
    games; every other figure and the training's command stay, the card shows the row and
    the command that measured it, and ``--measure-only`` (no --search-games) keeps the row."""
    from dugout.studies import pretrained
    from dugout.studies.strength import measure
    out, before = _built(tmp_path, "grand_slam")
    assert "not measured" in (out / "grand_slam" / CARD).read_text()
    written = pretrained.main(["--entries", "grand_slam", "--out", str(out), "--search-only",
                               "--search-games", "4"])["grand_slam"]
    after = json.loads((out / "grand_slam" / MEASUREMENTS).read_text())
    assert after == written
    assert {k: v for k, v in after.items() if not k.startswith("search")} == \
        {k: v for k, v in before.items() if not k.startswith("search")}
    command = "dugout pretrained --entries grand_slam --search-only --search-games 4"
    assert after["search_command"] == command and after["search"]["games"] == 4
    again = measure("grand_slam_v0", {}, [f"ppo:{out / 'grand_slam'}", "search"], 4,
                    seed=pretrained.SEED)
    assert after["search"]["opponent"] == "search"
    assert after["search"]["a_score"] == again["a_score"]
    card = (out / "grand_slam" / CARD).read_text()
    assert card == card_text(after) and "not measured" not in card
    assert f"| search | 4 | {100 * again['a_score']:.1f}% (" in card and card.count(command) == 2
    pretrained.main(["--entries", "grand_slam", "--out", str(out), "--measure-only",
                     "--games", "4"])
    remeasured = json.loads((out / "grand_slam" / MEASUREMENTS).read_text())
    assert remeasured["search"] == after["search"]
    assert remeasured["search_command"] == command


def test_the_challenge_search_row_pairs_the_same_campaigns(tmp_path, monkeypatch):
    """The Manager Challenge's search row: the manager's Manager Points a campaign minus the
    other's on the same seeds. Against the heuristic (standing in for the search here, to be
    quick) it is the card's own paired difference to the heuristic over those campaigns."""
    from dugout.studies import pretrained
    monkeypatch.setattr(pretrained, "SEARCH", "heuristic")
    out, before = _built(tmp_path, "manager_challenge")
    after = pretrained.main(["--entries", "manager_challenge", "--out", str(out),
                             "--search-only", "--search-games", "4"])["manager_challenge"]
    same = pretrained._campaigns(ENTRIES["manager_challenge"], out / "manager_challenge", 4)
    s = after["search"]
    assert s["campaigns"] == 4
    assert s["mp"] == pytest.approx(same["minus_heuristic"]["mp"])
    assert (s["mp_low"], s["mp_high"]) == pytest.approx(
        (same["minus_heuristic"]["mp_low"], same["minus_heuristic"]["mp_high"]))
    assert (s["pretrained_mp"], s["search_mp"]) == pytest.approx(
        (same["pretrained"]["mp"], same["heuristic"]["mp"]))
    assert after["challenge"] == before["challenge"]
    card = (out / "manager_challenge" / CARD).read_text()
    assert card == card_text(after)
    assert (f"- against the search manager (its default settings) on the same 4 campaigns: "
            f"{s['mp']:+.1f} Manager Points") in card
