"""The analysis of Manager Challenge campaigns with its search manager
(``dugout.evaluate.challenge_analysis``, ``dugout analyze --env manager_challenge_v0``).

* the campaign analysed is the campaign ``play_campaign`` (so ``dugout challenge``) plays
  from the same seed: the Manager Points, the games, the band, every decision;
* every analysed decision lists exactly its legal options with their labels, in Manager
  Points of the game in progress; the cost is the best option's mean minus the choice's;
* the analysis reads the view and the public set-up, never the live campaign: a twin
  campaign that shows the same view but hides another deck order, pitcher pile and dice
  gets the same record, and so does a search told nothing but the view, the set-up and the
  decision's seed;
* a saved campaign's pending decision is analysed from its file as from the live campaign;
* a report over campaigns sums the campaigns' records, the same on one worker and two;
* the text, the plot and the JSON are written.

Campaigns are long (some 300 decisions), so a search of two worlds an option and campaigns
analysed once and shared between tests keep the quick tier to under a minute.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random

import numpy as np
import pytest

from dugout.agents import make_agent
from dugout.agents.manager_challenge import play_campaign
from dugout.envs import make
from dugout.envs.bottom_ninth import challenge_sample
from dugout.evaluate import analysis
from dugout.evaluate.analysis import decision_seed
from dugout.evaluate.challenge_analysis import (analyse_campaign, analyse_saved_campaign,
                                                campaign_report, campaign_text, plot_expected_points)

import helpers

ENV_ID = "manager_challenge_v0"
TINY = "search:sims=2,batch=2"
SEED = 3


@functools.lru_cache(maxsize=None)
def _campaign(seed: int = SEED, held_out: bool = False):
    """The heuristic's campaign from ``seed``, analysed once for every test that reads it."""
    return analyse_campaign({}, "heuristic", seed, TINY, held_out=held_out)


class Recorder:
    """The heuristic, recording at each decision the legal actions of the mask, the action
    and the game of the campaign (1-6) it was in."""

    def __init__(self, log: list, env):
        self.agent, self.log, self.env = make_agent(ENV_ID, "heuristic"), log, env
        self.needs_view = True

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, obs, view=None):
        action = self.agent.act(obs, view)
        legal = tuple(int(a) for a in np.flatnonzero(obs["action_mask"]))
        self.log.append((legal, int(action), view.game_no + 1))
        return action


def _replay_to(seed: int, step: int):
    """The env of the heuristic's campaign from ``seed``, stopped before decision ``step``."""
    env = make(ENV_ID)
    heuristic = make_agent(ENV_ID, "heuristic")
    env.reset(seed=seed)
    heuristic.reset(seed)
    while env.unwrapped.decision_count < step:
        env.step(heuristic.decide(env.unwrapped.view()))
    return env


# -- the campaign analysed is the campaign played ------------------------------------------------
def test_the_campaign_analysed_is_the_campaign_play_campaign_plays():
    c = _campaign()
    played = play_campaign(make(ENV_ID), make_agent(ENV_ID, "heuristic"), SEED)
    assert (c.mp, c.wins, c.band, c.results, c.decisions) == \
        (played["mp"], played["wins"], played["band"], played["results"], played["decisions"])
    # each game's points add up to the campaign's (a 6-0 campaign adds the sweep's 12)
    assert sum(c.game_mp) + (12 if c.wins == 6 else 0) == c.mp
    assert all(mp == 0 for mp, won in zip(c.game_mp, c.results) if not won)


def test_every_decision_lists_its_legal_options_and_prices_the_choice():
    log: list = []
    env = make(ENV_ID)
    c = analyse_campaign({}, Recorder(log, env), SEED, TINY)
    assert c.records == _campaign().records
    choices = [entry for entry in log if len(entry[0]) > 1]
    assert [(m.action, m.game) for m in c.moves] == [(a, g) for _, a, g in choices]
    assert [m.record for m in c.moves] == c.records
    assert [m.game for m in c.moves] == sorted(m.game for m in c.moves)
    assert {m.game for m in c.moves} == set(range(1, len(c.results) + 1))
    kinds = set()
    for record, (legal, action, _) in zip(c.records, choices):
        kinds.add(record.kind)
        assert record.seat == "home" and record.worlds == 2
        assert tuple(o.action for o in record.options) == legal
        assert all(o.label for o in record.options)
        assert len({o.label for o in record.options}) == len(legal)
        assert record.chosen == action
        best = record.option(record.best)
        assert best.mean == max(o.mean for o in record.options)
        assert record.cost == pytest.approx(best.mean - record.option(record.chosen).mean, abs=1e-12)
        assert record.cost >= 0
        assert not record.beyond_noise or record.cost > 2 * record.cost_se
        # Manager Points of one game: none below 0, none above what a game can pay
        assert all(0 <= o.mean <= 60 for o in record.options)
    assert {"select_batter", "guess"} <= kinds
    # some option is worth more than 1 (points, not a chance of winning)
    assert max(o.mean for r in c for o in r.options) > 1


# -- the analysis reads the view, never the live campaign ------------------------------------------
def test_a_twin_campaign_hiding_other_cards_and_dice_gets_the_same_record():
    """At analysed decisions, the live campaign is replaced by another draw of what the
    manager's view hides (``sample_state``): the same view, another campaign underneath. The
    record is the same, and so is the search of the view alone with the decision's seed."""
    c = _campaign()
    rng = random.Random(0)
    for record in rng.sample(c.records, 3):
        env = _replay_to(SEED, record.step)
        view = env.unwrapped.view()
        setup = env.unwrapped.public_setup()
        twin = make(ENV_ID)
        twin.reset(seed=SEED + 1000)
        hidden = challenge_sample.sample_state(view, random.Random(record.step), setup)
        twin.unwrapped.restore(hidden)
        assert twin.unwrapped.view() == view
        assert helpers.dumps(twin.unwrapped.campaign) != helpers.dumps(env.unwrapped.campaign)
        again = analyse_saved_campaign({}, twin.unwrapped.save(), TINY, 0, SEED, record.step,
                                       record.chosen)
        assert again == record
        search = make_agent(ENV_ID, TINY)
        search.observe_setup(setup)
        search.reset(decision_seed(0, SEED, record.step))
        alone = search.evaluate(view, race=False)
        assert {a: (e.mean, e.se) for a, e in alone.estimates.items()} == \
            {o.action: (o.mean, o.se) for o in record.options}


# -- a saved campaign -----------------------------------------------------------------------------
def test_a_saved_campaign_is_analysed_at_its_pending_decision(tmp_path):
    c = _campaign()
    record = c.records[len(c.records) // 2]
    env = _replay_to(SEED, record.step)
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(env.unwrapped.save().to_dict()), encoding="utf-8")
    for saved in (path, str(path), json.loads(path.read_text()), env.unwrapped.save()):
        assert analyse_saved_campaign({}, saved, TINY, 0, SEED, record.step, record.chosen) == record
    best = analyse_saved_campaign({}, path, TINY, 0, SEED, record.step)
    assert best.chosen == best.best and best.cost == 0
    assert best.options == record.options
    text = analysis.position_text(best, unit="mp")
    assert "game MP" in text and "%" not in text
    rng = random.Random(1)
    while not env.unwrapped.campaign.over:
        env.step(rng.choice(env.unwrapped.view().legal))
    with pytest.raises(ValueError, match="the campaign is over"):
        analyse_saved_campaign({}, env.unwrapped.save(), TINY)
    with pytest.raises(ValueError, match="not legal"):
        analyse_saved_campaign({}, path, TINY, chosen=999)
    with pytest.raises(ValueError, match="a saved campaign is a JSON object"):
        analyse_saved_campaign({}, [1, 2], TINY)


# -- a report over campaigns ----------------------------------------------------------------------
def test_a_report_sums_its_campaigns_records_the_same_on_two_workers():
    """The report's campaigns are those analysed one by one (in this process), played on two
    workers: the same records, summed by kind and in all, in Manager Points."""
    report = campaign_report({}, "heuristic", 2, seed=SEED, search=TINY, workers=2)
    campaigns = [_campaign(SEED), _campaign(SEED + 1)]
    records = [r for c in campaigns for r in c]
    assert report.unit == "mp" and report.games == 2 and report.opponent == ""
    assert report.decisions == len(records) == sum(k.decisions for k in report.kinds)
    assert report.per_game == pytest.approx(sum(r.cost for r in records) / 2)
    assert report.beyond_noise == sum(r.beyond_noise for r in records)
    assert report.wins == sum(c.wins for c in campaigns)
    assert report.mp == pytest.approx(sum(c.mp for c in campaigns) / 2)
    assert [k.per_game for k in report.kinds] == sorted((k.per_game for k in report.kinds),
                                                        reverse=True)
    for k in report.kinds:
        costs = [r.cost for r in records if r.kind == k.kind]
        assert k.decisions == len(costs) and k.mean_cost == pytest.approx(np.mean(costs))
    text = analysis.report_text(report)
    lines = text.splitlines()
    assert "2 campaigns from seed 3" in lines[0] and "Manager Points a campaign" in lines[0]
    assert "Manager Points of their games a campaign" in lines[1]
    assert "cost/campaign" in text and "%" not in lines[1].replace("95%", "")
    assert lines[5].startswith(report.kinds[0].kind)
    with pytest.raises(ValueError, match="campaigns must be a positive whole number"):
        campaign_report({}, "heuristic", 0, search=TINY)


def test_a_held_out_campaign_prices_the_choices_again():
    """With ``held_out`` every record is the one analysed without it, plus the cost on fresh
    worlds: 0 where the choice was the best, elsewhere the paired difference over the
    decision's held-out worlds."""
    plain, held = _campaign(), _campaign(held_out=True)
    priced = 0
    for p, h in zip(plain, held, strict=True):
        assert dataclasses.replace(h, held_out=None, held_out_se=None) == p
        if h.chosen == h.best:
            assert (h.held_out, h.held_out_se) == (0.0, 0.0)
        else:
            priced += 1
    assert priced > 0
    record = next(h for h in held if h.chosen != h.best)
    env = _replay_to(SEED, record.step)
    search = make_agent(ENV_ID, TINY)
    search.observe_setup(env.unwrapped.public_setup())
    search.reset(analysis.held_out_seed(decision_seed(0, SEED, record.step)))
    again = search.evaluate(env.unwrapped.view(), race=False)
    assert record.held_out == pytest.approx(
        np.mean(np.subtract(again.values[record.best], again.values[record.chosen])))


# -- output ---------------------------------------------------------------------------------------
def test_the_text_the_plot_and_the_json(tmp_path, capsys):
    """``dugout analyze --env manager_challenge_v0`` end to end: the tables printed, the plot
    and the JSON written, the records those of the analysis in this process."""
    from dugout.cli.main import run_command
    plot, out = tmp_path / "plots" / "mp.png", tmp_path / "campaign.json"
    c = run_command("analyze", ["--env", ENV_ID, "--agents", "heuristic", "--seed", str(SEED),
                                "--search", TINY, "--top", "3", "--plot", str(plot),
                                "--json", str(out)])
    assert c.records == _campaign().records
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(out.read_text())
    assert data["mp"] == c.mp and data["game_mp"] == c.game_mp
    assert [r["game"] for r in data["records"]] == [m.game for m in c.moves]
    assert [r["step"] for r in data["records"]] == [r.step for r in c]
    printed = capsys.readouterr().out
    assert f"{c.mp} Manager Points" in printed
    assert "The costliest decisions" in printed and "Moves:" in printed
    assert printed.count("\n") > len(c.moves)
    costly = c.costliest(3)
    assert [m.record.cost for m in costly] == sorted((r.cost for r in c), reverse=True)[:3]
    text = campaign_text(c, 3)
    assert text.splitlines()[0] in printed


def test_a_missing_matplotlib_is_one_line_saying_how_to_get_it(tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(analysis.PlotError, match=r"pip install 'dugout-baseball\[plots\]'") as error:
        plot_expected_points(_campaign(), tmp_path / "mp.png")
    assert "\n" not in str(error.value)
    assert not (tmp_path / "mp.png").exists()


def test_a_bad_search_is_refused_by_name():
    with pytest.raises(ValueError, match="search manager"):
        analyse_campaign({}, "heuristic", 0, "heuristic")
    with pytest.raises(ValueError, match="horizon"):
        analyse_campaign({}, "heuristic", 0, "search:horizon=2")
