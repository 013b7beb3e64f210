"""Move-by-move analysis of a Manager Challenge campaign with its search manager, and where
a manager loses Manager Points most: :mod:`dugout.evaluate.analysis` for the solo game.

    from dugout.evaluate.analysis import report_text
    from dugout.evaluate.challenge_analysis import analyse_campaign, campaign_report, campaign_text
    campaign = analyse_campaign({}, "heuristic", seed=3, search="search:sims=8")
    print(campaign_text(campaign))          # the costliest decisions first, then the moves
    report = campaign_report({}, "heuristic", campaigns=20)
    print(report_text(report))              # where the manager loses most, by decision kind

**One campaign** (:func:`analyse_campaign`). The manager plays the campaign from ``seed``
exactly as :func:`dugout.agents.manager_challenge.play_campaign` plays it (so it is the
campaign ``dugout challenge`` plays from that seed). At each decision with more than one
legal action, the challenge's search manager
(:class:`~dugout.agents.challenge_search.ChallengeSearchAgent`) evaluates every option
with its full budget (``race=False``), in campaigns rebuilt from the manager's view and the
campaign's public set-up alone (the Pitcher deck's order, the pitcher pile and the dice
drawn afresh; never the live campaign), seeded afresh at each decision
(:func:`~dugout.evaluate.analysis.decision_seed` of the search seed, the campaign's seed and
the decision's index). A record is a :class:`~dugout.evaluate.analysis.DecisionRecord`, as
in a two-manager game, but in **Manager Points**: an option's ``mean`` is the Manager Points
the game in progress is expected to earn after it (as the search scores a rollout, counted
from the game's start: what the game earned before the decision is the same for every
option), ``cost`` the best option's minus the choice's, ``beyond_noise`` a cost above
:data:`~dugout.evaluate.analysis.NOISE_Z` paired standard errors, ``held_out`` the cost
priced again on fresh worlds (free of the winner's curse). The seat is always ``home``
(the manager bats in the bottom of the 9th); a :class:`CampaignMove` also says which of the
six games the decision was in.

Why the game's points, not the campaign's: see :mod:`dugout.agents.challenge_search` (a
decision changes later games only through the relief pile and the sweep's bonus; rolling
each option through the rest of the campaign would drown the differences in five games of
noise). The estimates are those of the rollout manager (the heuristic by default) playing
on: a cost says "the best option was worth this many more Manager Points if the game is
then played as the rollout manager plays it".

**A saved position** (:func:`analyse_saved_campaign`): a saved campaign's pending decision
(``env.unwrapped.save()``, or its JSON, ``save().to_dict()``), one record.

**Where a manager loses most** (:func:`campaign_report`): every decision of ``campaigns``
campaigns (seeds ``seed``, ``seed + 1``, ..., as ``dugout challenge`` plays them) analysed;
for each decision kind the mean cost per decision, how often the choice was beyond noise
worse than the best, and the cost per campaign with its 95% interval (over campaigns),
ranked by cost per campaign; with ``held_out``, the held-out cost too. It is a
:class:`~dugout.evaluate.analysis.DecisionReport` with ``unit="mp"`` (``games`` counts
campaigns, ``wins`` the games won, ``mp`` the manager's Manager Points a campaign), printed
by :func:`~dugout.evaluate.analysis.report_text`. The campaigns are played on a backend;
each is seeded on its own, so the report is the same for any number of workers.

**Output.** :func:`campaign_text`, the records as JSON (``to_dict``) and
:func:`plot_expected_points` (each game's expected Manager Points after every choice). The
command line is ``dugout analyze --env manager_challenge_v0 --agents MANAGER``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..agents import make_agent
from ..agents.play import tell_setup
from ..envs import make
from .analysis import (DEFAULT_SEARCH, NOISE_Z, DecisionRecord, DecisionReport, Move, Records,
                       _amount, _mark, _searcher, _table, choice_to_price, decision_seed,
                       evaluate_decision, kind_costs, load_plt, play_tasks, save_plot)

__all__ = ["CampaignMove", "CampaignAnalysis", "analyse_campaign", "analyse_saved_campaign",
           "pending_campaign",
           "campaign_report", "campaign_text", "plot_expected_points", "ENV_ID", "SEAT"]

ENV_ID = "manager_challenge_v0"
#: The manager's seat in every Manager Challenge game: the home team, batting in the bottom
#: of the 9th.
SEAT = "home"


@dataclass(frozen=True)
class CampaignMove(Move):
    """A decision with more than one legal action, as played (a :class:`~dugout.evaluate.
    analysis.Move` of the home seat), and the campaign's ``game`` (1-6) it was in."""
    game: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "game": self.game}


@dataclass
class CampaignAnalysis(Records):
    """One campaign analysed: its :class:`~dugout.evaluate.analysis.DecisionRecord` (iterate,
    index or ``len()`` it; in Manager Points), every decision with a choice (``moves``), and
    the campaign's result: Manager Points, games won, the band and each game's result."""
    env_kwargs: dict[str, Any]
    agent: str
    seed: int
    search: str
    search_seed: int
    records: list[DecisionRecord]
    moves: list[CampaignMove]
    mp: int
    wins: int
    band: str
    results: list[int]            # 1 won, 0 lost, for each game played
    game_mp: list[int]            # the Manager Points each game earned (a sweep's 12 not in them)
    decisions: int                # every decision the campaign made, forced ones included

    env_id = ENV_ID

    def costliest(self, n: int = 10) -> list[CampaignMove]:
        """The ``n`` analysed moves with the highest cost (ties in campaign order)."""
        analysed = [m for m in self.moves if m.record is not None]
        return sorted(analysed, key=lambda m: (-m.record.cost, m.step))[:n]

    def to_dict(self) -> dict[str, Any]:
        from .analysis import _finite
        return _finite({
            "env": ENV_ID, "env_options": self.env_kwargs, "agent": self.agent, "seed": self.seed,
            "search": self.search, "search_seed": self.search_seed, "mp": self.mp,
            "wins": self.wins, "band": self.band, "results": list(self.results),
            "game_mp": list(self.game_mp), "decisions": self.decisions,
            "records": [dict(r.to_dict(), game=m.game) for m in self.moves
                        if (r := m.record) is not None],
            "moves": [m.to_dict() for m in self.moves]})


def _manager(agent: Any):
    """A manager object from a reference (``heuristic``, ``search:...``, ``ppo:PATH``, a
    checkpoint folder) or the object itself; its name."""
    if not isinstance(agent, str):
        return agent, getattr(agent, "name", type(agent).__name__)
    from .manager_challenge import agent_ref
    return make_agent(ENV_ID, agent_ref(agent)), agent


def analyse_campaign(env_kwargs: Mapping[str, Any] | None, agent: Any, seed: int,
                     search: str = DEFAULT_SEARCH, search_seed: int = 0,
                     agent_seed: int | None = None,
                     progress: Callable[[DecisionRecord], None] | None = None,
                     held_out: bool = False) -> CampaignAnalysis:
    """Replay the campaign ``agent`` (a reference or a manager object) plays from ``seed``
    under ``env_kwargs``, the manager reset with ``agent_seed`` (default ``seed``, as
    :func:`~dugout.agents.manager_challenge.play_campaign` resets it), and analyse every
    decision with more than one legal action with the search ``search`` (see the module
    docstring; ``held_out``: each cost priced again on fresh worlds). ``progress(record)``
    is called after each analysed decision."""
    env_kwargs = dict(env_kwargs or {})
    env = make(ENV_ID, **env_kwargs)
    manager, name = _manager(agent)
    # -- as play_campaign: reset, seed the manager, hand over the public set-up
    obs, info = env.reset(seed=seed)
    manager.reset(seed if agent_seed is None else agent_seed)
    tell_setup(env, [manager])
    searcher = _searcher(ENV_ID, search, env)
    needs_view = getattr(manager, "needs_view", False)
    unwrapped = env.unwrapped
    records: list[DecisionRecord] = []
    moves: list[CampaignMove] = []
    while True:
        view = unwrapped.view()
        action = manager.act({"observation": obs, "action_mask": info["action_mask"]},
                             view if needs_view else None)
        if len(view.legal) > 1:
            step = unwrapped.decision_count
            kind, labels = info["decision"]["kind"], info["decision"]["labels"]
            record = evaluate_decision(searcher, view, labels, int(action),
                                       decision_seed(search_seed, seed, step), step, SEAT, kind,
                                       held_out)
            records.append(record)
            if progress is not None:
                progress(record)
            moves.append(CampaignMove(step, SEAT, kind, record.inning, record.half, record.outs,
                                      record.score, int(action), labels[int(action)], record,
                                      game=view.game_no + 1))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    if info["illegal_action"]:
        raise RuntimeError(f"campaign {seed}: {info['illegal_action']}")
    played = [r for r in info["results"] if r >= 0]
    game_mp = [int(p) for p in unwrapped.campaign.points]     # the sweep's 12 is the campaign's
    return CampaignAnalysis(env_kwargs, name, int(seed), str(search), int(search_seed), records,
                            moves, int(info["mp"]), int(info["wins"]), info["band"], played,
                            game_mp, unwrapped.decision_count)


def pending_campaign(env_kwargs: Mapping[str, Any] | None, saved: Any):
    """A Manager Challenge env built with ``env_kwargs`` and restored to ``saved``
    (``env.unwrapped.save()``, its ``to_dict()`` data, or a path to that data as a JSON
    file), whose campaign waits on a decision with more than one legal action. A file that
    is not JSON, data that is not a saved campaign, a campaign that is over or a decision
    with one legal action raise ``ValueError`` (a ``DugoutError`` for a damaged save)
    naming what is wrong."""
    from ..envs.bottom_ninth.solo import Campaign
    from ..envs.core.datafile import read_json_file
    env = make(ENV_ID, **dict(env_kwargs or {}))
    env.reset(seed=0)
    if isinstance(saved, (str, Path)):
        saved = read_json_file(saved, "a saved campaign")
    if isinstance(saved, dict):
        saved = Campaign.from_dict(saved)
    elif not isinstance(saved, Campaign):
        raise ValueError(f"a saved campaign is a JSON object (env.unwrapped.save().to_dict()), "
                         f"got {type(saved).__name__}")
    env.unwrapped.restore(saved)
    view = env.unwrapped.view()
    if view.campaign_over or view.decision is None:
        raise ValueError("the campaign is over: there is no decision to analyse")
    if len(view.legal) < 2:
        raise ValueError(f"the pending {view.decision!r} decision has one legal action: nothing "
                         f"to analyse")
    return env


def analyse_saved_campaign(env_kwargs: Mapping[str, Any] | None, saved: Any,
                           search: str = DEFAULT_SEARCH, search_seed: int = 0,
                           campaign_seed: int = 0, step: int = 0,
                           chosen: int | None = None) -> DecisionRecord:
    """Analyse a saved campaign's pending decision (``saved``: see :func:`pending_campaign`,
    whose errors it raises), played under ``env_kwargs``; ``chosen`` the action to price
    (default the search's best, cost 0). The search is seeded with
    :func:`~dugout.evaluate.analysis.decision_seed` (``search_seed``, ``campaign_seed``,
    ``step``: a position of :func:`analyse_campaign`'s campaign gets its record again with
    that campaign's seed and the decision's index)."""
    env = pending_campaign(env_kwargs, saved)
    view = env.unwrapped.view()
    searcher = _searcher(ENV_ID, search, env)
    seed = decision_seed(search_seed, campaign_seed, step)
    chosen = choice_to_price(searcher, view, seed, chosen)
    labels = [""] * (max(view.legal) + 1)            # the view's labels of the legal actions
    for a, text in zip(view.legal, view.labels):
        labels[a] = text
    return evaluate_decision(searcher, view, labels, chosen, seed, step, SEAT, view.decision)


# -- many campaigns -------------------------------------------------------------------------------
def _report_campaign(env_kwargs: dict[str, Any], manager: str, seed: int, search: str,
                     search_seed: int, held_out: bool
                     ) -> tuple[list[tuple[str, float, bool, float]], int, int]:
    """One campaign of a report (a backend's task): its analysed decisions as (kind, cost,
    beyond noise, held-out cost: 0 when not priced), the games won and the Manager Points."""
    c = analyse_campaign(env_kwargs, manager, seed, search, search_seed, held_out=held_out)
    return [(r.kind, r.cost, r.beyond_noise, r.held_out or 0.0) for r in c.records], c.wins, c.mp


def campaign_report(env_kwargs: Mapping[str, Any] | None, manager: str, campaigns: int,
                    seed: int = 0, search: str = DEFAULT_SEARCH, search_seed: int = 0,
                    workers: int | None = None, backend: Any = None,
                    progress: Callable[[int], None] | None = None,
                    held_out: bool = False) -> DecisionReport:
    """``manager``'s decisions over ``campaigns`` campaigns from seeds ``seed``, ``seed + 1``,
    ..., each analysed by ``search``: the cost in Manager Points by decision kind, ranked by
    cost per campaign (see the module docstring), on ``backend`` or ``workers`` processes;
    ``progress(campaigns_done)`` as each is analysed; ``held_out`` prices each choice again
    on fresh worlds (twice the search)."""
    if not isinstance(campaigns, int) or isinstance(campaigns, bool) or campaigns < 1:
        raise ValueError(f"campaigns must be a positive whole number, got {campaigns!r}")
    env_kwargs = dict(env_kwargs or {})
    tasks = [(env_kwargs, str(manager), s, search, search_seed, held_out)
             for s in range(seed, seed + campaigns)]
    results = play_tasks(_report_campaign, tasks, lambda i: f"campaign {tasks[i][2]}", backend,
                         workers, progress)
    kinds, totals = kind_costs([decisions for decisions, _, _ in results], held_out)
    return DecisionReport(ENV_ID, env_kwargs, str(manager), "", campaigns, int(seed), str(search),
                          int(search_seed), kinds, *totals[:5],
                          float(sum(wins for _, wins, _ in results)), *totals[5:], unit="mp",
                          mp=sum(mp for *_, mp in results) / campaigns)


# -- text and plot --------------------------------------------------------------------------------
def _mp(x: float) -> str:
    return _amount(x, "mp")


def campaign_text(campaign: CampaignAnalysis, top: int = 10) -> str:
    """One analysed campaign as text: a header, the ``top`` costliest decisions (every
    option's expected Manager Points, the choice and the best), then the moves (each choice
    with the game's expected Manager Points after it and its cost, ``??`` beyond noise,
    ``?`` within)."""
    c = campaign
    games = ", ".join(f"{'WL'[r == 0]} {mp}" for r, mp in zip(c.results, c.game_mp))
    lines = [f"{ENV_ID}, seed {c.seed}: {c.agent}'s campaign, {c.mp} Manager Points, {c.wins} of "
             f"{len(c.results)} games won ({games}): {c.band.replace('_', ' ')}",
             f"{len(c.records)} decisions analysed by {c.search}, search seed {c.search_seed}; "
             f"MP = the game's expected Manager Points after the choice; cost = the best "
             f"option's minus the choice's; ?? = beyond {NOISE_Z:g} paired standard errors", ""]
    costly = [m for m in c.costliest(top) if m.record.cost > 0]
    lines.append(f"The costliest decisions ({sum(r.cost > 0 for r in c.records)} of "
                 f"{len(c.records)} cost anything):")
    if costly:
        rows = []
        for m in costly:
            r = m.record
            se = _mp(r.cost_se) if not math.isnan(r.cost_se) else "-"
            rows.append((str(r.step), str(m.game), r.situation(), r.kind, r.option(r.chosen).label,
                         _mp(r.win), r.option(r.best).label, _mp(r.option(r.best).mean),
                         f"{_mp(r.cost)} +- {se}", _mark(r)))
        lines.append(_table(("step", "game", "situation", "decision", "played", "MP", "best",
                             "best MP", "cost +- se", ""), rows))
        for m in costly[:3]:
            lines.append(f"  step {m.step}: " + "; ".join(
                f"{o.label} {_mp(o.mean)}" for o in sorted(m.record.options, key=lambda o: -o.mean)))
    lines += ["", "Moves:"]
    rows = [(str(m.step), str(m.game), m.situation(), m.kind, m.label,
             _mp(m.record.win) if m.record else "", _mp(m.record.cost) if m.record else "",
             _mark(m.record)) for m in c.moves]
    lines.append(_table(("step", "game", "situation", "decision", "played", "MP", "cost", ""), rows))
    return "\n".join(lines) + "\n"


def plot_expected_points(campaign: CampaignAnalysis, path: str | Path) -> Path:
    """The game in progress's expected Manager Points after each analysed choice, through
    the campaign (a line a game, each game's result at its end), the choices beyond noise
    worse than the best marked; written to ``path`` (PNG, or the format of its suffix).
    Raises :class:`~dugout.evaluate.analysis.PlotError` in one line when matplotlib is
    missing."""
    Figure = load_plt("the expected-points plot")
    fig = Figure(figsize=(9, 4), dpi=120)
    ax = fig.add_subplot()
    by_game: dict[int, list[CampaignMove]] = {}
    for m in campaign.moves:
        if m.record is not None:
            by_game.setdefault(m.game, []).append(m)
    ends = []
    for g, moves in sorted(by_game.items()):
        xs = [m.step for m in moves]
        ys = [m.record.win for m in moves]
        if g - 1 < len(campaign.game_mp):            # the game's result, after its last choice
            xs.append(moves[-1].step + 1)
            ys.append(campaign.game_mp[g - 1])
            ends.append((xs[-1], ys[-1], campaign.results[g - 1]))
        ax.plot(xs, ys, drawstyle="steps-post", color="tab:blue")
        ax.axvline(moves[0].step, color="grey", lw=0.6, ls=":")
        ax.annotate(f"game {g}", (moves[0].step, 1), xycoords=("data", "axes fraction"),
                    xytext=(2, -10), textcoords="offset points", fontsize=7, color="grey")
    if ends:
        ax.scatter([e[0] for e in ends], [e[1] for e in ends], marker="o",
                   c=["tab:green" if e[2] else "tab:grey" for e in ends], zorder=3,
                   label="each game's Manager Points (green: won)")
    blunders = [m for m in campaign.moves if m.record is not None and m.record.beyond_noise]
    if blunders:
        ax.scatter([m.step for m in blunders], [m.record.win for m in blunders], marker="v",
                   color="tab:red", zorder=3,
                   label=f"beyond noise worse than the best ({len(blunders)})")
    ax.set_xlabel("decisions made in the campaign")
    ax.set_ylabel("the game's expected Manager Points")
    ax.set_title(f"{ENV_ID}, seed {campaign.seed}: {campaign.agent}, {campaign.mp} Manager Points "
                 f"(estimates of {campaign.search})", fontsize=10)
    return save_plot(fig, ax, path)

