"""The search manager in the solvers' exact evaluators: asked where games go, told the
public set-up, reseeded from each state's view (the same table in any order, twice alike).

That's Baseball here; Bottom of the 9th in tests/test_solver_bottom_ninth.py (its duels)."""

from __future__ import annotations

import numpy as np
import pytest

from dugout.agents.registry import make_agent
from dugout.agents.solvers.asking import SeededPerState, prepare, view_seed
from dugout.agents.solvers.thats_baseball import gap_to_optimal, policy_table, solve
from dugout.agents.solvers.thats_baseball.cli import main
from dugout.agents.solvers.thats_baseball.policy import _node_views, _seat_nodes, _view_parts
from dugout.agents.solvers.thats_baseball.reached import reached_states, reached_table, state_index
from dugout.envs.thats_baseball import load_team

ENV = "thats_baseball_v0"
TINY = "search:sims=2,batch=2,horizon=1"
LINEUPS = (load_team("sample").aas, load_team("reds").aas)


@pytest.fixture(scope="module")
def solution():
    return solve(*LINEUPS, innings=1, bound=6)


@pytest.fixture(scope="module")
def heuristic_tables(solution):
    heuristic = make_agent(ENV, "heuristic")
    return tuple(policy_table(heuristic, solution, seat) for seat in (0, 1))


def _search_gap(solution, heuristic_tables, agent=None):
    agent = agent or make_agent(ENV, TINY, 0)
    tables = []
    for seat in (0, 1):
        reached = reached_states(solution, seat, games=3, holdout=2)
        tables.append(reached_table(agent, solution, heuristic_tables[seat], reached))
    return tables, gap_to_optimal(solution, tables=tuple(tables))


def test_a_tiny_search_is_asked_where_games_go_and_nowhere_else(solution, heuristic_tables):
    tables, gap = _search_gap(solution, heuristic_tables)
    for seat, table in enumerate(tables):
        reached = reached_states(solution, seat, games=3, holdout=0)
        assert table.queries == reached.count > 0
        same = table.actions == heuristic_tables[seat].actions
        assert same[~reached.states].all()              # the heuristic's play elsewhere
    assert gap.gap_away >= -1e-12 and gap.gap_home >= -1e-12


def test_the_search_gap_is_the_same_twice(solution, heuristic_tables):
    first_tables, first = _search_gap(solution, heuristic_tables)
    second_tables, second = _search_gap(solution, heuristic_tables)
    for a, b in zip(first_tables, second_tables):
        np.testing.assert_array_equal(a.actions, b.actions)
    assert (first.away, first.home) == (second.away, second.home)


def test_a_search_is_told_the_solved_games_public_setup(solution, heuristic_tables):
    agent = make_agent(ENV, TINY, 0)
    assert agent.setup is None
    _search_gap(solution, heuristic_tables, agent)
    assert agent.setup.innings == 1 and agent.setup.max_innings is None
    assert tuple(t.aas for t in agent.setup.teams) == LINEUPS


def _views(solution, count):
    """Some decision views of seat 0 as the evaluator builds them."""
    out = []
    for j in _seat_nodes(0, 0)[:count]:
        kind, subject, legal, options, outs, bases, tried = _view_parts(j)
        parts = (0, kind, subject, legal, options, 1, outs, bases, tried)
        out.append(next(iter(_node_views(solution, 0, [solution.bound], parts)))[1])
    return out


def test_a_searchs_answer_at_a_state_does_not_depend_on_the_states_asked_before(solution):
    from dugout.agents.solvers.thats_baseball.policy import public_setup
    views = _views(solution, 6)
    asked = prepare(make_agent(ENV, "search:sims=4,batch=2,horizon=1", 0), public_setup(solution))
    assert isinstance(asked, SeededPerState)
    forward = [asked.act({}, v) for v in views]
    backward = [asked.act({}, v) for v in reversed(views)][::-1]
    assert forward == backward
    # the seeds differ from state to state and with the manager's seed, never with the process
    seeds = {view_seed(0, v) for v in views}
    assert len(seeds) == len(views) and view_seed(1, views[0]) != view_seed(0, views[0])


def test_a_heuristic_is_asked_as_before():
    heuristic = make_agent(ENV, "heuristic")
    assert prepare(heuristic, None) is heuristic


def test_state_index_finds_the_evaluators_state(solution):
    for view in _views(solution, 4):
        layer, half, di, j, ob, of = state_index(solution, view)
        assert (layer, half, di, ob, of) == (0, 0, solution.bound, 0, 0)
        assert _view_parts(j)[0] == view.decision


def test_the_cli_reports_a_search_with_its_reach(capsys):
    main(["--innings", "1", "--bound", "4", "--agents", "heuristic", TINY, "--reach-games", "3"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("heuristic", "search"))]
    assert len(rows) == 2
    assert "as away: asked at the" in out and "as home: asked at the" in out
