"""Value tables: run expectancy against an exact Markov chain, win expectancy against hand
calculations, caching."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dugout.agents.thats_baseball import sample_run_counts, thats_baseball_tables
from dugout.agents.value_tables import (BASE_STATES, MLB_RE24_2010_2015, ValueTables,
                                        bases_index, format_re24, value_tables)
from dugout.envs.thats_baseball import rules
from dugout.envs.core.scorebook import (DOUBLE, FLY_OUT, GROUND_OUT, HIT_BY_PITCH, HOME_RUN,
                                        SINGLE, STRIKEOUT, TRIPLE, WALK)

TWO_DICE = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}


# -- an exact run-expectancy chain for nine identical batters, written from the rulebook --
def _hit(bases, n):
    runners = [i for i in range(3) if bases[i]]
    runs = sum(1 for i in runners if i + n >= 3) + (n == 4)
    new = [False] * 3
    for i in runners:
        if i + n < 3:
            new[i + n] = True
    if n < 4:
        new[n - 1] = True
    return tuple(new), runs


def _walk(bases):
    f, s, t = bases
    if not f:
        return (True, s, t), 0
    if not s:
        return (True, True, t), 0
    if not t:
        return (True, True, True), 0
    return (True, True, True), 1


def _fly_out_tag_ups(outs, bases):
    """1l under the reference policy: third, then second, then first roll; 5-6 moves up."""
    branches = [(1.0, bases, 0)]
    if outs >= 3:
        return branches
    for base in (2, 1, 0):
        nxt = []
        for p, b, r in branches:
            if b[base] and (base == 2 or not b[base + 1]):
                moved = list(b)
                moved[base] = False
                runs = r
                if base == 2:
                    runs += 1
                else:
                    moved[base + 1] = True
                nxt += [(p / 3, tuple(moved), runs), (p * 2 / 3, b, r)]
            else:
                nxt.append((p, b, r))
        branches = nxt
    return branches


def _ground_out(outs, bases):
    """1m then 1k: 1/36 the batter reaches on an error; else out, then the double-play roll."""
    out = []
    f, s, t = bases
    roe, runs = _hit(bases, 1)
    out.append((1 / 36, outs, roe, runs))
    o = outs + 1
    if o < 3 and f:
        # missed (1-3): the runner from first takes second, forcing those ahead
        if not s:
            missed, mr = (False, True, t), 0
        elif not t:
            missed, mr = (False, True, True), 0
        else:
            missed, mr = (False, True, True), 1
        out.append((35 / 36 / 2, o, missed, mr))
        # made (4-6): the lead runner is out, the others move up a base
        lead = max(i for i in range(3) if bases[i])
        rest = [bases[i] and i != lead for i in range(3)]
        if o + 1 >= 3:
            out.append((35 / 36 / 2, 3, (False,) * 3, 0))
        else:
            moved, mr = [False] * 3, 0
            for i in range(3):
                if rest[i]:
                    if i == 2:
                        mr += 1
                    else:
                        moved[i + 1] = True
            out.append((35 / 36 / 2, o + 1, tuple(moved), mr))
    else:
        out.append((35 / 36, o, bases, 0))
    return out


def exact_run_expectancy(aa: int) -> np.ndarray:
    """RE24 (3 x 8) for nine batters of adjusted average ``aa`` under the reference policy."""
    states = [(o, b) for o in range(3) for b in range(8)]
    index = {s: i for i, s in enumerate(states)}
    A = np.eye(24)
    c = np.zeros(24)

    def add(i, p, o, bases, runs):
        c[i] += p * runs
        if o < 3:
            A[i, index[(o, bases_index(bases))]] -= p

    for (o, b), i in index.items():
        bases = (bool(b & 1), bool(b & 2), bool(b & 4))
        for total, p in TWO_DICE.items():
            result = rules.RESULT_CHART[aa + total]
            results = [(p, result)]
            if result == "XBH":
                results = [(p * q, rules.EXTRA_BASE_HIT[d]) for d, q in
                           ((d, 1 / 6) for d in range(1, 7))]
            for q, res in results:
                if res in (SINGLE, DOUBLE, TRIPLE, HOME_RUN):
                    nb, r = _hit(bases, res.bases)
                    add(i, q, o, nb, r)
                elif res in (WALK, HIT_BY_PITCH):
                    nb, r = _walk(bases)
                    add(i, q, o, nb, r)
                elif res is STRIKEOUT:
                    add(i, q, o + 1, bases, 0)
                elif res is FLY_OUT:
                    for w, nb, r in _fly_out_tag_ups(o + 1, bases):
                        add(i, q * w, o + 1, nb, r)
                elif res is GROUND_OUT:
                    for w, no, nb, r in _ground_out(o, bases):
                        add(i, q * w, no, nb, r)
                else:
                    raise AssertionError(res)
    return np.linalg.solve(A, c).reshape(3, 8)


@pytest.mark.parametrize("aa", [26, 30])
def test_simulated_run_expectancy_matches_the_exact_chain(aa):
    counts = sample_run_counts(((aa,) * 9, (aa,) * 9), half_innings=20_000, min_visits=1_500, seed=3)
    exact = exact_run_expectancy(aa)
    runs = np.arange(counts.shape[-1])
    for team in (0, 1):
        for o in range(3):
            for b in range(8):
                c = counts[team, o, b]
                n = c.sum()
                mean = (c * runs).sum() / n
                sd = math.sqrt((c * (runs - mean) ** 2).sum() / (n - 1))
                # 4.5 standard errors: a false alarm about once in 150,000 cells
                assert abs(mean - exact[o, b]) < 4.5 * sd / math.sqrt(n), (team, o, BASE_STATES[b])
    # and the headline cell, with the tightest tolerance (about 40,000 half innings)
    c = counts[:, 0, 0].sum(axis=0)
    mean = (c * runs).sum() / c.sum()
    assert abs(mean - exact[0, 0]) < 0.03


def test_exact_chain_is_sane():
    """A sanity check on the test's own chain: better hitters, more runs; more outs, fewer."""
    low, high = exact_run_expectancy(24), exact_run_expectancy(32)
    assert (high > low).all()
    assert (low[0] > low[1]).all() and (low[1] > low[2]).all()


def _tables_from(dist_away, dist_home, innings):
    counts = np.zeros((2, 3, 8, len(dist_away)), dtype=np.int64)
    counts[0] = np.round(np.array(dist_away) * 1_000_000).astype(np.int64)
    counts[1] = np.round(np.array(dist_home) * 1_000_000).astype(np.int64)
    return ValueTables({"test": True}, counts, innings=innings)


def test_win_expectancy_of_a_one_inning_game_with_extra_innings():
    """Away scores one run with chance p, home with chance q, per half inning.

    A tied inning repeats, so x = (1-p) [q + (1-q) x] + p q x, i.e.
    x = (1-p) q / (p + q - 2 p q).
    """
    p, q = 0.3, 0.45
    t = _tables_from([1 - p, p], [1 - q, q], innings=1)
    x = (1 - p) * q / (p + q - 2 * p * q)
    assert t.win_expectancy(1, 0, 0, 0, 0) == pytest.approx(x, abs=1e-6)
    assert t.win_expectancy(5, 0, 0, 0, 0) == pytest.approx(x, abs=1e-6)      # any extra inning
    # bottom of the inning, home down one: it needs a run to tie, then x
    assert t.win_expectancy(1, 1, 0, 0, -1) == pytest.approx(q * x, abs=1e-6)
    # bottom, tied: a run wins it (walk-off), else another inning
    assert t.win_expectancy(1, 1, 0, 0, 0) == pytest.approx(q + (1 - q) * x, abs=1e-6)
    # the side retired with home ahead after the top: home wins without batting
    assert t.win_expectancy(1, 0, 3, 0, 1) == 1.0
    assert t.win_expectancy(1, 1, 0, 0, 1) == 1.0



def test_exact_distributions_give_the_closed_form_and_refuse_what_needs_samples(tmp_path):
    """``from_probabilities`` takes the distributions themselves (Bottom of the 9th's are
    exact): the one-inning game's closed form to rounding, the same tables as counts in
    those proportions; no samples to show or save; a distribution that is not one is
    refused by name."""
    p, q = 0.3, 0.45
    probs = np.zeros((2, 3, 8, 2))
    probs[0], probs[1] = [1 - p, p], [1 - q, q]
    t = ValueTables.from_probabilities({"test": True}, probs, innings=1)
    x = (1 - p) * q / (p + q - 2 * p * q)
    assert t.win_expectancy(1, 0, 0, 0, 0) == pytest.approx(x, abs=1e-12)
    assert t.win_expectancy(1, 1, 0, 0, -1) == pytest.approx(q * x, abs=1e-12)
    np.testing.assert_allclose(t.we, _tables_from([1 - p, p], [1 - q, q], innings=1).we, atol=1e-9)
    with pytest.raises(ValueError, match="exact run distributions"):
        t.visits(0)
    with pytest.raises(ValueError, match="exact run distributions"):
        t.save(tmp_path / "t.json")
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match="shape"):
        ValueTables.from_probabilities({}, probs[0])
    bad = probs.copy()
    bad[1, 2, 7] = [0.5, 0.4]
    with pytest.raises(ValueError, match="summing to 1"):
        ValueTables.from_probabilities({}, bad)
    bad[1, 2, 7] = [1.5, -0.5]
    with pytest.raises(ValueError, match="from 0"):
        ValueTables.from_probabilities({}, bad)

def test_win_expectancy_of_a_two_inning_game_by_enumeration():
    p, q = 0.3, 0.45
    t = _tables_from([1 - p, p], [1 - q, q], innings=2)
    x = (1 - p) * q / (p + q - 2 * p * q)
    # enumerate the four half innings' runs (0/1 each) exactly
    total = 0.0
    for a1 in (0, 1):
        for h1 in (0, 1):
            for a2 in (0, 1):
                for h2 in (0, 1):
                    pr = ((p if a1 else 1 - p) * (q if h1 else 1 - q)
                          * (p if a2 else 1 - p) * (q if h2 else 1 - q))
                    away, home = a1 + a2, h1 + h2
                    if home > away:
                        total += pr
                    elif home == away:
                        total += pr * x
    assert t.win_expectancy(1, 0, 0, 0, 0) == pytest.approx(total, abs=1e-6)


def test_win_expectancy_is_monotone_in_the_lead_and_in_outs():
    t = thats_baseball_tables(((28,) * 9, (28,) * 9), half_innings=4000, min_visits=300)
    for inning in (1, 5, 9, 10):
        for half in (0, 1):
            for b in range(8):
                we = [t.win_expectancy(inning, half, 1, b, d) for d in range(-6, 7)]
                assert all(x <= y + 1e-12 for x, y in zip(we, we[1:]))
    # the batting team is better off with fewer outs
    for b in range(8):
        bw = [t.batting_win_expectancy(9, 1, o, b, -1) for o in range(3)]
        assert bw[0] >= bw[1] >= bw[2]
    # equal lineups: the first pitch is close to a coin toss
    assert 0.45 < t.win_expectancy(1, 0, 0, 0, 0) < 0.56


def test_tables_are_cached_with_their_inputs(tmp_path):
    calls = []

    def sampler():
        calls.append(1)
        return sample_run_counts(((27,) * 9, (29,) * 9), half_innings=1000, min_visits=50)

    inputs = {"lineups": [[27] * 9, [29] * 9], "n": 1000}
    a = value_tables("thats_baseball_v0", inputs, sampler, directory=tmp_path)
    b = value_tables("thats_baseball_v0", inputs, sampler, directory=tmp_path)
    assert len(calls) == 1
    np.testing.assert_array_equal(a.counts, b.counts)
    files = list((tmp_path / "value_tables").glob("*.json"))
    assert len(files) == 1
    saved = json.loads(files[0].read_text())
    assert saved["inputs"] == {"ruleset": "thats_baseball_v0", **inputs}
    # a damaged file is made again, not trusted
    files[0].write_text("{not json")
    value_tables("thats_baseball_v0", inputs, sampler, directory=tmp_path)
    assert len(calls) == 2
    # other inputs, other file
    value_tables("thats_baseball_v0", {**inputs, "n": 2}, sampler, directory=tmp_path)
    assert len(calls) == 3 and len(list((tmp_path / "value_tables").glob("*.json"))) == 2


def test_save_load_round_trip(tmp_path):
    t = _tables_from([0.7, 0.3], [0.6, 0.4], innings=3)
    t.save(tmp_path / "t.json")
    u = ValueTables.load(tmp_path / "t.json")
    np.testing.assert_array_equal(t.we, u.we)
    assert u.inputs == {"test": True}


def test_bad_counts_are_refused():
    counts = np.ones((2, 3, 8, 5), dtype=np.int64)
    counts[1, 2, 7] = 0
    with pytest.raises(ValueError, match="team 1, 2 out, bases 123"):
        ValueTables({}, counts)
    with pytest.raises(ValueError, match="shape"):
        ValueTables({}, np.ones((3, 8, 5)))
    with pytest.raises(ValueError, match="format"):
        ValueTables.from_dict({"format": 99})


def test_re24_formatting_shows_both_tables():
    text = format_re24(MLB_RE24_2010_2015, MLB_RE24_2010_2015)
    assert "0.481" in text and "2.292" in text and text.count("\n") == 9


# -- the command line (dugout tables) -------------------------------------------------------------
@pytest.fixture
def stub_tables(monkeypatch):
    """``dugout tables`` with each ruleset's value tables replaced by small exact ones (no
    sampling): the calls they get, as (teams, innings)."""
    import dataclasses
    from dugout.agents.value_tables import __main__ as cli
    calls = []
    real = cli.managers

    def managers(env_id):
        def tables(teams, innings):
            calls.append((teams, innings))
            return _tables_from([0.7, 0.3], [0.6, 0.4], innings=innings)
        if env_id == "bottom_ninth_v0":
            return real(env_id)                 # its record refuses at once: kept as it is
        return dataclasses.replace(real(env_id), value_tables=tables)

    monkeypatch.setattr(cli, "managers", managers)
    return cli, calls


def test_the_command_line_prints_re24_and_win_expectancy(stub_tables, capsys):
    cli, calls = stub_tables
    cli.main(["--env", "thats_baseball_v0", "--teams", "sample", "reds", "--innings", "2"])
    out = capsys.readouterr().out
    assert calls == [(["sample", "reds"], 2)]
    assert "Run expectancy of thats_baseball_v0, sample (away) batting" in out
    assert out.count(" top ") == 3 and "extra" in out          # innings 1, 2 and extra
    cli.main(["--env", "grand_slam_v0", "--innings", "1"])
    assert calls[-1] == (None, 1)


@pytest.mark.parametrize("argv, says", [
    (["--innings", "1000000"], "--innings: must be a whole number from 1 to 9"),   # hung
    (["--innings", "0"], "--innings: must be a whole number from 1 to 9"),         # was taken
    (["--teams", "nobody", "sample"], "--teams"),                                 # a traceback
    (["--env", "grand_slam_v0", "--teams", "a", "b"], "grand_slam_v0 has no teams"),
    (["--env", "bottom_ninth_v0"], "win_table()"),
])
def test_the_command_line_refuses_bad_flags_before_any_table(stub_tables, capsys, argv, says):
    cli, calls = stub_tables
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1
    assert err[0].startswith("dugout tables: error: ") and says in err[0]
    assert calls == []


@pytest.mark.parametrize("innings", [0, -1, 10, 10**6, 9.0, True, "9"])
def test_value_tables_refuse_innings_outside_a_game_before_sampling(innings, tmp_path):
    """Innings 1 to 9, as every ruleset takes them: a million innings used to sample for
    ever, 0 was taken. The check comes before the sampler runs."""
    from dugout.agents.value_tables import ValueTables, value_tables
    from dugout.envs.core.errors import OptionError

    def sampler():
        raise AssertionError("sampled before the innings were checked")

    with pytest.raises(OptionError, match="innings must be an int from 1 to 9"):
        value_tables("thats_baseball", {"x": 1}, sampler, innings=innings, directory=tmp_path)
    with pytest.raises(OptionError, match="innings must be an int from 1 to 9"):
        ValueTables({}, np.zeros((2, 3, 8, 21)), innings=innings)
    assert not list(tmp_path.iterdir())
