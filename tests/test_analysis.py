"""The analysis of games with the search manager (``dugout.evaluate.analysis``, ``dugout analyze``).

* the game analysed is the game ``play_game`` plays with the same seeds (the score, the box
  score, every decision), whatever the seeding (by seat, or by role as in a pair);
* every analysed decision lists exactly its legal options with their labels; the cost of a
  choice is the best option's mean minus its own, >= 0, and 0 for the best;
* the analysis reads the view and the public set-up, never the live game: a twin game that
  shows the same view but hides other cards, decks and dice gets the same record, and so
  does a search built from nothing but the view, the set-up and the decision's seed;
* a saved game's pending decision is analysed from its file as from the live game;
* a seeded decision report is the same twice, and the same on one worker and two;
* the plot and the JSON are written; a missing matplotlib is one line saying how to get it.

Cheap rulesets (Grand Slam, That's Baseball), a search of two worlds an option and games
analysed once and shared between tests keep the quick tier to seconds.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import sys

import numpy as np
import pytest

import helpers
from dugout.agents import make_agent
from dugout.agents.play import play_game, play_pair
from dugout.agents.registry import managers
from dugout.envs import make
from dugout.evaluate import analysis
from dugout.evaluate.analysis import (analyse_game, analyse_position, analyse_saved,
                                      decision_report, decision_seed)

TINY = "search:sims=2,batch=2"
#: (env id, options, away, home): cheap games with decisions of several kinds, played by a
#: manager that reads the view and one that reads the observation
CASES = [("grand_slam_v0", {}, "heuristic", "random"),
         ("thats_baseball_v0", {}, "random", "heuristic")]
SEED = 6


@functools.lru_cache(maxsize=None)
def _game(case: int, seats: tuple[str, ...] = ("away", "home")):
    """Case ``case``'s game on :data:`SEED`, analysed once for every test that reads it."""
    env_id, options, away, home = CASES[case]
    return analyse_game(env_id, options, {"away": away, "home": home}, SEED, TINY, seats)


class Recorder:
    """A manager that plays as ``agent`` and records, at each of its decisions, its seat,
    the legal actions of the action mask and the action played."""

    def __init__(self, seat: str, agent, log: list):
        self.seat, self.agent, self.log = seat, agent, log
        self.needs_view = getattr(agent, "needs_view", False)

    def reset(self, seed=None):
        self.agent.reset(seed=seed)

    def act(self, obs, view=None):
        action = self.agent.act(obs, view)
        legal = tuple(int(a) for a in np.flatnonzero(obs["action_mask"]))
        self.log.append((self.seat, legal, int(action)))
        return action


def _replay_to(env_id, options, agents, seed, step):
    """The env of ``agents``' game on ``seed`` (seeded as play_game seeds them), stopped
    before decision ``step``."""
    env = make(env_id, **options)
    players = {s: make_agent(env_id, a) for s, a in agents.items()}
    env.reset(seed=seed)
    for i, s in enumerate(("away", "home")):
        players[s].reset(seed=2 * seed + i)
    views = {s: getattr(a, "needs_view", False) for s, a in players.items()}
    while env.unwrapped.decision_count < step:
        agent = env.agent_selection
        obs = env.observe(agent)
        env.step(players[agent].act(obs, env.unwrapped.view(agent) if views[agent] else None))
    return env


# -- the game analysed is the game played ---------------------------------------------------------
@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda i: CASES[i][0])
def test_the_game_analysed_is_the_game_play_game_plays(case):
    env_id, options, away, home = CASES[case]
    game = _game(case)
    played = play_game(make(env_id, **options), {"away": make_agent(env_id, away),
                                                 "home": make_agent(env_id, home)}, SEED)
    assert game.score == played.score and game.winner == played.winner
    assert game.box_score == played.box_score and game.box_score
    assert game.decisions == sum(played.decisions.values())
    assert game.innings == played.innings


# -- the records ----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda i: CASES[i][0])
def test_every_decision_lists_its_legal_options_and_prices_the_choice(case):
    env_id, options, away, home = CASES[case]
    log: list = []
    agents = {s: Recorder(s, make_agent(env_id, name), log) for s, name in
              (("away", away), ("home", home))}
    game = analyse_game(env_id, options, agents, SEED, TINY)
    assert game.records == _game(case).records
    choices = [entry for entry in log if len(entry[1]) > 1]
    assert [(m.seat, m.action) for m in game.moves] == [(s, a) for s, _, a in choices]
    assert [m.record for m in game.moves] == game.records
    for seat in ("away", "home"):
        records = [r for r in game if r.seat == seat]
        played = [(legal, action) for s, legal, action in choices if s == seat]
        assert len(records) == len(played) > 0
        for record, (legal, action) in zip(records, played):
            assert tuple(o.action for o in record.options) == legal
            assert all(o.label for o in record.options)
            assert len({o.label for o in record.options}) == len(legal)
            assert record.chosen == action
            assert record.worlds == 2
            best = record.option(record.best)
            assert best.mean == max(o.mean for o in record.options)
            assert record.cost >= 0
            assert record.cost == pytest.approx(best.mean - record.option(record.chosen).mean,
                                                abs=1e-12)
            if record.option(record.chosen).mean == best.mean:
                assert record.best == record.chosen and record.cost == 0
                assert not record.beyond_noise
            assert record.win == record.option(record.chosen).mean
            assert not record.beyond_noise or record.cost > 2 * record.cost_se
    kinds = {r.kind for r in game}
    assert len(kinds) >= 2, kinds


def test_the_win_curve_ends_with_the_result_and_mirrors_the_seats():
    game = _game(0)
    curve = game.win_curve()
    assert len(curve) == len(game) + 1
    for (step, a, h), record in zip(curve, game):
        assert step == record.step and a + h == pytest.approx(1)
        assert (a if record.seat == "away" else h) == record.win
    end = curve[-1]
    assert end[0] == game.decisions
    assert end[1:] == ((1.0, 0.0) if game.winner == "away" else (0.0, 1.0))
    assert [m.step for m in game.moves] == sorted(m.step for m in game.moves)


def test_a_seat_analysed_alone_gets_the_same_records():
    """Each decision's search is seeded from its own position: analysing one seat gives that
    seat's records of the analysis of both; another search seed gives other estimates."""
    both, home_only = _game(1), _game(1, ("home",))
    assert home_only.records == [r for r in both if r.seat == "home"]
    assert [m.record is not None for m in home_only.moves] == [m.seat == "home" for m in both.moves]
    env_id, options, away, home = CASES[1]
    differs = []
    for record in home_only.records[:4]:
        env = _replay_to(env_id, options, {"away": away, "home": home}, SEED, record.step)
        same = analyse_position(env, TINY, 0, SEED, record.step, record.chosen)
        other = analyse_position(env, TINY, 1, SEED, record.step, record.chosen)
        assert same == record
        differs.append(other.options != record.options)
    # another seed, other worlds: some estimate moves (a decided position gives 1 or 0 whatever
    # the worlds, so not every one need)
    assert any(differs)


# -- the analysis reads the view, never the live game ----------------------------------------------
@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda i: CASES[i][0])
def test_a_twin_game_hiding_other_cards_and_dice_gets_the_same_record(case):
    """At analysed decisions, the live game is replaced by another draw of what the deciding
    manager's view hides (``sample_state``): the same view, another game underneath. The
    record is the same, and so is the search of the view alone with the decision's seed."""
    env_id, options, away, home = CASES[case]
    agents = {"away": away, "home": home}
    seed = SEED
    game = _game(case)
    sample = __import__(managers(env_id).search.sample, fromlist=["sample_state"])
    rng = random.Random(0)
    picked = rng.sample(game.records, 3)
    for record in picked:
        env = _replay_to(env_id, options, agents, seed, record.step)
        view = env.unwrapped.view(record.seat)
        assert env.unwrapped.state_.pending.actor == ("away", "home").index(record.seat)
        twin = make(env_id, **options)
        twin.reset(seed=seed + 1000)
        hidden = sample.sample_state(view, random.Random(record.step), env.unwrapped.public_setup())
        twin.unwrapped.restore(hidden)
        assert twin.unwrapped.view(record.seat) == view
        assert helpers.dumps(twin.unwrapped.state_) != helpers.dumps(env.unwrapped.state_)
        again = analyse_position(twin, TINY, search_seed=0, game_seed=seed, step=record.step,
                                 chosen=record.chosen)
        assert again == record
        # the estimates of a search told the view and the set-up, nothing else
        search = make_agent(env_id, TINY)
        search.observe_setup(env.unwrapped.public_setup())
        search.reset(decision_seed(0, seed, record.step))
        alone = search.evaluate(view, race=False)
        assert {a: (e.mean, e.se) for a, e in alone.estimates.items()} == \
            {o.action: (o.mean, o.se) for o in record.options}


# -- a saved game ---------------------------------------------------------------------------------
def test_a_saved_game_is_analysed_at_its_pending_decision(tmp_path):
    env_id, options, away, home = CASES[0]
    env = _replay_to(env_id, options, {"away": away, "home": home}, 4, 7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(env.unwrapped.save().to_dict()), encoding="utf-8")
    live = analyse_position(env, TINY, search_seed=2, game_seed=0, step=0)
    assert live.seat == ("away", "home")[env.unwrapped.state_.pending.actor]
    assert live.cost == 0 and live.chosen == live.best
    for saved in (path, str(path), json.loads(path.read_text()), env.unwrapped.save()):
        assert analyse_saved(env_id, options, saved, TINY, search_seed=2) == live
    helpers.step_random(env, random.Random(1))
    with pytest.raises(ValueError, match="the game is over"):
        analyse_saved(env_id, options, env.unwrapped.save(), TINY)


# -- a decision report ----------------------------------------------------------------------------
def test_a_seeded_decision_report_is_the_same_on_one_worker_and_two():
    """The report's games are the pair play_pair plays (seeded by role), the manager's
    decisions in each analysed; one worker or two give the same report."""
    env_id, options, manager, opponent = CASES[0]
    one = decision_report(env_id, options, manager, opponent, 2, seed=1, search=TINY, workers=1)
    two = decision_report(env_id, options, manager, opponent, 2, seed=1, search=TINY, workers=2)
    assert one.to_dict() == two.to_dict()
    games = [analyse_game(env_id, options, {"away": manager, "home": opponent}, 1, TINY,
                          ("away",), agent_seeds={"away": 4, "home": 5}),
             analyse_game(env_id, options, {"away": opponent, "home": manager}, 1, TINY,
                          ("home",), agent_seeds={"away": 5, "home": 4})]
    pair = play_pair(make(env_id, **options), make_agent(env_id, manager),
                     make_agent(env_id, opponent), 1)
    assert ((*games[0].score, games[0].winner or ""), (*games[1].score, games[1].winner or "")) \
        == (pair.a_away, pair.a_home)
    assert one.wins == pair.a_wins
    records = [r for g in games for r in g]
    assert one.decisions == len(records) == sum(k.decisions for k in one.kinds)
    assert one.per_game == pytest.approx(sum(r.cost for r in records) / 2)
    assert one.beyond_noise == sum(r.beyond_noise for r in records)
    assert [k.per_game for k in one.kinds] == sorted((k.per_game for k in one.kinds), reverse=True)
    for k in one.kinds:
        costs = [r.cost for r in records if r.kind == k.kind]
        assert k.decisions == len(costs) and k.mean_cost == pytest.approx(np.mean(costs))
        assert k.low <= k.mean_cost <= k.high
    text = analysis.report_text(one)
    assert text.splitlines()[5].startswith(one.kinds[0].kind)
    with pytest.raises(ValueError, match="even"):
        decision_report(env_id, options, manager, opponent, 3, search=TINY)


# -- the held-out cost ----------------------------------------------------------------------------
def test_the_held_out_cost_prices_the_choice_again_on_fresh_worlds():
    """With ``held_out`` every record is the one analysed without it, plus the choice priced
    on a second set of worlds: 0 where the choice was the best; elsewhere the paired
    difference of the best-named option and the choice over worlds drawn from
    :func:`held_out_seed` of the decision's seed, which may be below 0."""
    env_id, options, away, home = CASES[0]
    plain = analyse_game(env_id, options, {"away": away, "home": home}, SEED, TINY, ("away",))
    held = analyse_game(env_id, options, {"away": away, "home": home}, SEED, TINY, ("away",),
                        held_out=True)
    assert all(r.held_out is None for r in plain)
    priced = 0
    for p, h in zip(plain, held, strict=True):
        assert dataclasses.replace(h, held_out=None, held_out_se=None) == p
        if h.chosen == h.best:
            assert (h.held_out, h.held_out_se) == (0.0, 0.0)
            continue
        priced += 1
        env = _replay_to(env_id, options, {"away": away, "home": home}, SEED, h.step)
        view = env.unwrapped.view("away")
        searcher = analysis._searcher(env_id, TINY, env)
        searcher.reset(analysis.held_out_seed(decision_seed(0, SEED, h.step)))
        again = searcher.evaluate(view, race=False)
        d = np.subtract(again.values[h.best], again.values[h.chosen])
        assert h.held_out == pytest.approx(d.mean())
    assert priced > 0


def test_the_held_out_cost_is_free_of_the_winners_curse():
    """The heuristic against itself in Grand Slam: most of its choices are within noise of
    the search's best, so their in-sample cost is the winner's curse (the highest of noisy
    estimates). Priced again on fresh worlds, the same choices cost less, and some come out
    below 0: the sum of what they gave away on the same worlds is well above the held-out
    one."""
    records = [r for seed in (1, 2) for r in analyse_game(
        "grand_slam_v0", {}, {"away": "heuristic", "home": "heuristic"}, seed,
        "search:sims=4,batch=4", held_out=True) if r.chosen != r.best]
    assert len(records) > 20
    assert any(r.held_out < 0 for r in records)
    assert sum(r.held_out for r in records) < 0.6 * sum(r.cost for r in records)


def test_a_held_out_report_adds_the_held_out_cost_by_kind_and_in_all():
    env_id, options, manager, opponent = CASES[0]
    plain = decision_report(env_id, options, manager, opponent, 2, seed=1, search=TINY)
    held = decision_report(env_id, options, manager, opponent, 2, seed=1, search=TINY,
                           held_out=True)
    assert plain.held_out is None and all(k.held_out is None for k in plain.kinds)
    strip = dict(held_out=None, held_out_low=None, held_out_high=None, held_out_beyond=None,
                 held_out_beyond_low=None, held_out_beyond_high=None)
    assert dataclasses.replace(held, kinds=[dataclasses.replace(k, **strip) for k in held.kinds],
                               **strip).to_dict() == plain.to_dict()
    games = [analyse_game(env_id, options, {"away": manager, "home": opponent}, 1, TINY,
                          ("away",), agent_seeds={"away": 4, "home": 5}, held_out=True),
             analyse_game(env_id, options, {"away": opponent, "home": manager}, 1, TINY,
                          ("home",), agent_seeds={"away": 5, "home": 4}, held_out=True)]
    records = [r for g in games for r in g]
    assert held.held_out == pytest.approx(sum(r.held_out for r in records) / 2)
    assert held.held_out_low <= held.held_out <= held.held_out_high
    for k in held.kinds:
        assert k.held_out == pytest.approx(sum(r.held_out for r in records if r.kind == k.kind) / 2)
    assert sum(k.held_out for k in held.kinds) == pytest.approx(held.held_out)
    # the choices beyond noise alone (the ones the search would overrule), priced held out
    beyond = [r for r in records if r.beyond_noise]
    assert beyond and len(beyond) < len([r for r in records if r.chosen != r.best])
    assert held.held_out_beyond == pytest.approx(sum(r.held_out for r in beyond) / 2)
    assert held.held_out_beyond_low <= held.held_out_beyond <= held.held_out_beyond_high
    for k in held.kinds:
        assert k.held_out_beyond == pytest.approx(sum(r.held_out for r in beyond if r.kind == k.kind) / 2)
    text = analysis.report_text(held)
    assert "held out" in text.splitlines()[1 + 1] and "held out/game" in text
    assert (f"the {held.beyond_noise} choices beyond noise alone, those the search would overrule: "
            f"{100 * held.held_out_beyond:.1f}") in text.splitlines()[2]
    assert "beyond noise, held out/game" in text
    assert "held out" not in analysis.report_text(plain)


# -- output ---------------------------------------------------------------------------------------
def test_the_text_the_plot_and_the_json(tmp_path, capsys):
    """``dugout analyze`` end to end: the tables printed, the plot and the JSON written."""
    from dugout.cli.main import run_command
    env_id, options, away, home = CASES[0]
    plot, out = tmp_path / "plots" / "win.png", tmp_path / "game.json"
    game = run_command("analyze", ["--env", env_id, "--seed", str(SEED), "--seat", "away",
                                   "--agents", away, home, "--search", TINY, "--top", "3",
                                   "--plot", str(plot), "--json", str(out)])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(out.read_text())
    assert len(data["records"]) == len(game) and data["score"] == list(game.score)
    assert data["win_curve"][-1][1:] in ([1, 0], [0, 1])
    printed = capsys.readouterr().out
    assert "The costliest decisions" in printed and "Moves:" in printed
    assert printed.count("\n") > len(game.moves)
    assert game.records == [r for r in _game(0) if r.seat == "away"]
    costly = game.costliest(3)
    assert [r.cost for r in costly] == sorted((r.cost for r in game), reverse=True)[:3]


def test_a_missing_matplotlib_is_one_line_saying_how_to_get_it(tmp_path, monkeypatch):
    game = _game(0)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(analysis.PlotError, match=r"pip install 'dugout-baseball\[plots\]'") as error:
        analysis.plot_win_probability(game, tmp_path / "win.png")
    assert "\n" not in str(error.value)
    assert not (tmp_path / "win.png").exists()


def test_bad_arguments_are_refused_by_name():
    env_id, options, away, home = CASES[0]
    agents = {"away": away, "home": home}
    with pytest.raises(ValueError, match="search manager"):
        analyse_game(env_id, options, agents, 0, "heuristic")
    with pytest.raises(ValueError, match="seats"):
        analyse_game(env_id, options, agents, 0, TINY, ("left",))
    with pytest.raises(ValueError, match="keyed 'away' and 'home'"):
        analyse_game(env_id, options, {"away": away}, 0, TINY)
    env = make(env_id, **options)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        analyse_position(env, TINY, chosen=99)
