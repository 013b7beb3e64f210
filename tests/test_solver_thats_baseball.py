"""The exact That's Baseball solver: values against simulation, the chain against an
independent calculation, the optimal manager in play, policy evaluation, saving, errors.

Games are one inning long (plus extra innings) and the score bound small, so a solve
takes a couple of seconds; the 100,000-game checks of the full game are
``dugout verify thats_baseball``.
"""

from __future__ import annotations

import dataclasses
import io
import math

import numpy as np
import pytest

from dugout.agents import RandomAgent
from dugout.agents.solvers.thats_baseball import (GRAPH, PolicyTable, Solution, SolverAgent,
                                                  bound_effect, cached_solution, evaluate,
                                                  expected_runs, gap_to_optimal,
                                                  outcome_probabilities, play_out, policy_table,
                                                  situation, solve)
from dugout.agents.solvers.report import simulated_row
from dugout.studies.verify_thats_baseball import verify
from dugout.agents.solvers.thats_baseball.cli import main
from dugout.agents.thats_baseball import ThatsBaseballHeuristic, thats_baseball_tables
from dugout.agents.value_tables import inning_row, lead_index
from dugout.envs import thats_baseball_v0
from dugout.envs.thats_baseball import load_team, rules
from dugout.envs.thats_baseball.env import encode_view
from dugout.agents.play import play_game, turns

SAMPLE, REDS = load_team("sample").aas, load_team("reds").aas
LINEUPS = (SAMPLE, REDS)
Z999 = 3.2905          # two-sided 99.9% normal quantile


@pytest.fixture(scope="module")
def solution() -> Solution:
    return solve(SAMPLE, REDS, innings=1, bound=10)


@pytest.fixture(scope="module")
def small_tables():
    """Value tables for one-inning games, sampled small (fast)."""
    return thats_baseball_tables(LINEUPS, 1, half_innings=3000, min_visits=100)


@pytest.fixture(scope="module")
def heuristic(small_tables) -> ThatsBaseballHeuristic:
    return ThatsBaseballHeuristic(small_tables)


@pytest.fixture(scope="module")
def heuristic_tables(solution, heuristic):
    return policy_table(heuristic, solution, 0), policy_table(heuristic, solution, 1)


def simulated_rate(managers, games: int, **where) -> float:
    wins = sum(play_out(situation(LINEUPS, seed, innings=1, **where), managers) == 1
               for seed in range(games))
    return wins / games


# -- the solver's values against play --------------------------------------------------------------
@pytest.mark.parametrize("where", [
    dict(),                                                                   # first pitch
    dict(inning=1, half=1, outs=1, bases=5, score=(2, 1), order=(3, 4)),
    dict(inning=1, half=0, outs=2, bases=6, score=(0, 0), order=(8, 0)),
    dict(inning=3, half=1, outs=0, bases=0, score=(1, 1), order=(5, 2)),       # extra inning
])
def test_solved_values_lie_in_the_999_interval_of_simulated_games(solution, where):
    games = 3000
    agent = SolverAgent(solution)
    w = {"inning": 1, "half": 0, "outs": 0, "bases": 0, "score": (0, 0), "order": (0, 0), **where}
    value = solution.value_at(w["inning"], w["half"], w["outs"], w["bases"], w["score"], w["order"])
    rate = simulated_rate((agent, agent), games, **where)
    assert abs(rate - value) <= Z999 * math.sqrt(value * (1 - value) / games), (rate, value)


def test_solver_agent_plays_the_engine_in_both_seats_without_disagreeing_with_its_model(solution):
    """Every decision the engine offers maps onto a node of the solver's graph with the same
    legal actions (the agent raises if not), over many games against a random manager."""
    env = thats_baseball_v0.env(innings=1)
    solver, rnd = SolverAgent(solution), RandomAgent(0)
    decisions = 0
    for seed in range(150):
        for seats in ({"away": solver, "home": rnd}, {"away": rnd, "home": solver}):
            result = play_game(env, seats, seed)
            decisions += result.decisions["away" if seats["away"] is solver else "home"]
    assert decisions > 500


def test_the_rules_at_the_edges_of_the_game(solution):
    s = solution
    # the home team leads after the top of the last inning, or walks off: it has won
    assert s.value_at(1, 1, 0, 0, (0, 1), (0, 0)) == 1.0
    # beyond the bound the team ahead is taken to win
    assert s.value_at(1, 0, 0, 0, (11, 0), (0, 0)) == 0.0
    assert s.value_at(1, 0, 0, 0, (0, 11), (0, 0)) == 1.0
    # an extra inning is the stationary fixed point: inning 2 and 7 alike, tied at the start
    assert s.value_at(2, 0, 0, 0, (4, 4), (3, 6)) == s.value_at(7, 0, 0, 0, (1, 1), (3, 6))
    assert s.value_at(2, 0, 0, 0, (4, 4), (3, 6)) == pytest.approx(s.extra_tie[3, 6], abs=1e-12)
    # the last scheduled inning, tied, is an extra inning too
    assert s.value_at(1, 0, 0, 0, (0, 0), (3, 6)) == pytest.approx(s.extra_tie[3, 6], abs=1e-12)
    # more runs for the home team never hurt it; more outs never help the batting team
    for half in (0, 1):
        v = [s.value_at(1, half, 1, 3, (5, 5 + d), (2, 4)) for d in range(-3, 1)]
        assert all(a <= b + 1e-12 for a, b in zip(v, v[1:]))
    bat = [s.value_at(1, 1, o, 7, (3, 2), (0, 0)) for o in range(3)]
    assert bat[0] >= bat[1] >= bat[2]


# -- the chain against an independent calculation ---------------------------------------------------
TWO_DICE = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}


def runs_by_hand(lineup, leadoff: int) -> float:
    """Expected runs of a half inning under the fixed policy (no steals, pickoffs or
    double-play rolls; always roll for errors and tag-ups), from the chart alone.

    States (outs, first, second, third, batter); a linear system, solved once.
    """
    states = [(o, b, k) for o in range(3) for b in range(8) for k in range(9)]
    index = {s: i for i, s in enumerate(states)}
    A, c = np.eye(len(states)), np.zeros(len(states))

    def go(i, p, o, b, k, runs):
        c[i] += p * runs
        if o < 3:
            A[i, index[(o, b, k % 9)]] -= p

    def advance(b, n):                  # everyone moves n bases, the batter takes base n
        on = [b >> j & 1 for j in range(3)]
        runs = sum(on[j] for j in range(3) if j + n >= 3)
        new = sum(1 << (j + n) for j in range(3) if on[j] and j + n < 3)
        if n < 4:
            new |= 1 << (n - 1)
        else:
            runs += 1
        return new, runs

    def walk(b):
        if not b & 1:
            return b | 1, 0
        if not b & 2:
            return b | 3, 0
        if not b & 4:
            return 7, 0
        return 7, 1

    def tag_ups(o, b):                  # third, then second, then first; 5-6 moves up
        outcomes = [(1.0, b, 0)]
        for base in (2, 1, 0):
            nxt = []
            for p, bb, r in outcomes:
                if bb >> base & 1 and (base == 2 or not bb >> (base + 1) & 1):
                    moved = bb & ~(1 << base) | ((1 << (base + 1)) if base < 2 else 0)
                    nxt += [(p * 4 / 6, bb, r), (p * 2 / 6, moved, r + (base == 2))]
                else:
                    nxt.append((p, bb, r))
            outcomes = nxt
        return outcomes

    for (o, b, k), i in index.items():
        for total, p in TWO_DICE.items():
            res = rules.RESULT_CHART[lineup[k] + total]
            code = res if isinstance(res, str) else res.code
            if code == "XBH":
                for n, q in ((2, 4 / 6), (3, 1 / 6), (4, 1 / 6)):
                    nb, r = advance(b, n)
                    go(i, p * q, o, nb, k + 1, r)
            elif code in ("1B", "HR"):
                nb, r = advance(b, 1 if code == "1B" else 4)
                go(i, p, o, nb, k + 1, r)
            elif code in ("BB", "HBP"):
                nb, r = walk(b)
                go(i, p, o, nb, k + 1, r)
            elif code == "SO":
                go(i, p, o + 1, b, k + 1, 0)
            elif code == "FO":
                if o + 1 == 3:
                    go(i, p, 3, b, k + 1, 0)
                else:
                    for q, nb, r in tag_ups(o + 1, b):
                        go(i, p * q, o + 1, nb, k + 1, r)
            elif code == "GO":             # 12 on the error roll: batter on, all move up one
                nb, r = advance(b, 1)
                go(i, p / 36, o, nb, k + 1, r)
                go(i, p * 35 / 36, o + 1, b, k + 1, 0)
            else:
                raise AssertionError(code)
    return float(np.linalg.solve(A, c)[index[(0, 0, leadoff)]])


@pytest.mark.parametrize("lineup", [SAMPLE, REDS, (24,) * 9, (32,) * 9, (28, 30, 26, 32, 24, 29, 27, 31, 25)])
def test_expected_runs_of_the_chain_match_the_chart(lineup):
    for leadoff in (0, 4, 8):
        assert expected_runs(lineup, leadoff) == pytest.approx(runs_by_hand(lineup, leadoff), abs=1e-9)


def test_outcome_probabilities_sum_to_one_and_follow_the_chart():
    p = outcome_probabilities(28)
    assert p.sum() == pytest.approx(1.0)
    # AA 28: totals 30..40; outs on 33, 34, 35, 36, 39
    assert p[1:4].sum() == pytest.approx((4 + 5 + 6 + 5 + 2) / 36)


# -- the optimal manager and policy evaluation -------------------------------------------------------
def test_evaluation_reproduces_the_game_value_and_minimax(solution):
    v = solution.game_value
    assert evaluate(solution) == pytest.approx(v, abs=1e-12)
    # the best reply to the optimal manager gains nothing, in either seat
    assert evaluate(solution, "best-response", "optimal") == pytest.approx(v, abs=1e-12)
    assert evaluate(solution, "optimal", "best-response") == pytest.approx(v, abs=1e-12)


def test_random_manager_gives_away_win_probability(solution):
    gap = gap_to_optimal(solution, RandomAgent(0))
    assert gap.gap_away > 0.01 and gap.gap_home > 0.01
    assert gap.away + gap.gap_away == pytest.approx(1 - solution.game_value, abs=1e-12)
    assert gap.home + gap.gap_home == pytest.approx(solution.game_value, abs=1e-12)


class _Mixed:
    """An agent that gives action probabilities: uniform over the legal actions."""
    name = "mixed"
    needs_view = True

    def reset(self, seed=None):
        pass

    def act(self, observation, view=None):
        raise AssertionError("action_probabilities should be used instead")

    def action_probabilities(self, observation, view=None):
        return {a: 1 / len(view.legal) for a in view.legal}


def test_action_probabilities_are_used_when_an_agent_has_them(solution):
    """Uniform action probabilities evaluate like the random manager (a uniform table)."""
    mixed = policy_table(_Mixed(), solution, 0)
    assert mixed.probs is not None and mixed.actions is None
    both = evaluate(solution, mixed, PolicyTable("random", 1, uniform=True))
    assert both == pytest.approx(evaluate(solution, PolicyTable("random", 0, uniform=True),
                                          PolicyTable("random", 1, uniform=True)), abs=1e-6)


def test_heuristic_gap_is_small_and_nonnegative(solution, heuristic_tables):
    gap = gap_to_optimal(solution, tables=heuristic_tables)
    assert -1e-12 <= gap.gap_away < 0.02 and -1e-12 <= gap.gap_home < 0.02


@pytest.mark.parametrize("heuristic_seat", [0, 1])
def test_policy_evaluation_agrees_with_heuristic_against_solver_games(solution, heuristic,
                                                                      heuristic_tables, heuristic_seat):
    sides = ["optimal", "optimal"]
    sides[heuristic_seat] = heuristic_tables[heuristic_seat]
    value = evaluate(solution, *sides)
    managers = [SolverAgent(solution), SolverAgent(solution)]
    managers[heuristic_seat] = heuristic
    games = 4000
    rate = simulated_rate(managers, games)
    assert abs(rate - value) <= Z999 * math.sqrt(value * (1 - value) / games), (rate, value)


def test_asking_only_one_kind_matches_asking_everything(solution, small_tables, heuristic_tables):
    from dugout.agents.thats_baseball import ThatsBaseballAlwaysNever
    agent = ThatsBaseballAlwaysNever("pickoff", True, tables=small_tables)
    full = policy_table(agent, solution, 1)
    quick = policy_table(agent, solution, 1, kinds=("pickoff",), base=heuristic_tables[1])
    np.testing.assert_array_equal(full.actions, quick.actions)
    assert quick.queries < full.queries


@pytest.mark.full
def test_solver_is_not_significantly_beaten_by_the_heuristic(solution, heuristic):
    """A seat-swapped matchup (pairs of games on the same seed), scored per pair."""
    env = thats_baseball_v0.env(innings=1)
    solver = SolverAgent(solution)
    scores = []
    for seed in range(600):
        wins = 0
        for seats in ({"away": solver, "home": heuristic}, {"away": heuristic, "home": solver}):
            result = play_game(env, seats, seed)
            wins += result.winner == ("away" if seats["away"] is solver else "home")
        scores.append(wins / 2)
    mean, sd = np.mean(scores), np.std(scores, ddof=1)
    assert mean + 1.96 * sd / math.sqrt(len(scores)) >= 0.5, mean


def test_policy_table_views_are_the_env_views_of_the_same_state(solution):
    """The views (and so the observations) a policy table asks an agent about are the env's
    own at that state, read as the package docstring says: the score as a difference, the
    steal flags only in the steal phase, every extra inning as the first."""
    from dugout.agents.solvers.thats_baseball.graph import decision_key
    from dugout.agents.solvers.thats_baseball.policy import _node_views, _view_parts
    env = thats_baseball_v0.env(innings=1)
    agent = RandomAgent(3)
    checked = 0
    for seed in range(30):
        env.reset(seed=seed)
        for name, obs, _ in turns(env):
            v = env.unwrapped.view(name)
            np.testing.assert_array_equal(encode_view(v), obs["observation"])
            d = v.score[1] - v.score[0]
            if abs(d) <= solution.bound:
                j = GRAPH.decision_index[decision_key(v)]
                h = v.half
                (kind, subject, legal, options, outs, bases, tried) = _view_parts(j)
                parts = (v.seat, kind, subject, legal, options, min(v.inning, 2), outs, bases, tried)
                table_view = next(view for (di, ob, of), view in
                                  _node_views(solution, h, [d + solution.bound], parts)
                                  if (ob, of) == (v.order[h], v.order[1 - h]))
                read = dataclasses.replace(v, score=(max(0, -d), max(0, d)), inning=min(v.inning, 2))
                if v.decision != "steal":
                    read = dataclasses.replace(read, tried_steal=(False,) * 3, pickoff_tried=False)
                assert table_view == read
                np.testing.assert_array_equal(encode_view(table_view), encode_view(read))
                checked += 1
            env.step(agent.act(obs))
    assert checked > 200


# -- the score bound ------------------------------------------------------------------------------
def test_score_bound_changes_values_little_and_less_with_a_larger_bound(solution):
    values = {b: solve(SAMPLE, REDS, innings=1, bound=b) for b in (2, 5)}
    values[10] = solution
    g = {b: s.game_value for b, s in values.items()}
    assert 0 < abs(g[5] - g[10]) < abs(g[2] - g[10])
    assert abs(g[5] - g[10]) < 1e-3
    # the start states with |d| <= 2 move by little from bound 5 to 10
    a, b = values[5].start[:, :, 3:8], values[10].start[:, :, 8:13]
    both = ~(np.isnan(a) | np.isnan(b))
    assert np.abs(a - b)[both].max() < 0.01


# -- saving ---------------------------------------------------------------------------------------
def test_save_load_round_trip_and_refusals(solution, tmp_path):
    path = tmp_path / "solved.npz"
    solution.save(path)
    back = Solution.load(path, lineups=LINEUPS, innings=1)
    assert back.lineups == solution.lineups and back.bound == solution.bound
    np.testing.assert_array_equal(back.policy, solution.policy)
    np.testing.assert_array_equal(back.start, solution.start)
    assert back.game_value == solution.game_value
    with pytest.raises(ValueError, match="solved for lineups"):
        Solution.load(path, lineups=(REDS, SAMPLE))
    with pytest.raises(ValueError, match="solved for 1 innings, not 9"):
        Solution.load(path, innings=9)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a solution")
    with pytest.raises(ValueError, match="not a saved That's Baseball solution"):
        Solution.load(bad)


def test_rules_version_is_checked(solution, tmp_path, monkeypatch):
    from dugout.agents.solvers.thats_baseball import storage as mod
    path = tmp_path / "old.npz"
    solution.save(path)
    monkeypatch.setattr(mod, "RULES_VERSION", "thats_baseball-0")
    with pytest.raises(ValueError, match="solve again"):
        Solution.load(path)


def test_a_given_solution_refuses_a_view_of_another_game(solution):
    env = thats_baseball_v0.env(teams=("reds", "sample"), innings=1)
    agents = {"away": SolverAgent(solution), "home": SolverAgent(solution)}
    with pytest.raises(ValueError, match="this solution is for lineups"):
        for seed in range(20):
            play_game(env, agents, seed)


# -- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (((28,) * 8, REDS), "away lineup must have nine batters"),
    ((SAMPLE, (28,) * 8 + (33,)), "home lineup: batter 9 has adjusted average 33"),
    (("nobody", REDS), "unknown team 'nobody'"),
    ((SAMPLE, "nope"), "unknown team"),
])
def test_solve_names_bad_lineups(args, message):
    with pytest.raises(Exception, match=message):
        solve(*args, innings=1, bound=2)


def test_solve_names_bad_options():
    with pytest.raises(ValueError, match=r"innings must be an int from 1 to 9 \(MAX_INNINGS"):
        solve(SAMPLE, REDS, innings=0)
    with pytest.raises(ValueError, match="score bound must be an int from 1 to 100, got -1"):
        solve(SAMPLE, REDS, innings=1, bound=-1)


@pytest.mark.parametrize("innings", [10, 30, 10**6, 10**400, 9.0, True])
def test_absurd_innings_are_refused_before_any_table_is_made(innings, monkeypatch):
    """A million innings once asked numpy for 1.16 TiB, and 30 solved for minutes: every
    public entry point refuses innings outside 1..9 (MAX_INNINGS) before allocating."""
    from dugout.agents.solvers.thats_baseball import solution as mod
    monkeypatch.setattr(mod, "_empty_tables", lambda *a, **k: pytest.fail("allocated tables"))
    for call in (lambda: solve(SAMPLE, REDS, innings=innings),
                 lambda: cached_solution((SAMPLE, REDS), innings, use_disk=False),
                 lambda: bound_effect(SAMPLE, REDS, innings),
                 lambda: situation((SAMPLE, REDS), 0, innings=innings)):
        with pytest.raises(ValueError, match=r"innings must be an int from 1 to 9"):
            call()


def test_an_absurd_bound_is_refused():
    with pytest.raises(ValueError, match="score bound must be an int from 1 to 100, got 101"):
        solve(SAMPLE, REDS, innings=1, bound=101)
    with pytest.raises(ValueError, match="score bound must be an int from 1 to 100"):
        SolverAgent(bound=10**6)


def test_other_bad_input(solution):
    with pytest.raises(ValueError, match="seat must be 0"):
        policy_table(RandomAgent(0), solution, 2)
    with pytest.raises(ValueError, match="unknown side 'perfect'"):
        evaluate(solution, "perfect")
    with pytest.raises(ValueError, match="leadoff must be a lineup slot"):
        expected_runs(SAMPLE, 9)
    with pytest.raises(ValueError, match="adjusted average must be an int from 24 to 32"):
        outcome_probabilities(40)
    with pytest.raises(ValueError, match="unknown decision kinds"):
        policy_table(RandomAgent(0), solution, 0, kinds=("bunt",))
    with pytest.raises(TypeError, match="not an agent"):
        policy_table(object(), solution, 0)
    with pytest.raises(TypeError, match="solution must be a Solution"):
        SolverAgent("tables.npz")


def test_solution_and_value_tables_read_extra_innings_and_leads_alike(solution, small_tables):
    """Both tables have a row per inning and one for every extra inning, and count a lead
    past their bound as the bound (dugout.agents.value_tables.inning_row, lead_index)."""
    where = dict(half=0, outs=1, bases=3, score=(0, 0), order=(4, 7))
    assert solution.value_at(inning=5, **where) == solution.value_at(inning=2, **where)
    assert [inning_row(i, 3) for i in range(1, 7)] == [0, 1, 2, 3, 3, 3]
    assert [lead_index(d, 20) for d in (-25, -20, 3, 20, 25)] == [0, 0, 23, 40, 40]
    big = small_tables.max_diff
    assert small_tables.win_expectancy(7, 0, 1, 3, 0) == small_tables.win_expectancy(2, 0, 1, 3, 0)
    assert small_tables.win_expectancy(1, 0, 1, 3, big + 30) == small_tables.win_expectancy(1, 0, 1, 3, big)
    for read in (lambda: solution.value_at(inning=0, **where),
                 lambda: small_tables.win_expectancy(0, 0, 1, 3, 0)):
        with pytest.raises(ValueError, match="inning must be 1 or more"):
            read()


def test_the_graph_is_the_engine_decision_set():
    kinds = {k[0] for k in GRAPH.keys}
    assert kinds == {"S", "P", "AB", "E", "D", "R", "T"}
    assert len(GRAPH.decisions) == len(GRAPH.legal)


def test_command_line_prints_the_value_and_gaps(capsys):
    main(["--innings", "1", "--bound", "4", "--agents", "random"])
    out = capsys.readouterr().out
    assert "game value (home win probability, both optimal)" in out
    assert "solve time" in out and "states:" in out and "memory:" in out
    assert "random" in out.split("gap to optimal")[1]
    with pytest.raises(SystemExit):
        main(["--away", "nobody"])
    assert "unknown team 'nobody'" in capsys.readouterr().err


def test_a_checks_row_sets_the_solved_value_beside_the_simulated_rate():
    out = io.StringIO()
    row = simulated_row("even", 0.5, 50, 100, 1.0, width=8, out=out)
    assert row["rate"] == 0.5 and row["z"] == 0.0 and row["inside"]
    assert row["low"] == pytest.approx(0.5 - Z999 * 0.05) and row["high"] == pytest.approx(0.5 + Z999 * 0.05)
    row = simulated_row("far", 0.9, 50, 100, 1.0, width=8, out=out)
    assert not row["inside"] and row["z"] == pytest.approx(-0.4 / 0.03)
    assert out.getvalue().splitlines() == [
        "even     solved 0.50000  simulated 0.50000 [0.33547, 0.66453]  z +0.00  inside  (1 s)",
        "far      solved 0.90000  simulated 0.50000 [0.33547, 0.66453]  z -13.33  OUTSIDE  (1 s)"]


def test_the_check_simulates_games_from_each_state(monkeypatch, tmp_path):
    monkeypatch.setenv("DUGOUT_CACHE", str(tmp_path))
    out = io.StringIO()
    where = dict(inning=1, half=1, outs=1, bases=1, score=(1, 1), order=(3, 2))
    (row,) = verify(games=300, innings=1, bound=10, states=[("bottom 1st", where)], out=out)
    assert row["value"] == solve(SAMPLE, REDS, innings=1, bound=10).value_at(**where)
    assert row["low"] < row["rate"] < row["high"] and row["inside"]
    assert out.getvalue().startswith("bottom 1st" + " " * 38 + " solved ")


def test_command_line_gives_a_trained_managers_gap(tmp_path, capsys):
    """``--agents ppo:PATH``: a checkpoint's exact gap, the same as gap_to_optimal's."""
    torch = pytest.importorskip("torch")
    import json
    from dugout.agents.policy import PolicyAgent, build_actor
    from dugout.envs.thats_baseball.env import OBS
    torch.manual_seed(0)
    folder = tmp_path / "ckpt"
    folder.mkdir()
    torch.save(build_actor(OBS.size, [16], "Tanh", 5).state_dict(), folder / "policy.pt")
    (folder / "meta.json").write_text(json.dumps({"env_id": "thats_baseball_v0", "obs_size": OBS.size,
                                                  "n_actions": 5, "net_arch": [16], "activation": "Tanh"}))
    solution = main(["--innings", "1", "--bound", "4", "--agents", f"ppo:{folder}"])
    printed = capsys.readouterr()
    row = printed.out.split("gap to optimal")[1].splitlines()[-1].split()
    # a checkpoint trained on another game is still measured on this one, with a note
    assert (f"note: ppo:{folder}: trained on the env's default teams, 9 innings; its gap is "
            f"measured on sample at reds, 1 innings") in printed.err
    gap = gap_to_optimal(solution, PolicyAgent.load(folder, env_id="thats_baseball_v0"))
    assert row[0] == f"ppo:{folder}"
    assert float(row[3]) == pytest.approx(gap.gap_away, abs=1e-5) and gap.gap_away > 0.001
    assert float(row[4]) == pytest.approx(gap.gap_home, abs=1e-5)
    with pytest.raises(SystemExit):
        main(["--innings", "1", "--bound", "4", "--agents", "oracle"])
    assert "unknown agent 'oracle'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--innings", "1", "--bound", "4", "--agents", f"ppo:{tmp_path / 'nothing'}"])
    assert f"ppo:{tmp_path / 'nothing'}:" in capsys.readouterr().err


def test_the_command_line_notes_a_checkpoint_trained_on_another_game():
    from types import SimpleNamespace
    from dugout.agents.solvers.thats_baseball.cli import _trained_elsewhere

    def agent(**options):
        return SimpleNamespace(meta={"env_options": options})
    assert _trained_elsewhere(agent(teams=["sample", "reds"]), "sample", "reds", 9) is None
    assert _trained_elsewhere(agent(teams=["sample", "reds"], innings=3), "sample", "reds", 3) is None
    assert _trained_elsewhere(agent(), "sample", "reds", 9) is None     # teams unknown
    assert _trained_elsewhere(agent(teams=["reds", "sample"]), "sample", "reds", 9) == (
        "trained on reds at sample, 9 innings; its gap is measured on sample at reds, 9 innings")
    assert _trained_elsewhere(agent(teams=["sample", "reds"], innings=3), "sample", "reds", 9) == (
        "trained on sample at reds, 3 innings; its gap is measured on sample at reds, 9 innings")
