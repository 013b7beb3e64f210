"""The batched That's Baseball engine (``dugout.vector``) against the scalar one.

* The dice: ``vector.dice`` draws exactly what ``core.dice.Dice`` draws, for many seeds,
  streams and purposes.
* Parity: thousands of games, random legal actions from a seeded generator; game ``i`` of a
  batch and ``rules.new_game(away, home, Dice(seed_i), innings, max_innings)`` driven by
  ``rules.apply_action`` with the same actions agree decision by decision (kind, actor,
  subject, legal actions, both seats' observations bit for bit) and at the end (runs,
  winner, truncation, decisions taken), over several batch sizes, options and teams, with
  finished games restarted in place as a training loop does. Each run also shows that it
  reached every decision, every action at it and the rare plays (pickoff errors, errors,
  double plays, walk-offs, extra innings, truncation), so that parity is not parity on the
  easy paths alone.
* Bad input fails with an error that names what was wrong, and changes nothing.
* Statistics: runs per half inning under a fixed policy agree between the engines on
  different seeds, within a tolerance from the sample size.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from dugout.envs.core.dice import Dice, _mix64, _purpose_code
from dugout.envs.core.errors import DataError, IllegalActionError, OptionError
from dugout.envs.thats_baseball import rules
from dugout.envs.thats_baseball.cards import BUILTIN_TEAMS, load_team
from dugout.envs.thats_baseball.env import OBS, encode_view
from dugout.envs.thats_baseball.view import make_view
from dugout.vector import BatchedGames
from dugout.vector.dice import BatchedDice, mix64, purpose_code
from dugout.vector.thats_baseball import PURPOSES

KIND = {k: i for i, k in enumerate(rules.DECISION_KINDS)}


# -- the dice ------------------------------------------------------------------------------
def test_mix64_and_purpose_codes_are_the_scalar_ones():
    rng = np.random.default_rng(1)
    values = [0, 1, 2**63 - 1, 2**63, 2**64 - 1] + [int(v) for v in rng.integers(0, 2**63, 500)]
    values += [v * 2 + 1 for v in values[5:50]]             # the top bit set too
    got = mix64(np.array(values, dtype=np.uint64))
    assert got.dtype == np.uint64
    assert got.tolist() == [_mix64(v) for v in values]
    for purpose in PURPOSES + ("x", "ünïcode purpose", "a" * 100):
        assert int(purpose_code(purpose)) == _purpose_code(purpose)
        assert int(purpose_code(purpose)) == _mix64(zlib.crc32(purpose.encode("utf-8")))
    with pytest.raises(ValueError, match="non-empty string"):
        purpose_code("")


def test_batched_dice_draw_what_the_scalar_dice_draw():
    """Many seeds (0, the 64-bit extremes, one past 64 bits), streams of 0-3 keys, every
    purpose the engine uses and others, several draws per purpose, 1-3 dice, other sides."""
    rng = np.random.default_rng(2)
    seeds = [0, 1, 2**63, 2**64 - 1, 2**64 + 5, 2**70 + 3]
    seeds += [int(s) for s in rng.integers(0, 2**63, 300)]
    n = len(seeds)
    idx = np.arange(n)
    dice = BatchedDice(n, PURPOSES + ("other",))
    dice.seed(idx, seeds)
    scalar = [Dice(s) for s in seeds]
    purposes = PURPOSES + ("other",)
    for round_ in range(12):
        if round_:                        # the first round draws in the empty stream
            length = round_ % 4
            keys = [rng.integers(0, 2**40, n) for _ in range(length)]
            dice.set_stream(idx, *keys)
            for i, d in enumerate(scalar):
                d.set_stream(*(int(k[i]) for k in keys))
        for _ in range(10):
            purpose = purposes[rng.integers(len(purposes))]
            count, sides = int(rng.integers(1, 4)), int(rng.choice([2, 6, 20, 100]))
            got = dice.roll(idx, purpose, dice=count, sides=sides)
            want = [d.roll(purpose, dice=count, sides=sides) for d in scalar]
            assert got.tolist() == want, (round_, purpose, count, sides)
            raw = dice.draw(idx, purpose)[:, 0]
            assert raw.tolist() == [d.randbelow(purpose, 2**64) for d in scalar]
    # a subset of the games draws alone; the others' counters do not move
    some = idx[::3]
    got = dice.roll(some, "steal")
    assert got.tolist() == [scalar[i].roll("steal") for i in some]
    assert dice.roll(idx, "steal").tolist() == [d.roll("steal") for d in scalar]


def test_a_stream_entered_from_its_prefix_is_the_same_stream():
    dice = BatchedDice(50, ("at_bat",))
    idx = np.arange(50)
    dice.seed(idx, np.arange(50) * 977)
    halves, pas = np.arange(50) % 19, np.arange(50) % 7
    dice.set_stream(idx, halves, pas)
    whole = dice.roll(idx, "at_bat", dice=2)
    dice.set_prefix(idx, halves)
    dice.set_stream_after_prefix(idx, pas)
    assert dice.roll(idx, "at_bat", dice=2).tolist() == whole.tolist()


@pytest.mark.parametrize("seeds, match", [([-1, 3], "non-negative"), ([1.5], "non-negative ints"),
                                          ([True], "non-negative ints"), (["7"], "non-negative")])
def test_bad_seeds_are_named(seeds, match):
    dice = BatchedDice(len(seeds), ("at_bat",))
    with pytest.raises(ValueError, match=match):
        dice.seed(np.arange(len(seeds)), seeds)


# -- parity with the scalar engine --------------------------------------------------------
def _expected(states, lineups, seat):
    return np.stack([encode_view(make_view(s, seat, None, lineups)) for s in states])


class Parity:
    """Plays a batch and the scalar games side by side, comparing after every step; counts
    what the games went through."""

    def __init__(self, games: BatchedGames, rng: np.random.Generator):
        self.games, self.rng = games, rng
        self.away, self.home = games.teams
        self.lineups = (self.away.aas, self.home.aas)
        self.states: list = [None] * games.num_games
        self.seeds = np.zeros(games.num_games, dtype=np.int64)
        self.counts = np.zeros(games.num_games, dtype=np.int64)   # decisions in each game
        self.step_no = 0
        self.finished = 0
        self.decisions_taken = 0
        self.taken = np.zeros((len(rules.DECISION_KINDS), len(rules.ACTIONS)), dtype=np.int64)
        self.plays: set[str] = set()
        self.just_over: set[int] = set()
        self.walk_offs = self.extra_innings = self.home_need_not_bat = self.truncated = 0
        self.without_a_decision = 0      # games over before their first decision

    def start(self, seeds, index=None):
        g = self.games
        which = np.arange(g.num_games) if index is None else np.asarray(index)
        if which.dtype == bool:
            which = np.flatnonzero(which)
        g.reset(np.asarray(seeds), index)
        for i, seed in zip(which, seeds):
            self.states[i] = rules.new_game(self.away, self.home, Dice(int(seed)), g.innings,
                                            g.max_innings)
            self.seeds[i] = seed
            self.counts[i] = 0
        self.fresh = set(int(i) for i in which)
        self.check()
        for i in self.fresh:
            if self.states[i].over:
                self.without_a_decision += 1
                self.game_over(i)
        self.fresh = set()

    def where(self, i) -> str:
        return f"game {i} (seed {self.seeds[i]}) after step {self.step_no}"

    def check(self):
        """Everything the batch shows equals the scalar games' (games over are checked once,
        when they end)."""
        g, states = self.games, self.states
        rows = [i for i, s in enumerate(states) if not s.over or i in self.just_over or i in self.fresh]
        if not rows:
            return
        sub = [states[i] for i in rows]
        r = np.array(rows)
        kind = np.array([-1 if s.pending is None else KIND[s.pending.kind] for s in sub])
        actor = np.array([-1 if s.pending is None else s.pending.actor for s in sub])
        subject = np.array([-1 if s.pending is None else s.pending.subject for s in sub])
        mask = np.zeros((len(sub), len(rules.ACTIONS)), dtype=bool)
        for j, s in enumerate(sub):
            mask[j, list(rules.legal_actions(s))] = True
        checks = [("kind", g.kind[r], kind), ("actor", g.actor[r], actor),
                  ("subject", g.subject[r], subject), ("mask", g.mask[r], mask),
                  ("over", g.over[r], np.array([s.over for s in sub])),
                  ("runs", g.runs[r], np.array([s.board.runs for s in sub]))]
        checks.append(("observation of seat 0", g.observe(0)[r], _expected(sub, self.lineups, 0)))
        checks.append(("observation of seat 1 (these games)", g.observe(1, r),
                       _expected(sub, self.lineups, 1)))
        # a seat per game: the acting manager's (the away manager's when over)
        seats = np.maximum(g.actor, 0)
        checks.append(("observation of the acting seat", g.observe(seats)[r],
                       np.stack([encode_view(make_view(s, int(seats[i]), None, self.lineups))
                                 for i, s in zip(rows, sub)])))
        for name, got, want in checks:
            assert got.shape == want.shape, (name, got.shape, want.shape)
            bad = np.flatnonzero((got != want).reshape(len(rows), -1).any(axis=1))
            if bad.size:
                j = bad[0]
                detail = ""
                if name.startswith("observation"):
                    cols = np.flatnonzero(got[j] != want[j])
                    detail = " at " + ", ".join(f"{_piece_of(c)} (index {c}): {got[j][c]}, the "
                                                f"scalar engine {want[j][c]}" for c in cols)
                else:
                    detail = f": {got[j]!r}, the scalar engine {want[j]!r}"
                pytest.fail(f"{name} differs in {len(bad)} games, first {self.where(rows[j])}{detail}")
        for i in rows:
            s = states[i]
            if s.over:
                want_winner = -1 if s.winner is None else s.winner
                assert g.winner[i] == want_winner, self.where(i)
                assert g.truncated[i] == s.truncated, self.where(i)
                assert not g.mask[i].any() and g.actor[i] == -1, self.where(i)
            else:
                assert g.winner[i] == -1 and not g.truncated[i], self.where(i)

    def game_over(self, i):
        s = self.states[i]
        b = s.board
        self.finished += 1
        assert self.games.decisions[i] == self.counts[i], self.where(i)
        self.decisions_taken += self.counts[i]
        self.plays |= {p.kind for p in s.log.plays} | {p.detail for p in s.log.plays if p.detail}
        self.truncated += b.truncated
        self.extra_innings += b.inning > b.innings
        self.walk_offs += b.winner == 1 and b.half == 1
        self.home_need_not_bat += b.winner == 1 and b.half == 0

    def actions(self) -> np.ndarray:
        """Uniform over the legal actions; 99 (ignored) for a game that is over."""
        g = self.games
        a = np.argmax(g.mask * self.rng.random(g.mask.shape), axis=1)
        return np.where(g.over, 99, a)

    def play(self, seeds, restart_seeds=(), restart_with_mask=False, some_act=False):
        """Play the batch to the end; each finished game is restarted with the next of
        ``restart_seeds`` while any are left (by index, or by a bool mask). With ``some_act``
        each step a random part of the games acts (``step(actions, index)``) and the others
        wait, whatever action they are given."""
        g = self.games
        restart = list(restart_seeds)
        self.start(seeds)
        while not g.over.all() or restart:
            a = self.actions()
            index = None
            live = np.flatnonzero(~g.over)
            if some_act:
                chosen = self.rng.random(g.num_games) < 0.6
                a = np.where(chosen, a, 77)              # an illegal action, never taken
                live = live[chosen[live]]
                index = chosen if self.step_no % 2 else np.flatnonzero(chosen)
            for i in live:
                s = self.states[i]
                self.taken[KIND[s.pending.kind], a[i]] += 1
                rules.apply_action(s, int(a[i]))
                self.counts[i] += 1
            g.step(a, index)
            self.step_no += 1
            self.just_over = {int(i) for i in live if self.states[i].over}
            self.check()
            for i in self.just_over:
                self.game_over(i)
            done = np.flatnonzero(g.over)
            if restart and done.size:
                done = done[:len(restart)]
                seeds, restart = restart[:done.size], restart[done.size:]
                index = done
                if restart_with_mask:
                    index = np.zeros(g.num_games, dtype=bool)
                    index[done] = True
                self.start(seeds, index)
            self.just_over = set()
        return self


def _piece_of(column: int) -> str:
    return next(name for name, size, _ in OBS.pieces
                if OBS.offset[name] <= column < OBS.offset[name] + size)


def _seeds(n, start, step=7919):
    return [start + step * i for i in range(n)]


def test_parity_default_game_1000_games_in_one_batch():
    """The default game (sample at reds, nine innings), 1,000 games at once plus 200
    restarted in place: and the run reaches every decision, every action at it, and the
    plays the rulebook makes rare."""
    games = BatchedGames(1000)
    p = Parity(games, np.random.default_rng(11)).play(_seeds(1000, 0), _seeds(200, 10**9))
    assert p.finished == 1200
    for kind, k in KIND.items():
        legal = {"dp_runner": [1, 2, 3]}.get(kind, [0, 1, 2, 3] if kind in ("steal", "pickoff")
                                             else [0, 4])
        for action in legal:
            assert p.taken[k, action] > 0, (kind, action)
    for play in ("steal", "caught_stealing", "picked_off", "pickoff_safe", "pickoff_error",
                 "tag_up", "tag_held", "1B", "2B", "3B", "HR", "BB", "HBP", "SO", "FO", "GO",
                 "E", "DP"):
        assert play in p.plays, play
    assert p.walk_offs > 20 and p.extra_innings > 20 and p.home_need_not_bat > 100
    assert p.truncated == 0 and games.winner[games.over].min() >= 0
    assert p.decisions_taken > 100_000


@pytest.mark.parametrize("num_games, teams, innings, max_innings, games_in_all, some_act", [
    (1, ("sample", "reds"), 9, None, 15, False),
    (7, ("sample", "reds"), 9, None, 60, True),
    (600, ("sample", "reds"), 3, 4, 600, False),
    (400, ("sample", "reds"), 1, 1, 500, False),
    (250, ("reds", "sample"), 9, 9, 250, False),
    (150, ("nya1927", "cin1975"), 9, None, 150, True),
    (150, ("lan2024", "chn2016"), 5, 6, 200, False),
    (150, ("bos2004", "nya2004"), 2, 3, 150, False),
])
def test_parity_over_batch_sizes_options_and_teams(num_games, teams, innings, max_innings,
                                                   games_in_all, some_act):
    """Batch sizes from 1 up, short games, ``max_innings`` cut-offs, other teams; finished
    games restart in place (by index or by mask); in two runs only part of the batch acts
    at each step (``step(actions, index)``) as when a learner's opponent moves alone."""
    games = BatchedGames(num_games, teams=teams, innings=innings, max_innings=max_innings)
    seed = zlib.crc32(repr((num_games, teams, innings, max_innings)).encode())
    restarts = _seeds(games_in_all - num_games, 5 * 10**8 + seed)
    p = Parity(games, np.random.default_rng(seed)).play(
        _seeds(num_games, seed), restarts, restart_with_mask=num_games % 2 == 1,
        some_act=some_act)
    assert p.finished == games_in_all
    if max_innings is not None:
        assert p.truncated > 0 and games.truncated.sum() == (games.winner < 0).sum()
    if innings == 1:                    # six outs in a row with nobody on: over at reset
        assert p.without_a_decision > 0
    if games_in_all >= 150 and (max_innings is None or max_innings > innings):
        assert p.extra_innings > 0


def test_every_built_in_team_and_team_objects():
    """Teams given as Team objects, dicts and names play the same games; every built-in team
    plays a few parity games."""
    rng = np.random.default_rng(3)
    names = list(BUILTIN_TEAMS)
    for away, home in zip(names, names[1:] + names[:1]):
        games = BatchedGames(12, teams=(load_team(away), load_team(home).to_dict()))
        Parity(games, rng).play(_seeds(12, 77))


# -- the API -----------------------------------------------------------------------------
def test_a_new_batch_holds_no_game_and_reset_plays_to_the_first_decision():
    games = BatchedGames(5)
    assert games.over.all() and (games.kind == -1).all() and not games.mask.any()
    games.step(np.array([7, 7, 7, 7, 7]))               # all over: every action ignored
    games.reset([1, 2, 3, 4, 5])
    assert not games.over.any() and (games.kind >= 0).all() and games.mask.any(axis=1).all()
    assert (games.decisions == 0).all()
    assert games.observe(0).shape == (5, OBS.size) and games.observe(0).dtype == np.float32
    # reset a subset: the others keep their games
    games.step(np.argmax(games.mask, axis=1))
    kept = games.clone()
    games.reset([9], index=[2])
    for name in ("kind", "runs", "bases", "decisions", "inning", "outs"):
        a, b = getattr(games, name), getattr(kept, name)
        assert np.array_equal(np.delete(a, 2, axis=0), np.delete(b, 2, axis=0)), name
    fresh = BatchedGames(1)
    fresh.reset([9])
    assert np.array_equal(games.observe(1)[2], fresh.observe(1)[0])
    assert games.decisions[2] == 0 and (games.decisions[[0, 1, 3, 4]] == 1).all()


def test_clone_plays_on_alone():
    games = BatchedGames(64)
    games.reset(np.arange(64))
    rng = np.random.default_rng(0)
    for _ in range(30):
        games.step(np.argmax(games.mask * rng.random(games.mask.shape), axis=1))
    copy = games.clone()
    snapshot = copy.observe(0)
    moves = []
    for _ in range(40):
        moves.append(np.argmax(games.mask * rng.random(games.mask.shape), axis=1))
        games.step(moves[-1])
    assert np.array_equal(copy.observe(0), snapshot)    # the copy did not move
    for a in moves:
        copy.step(a)
    for name in ("kind", "mask", "runs", "bases", "over", "winner", "decisions"):
        assert np.array_equal(getattr(copy, name), getattr(games, name)), name
    assert np.array_equal(copy.observe(1), games.observe(1))
    assert copy.copy().bases.base is not games.bases.base


def _state(games):
    return {k: v.copy() for k, v in vars(games).items() if isinstance(v, np.ndarray)}


def test_an_illegal_action_names_the_games_and_changes_nothing():
    games = BatchedGames(6)
    games.reset(np.arange(6) + 40)
    legal = np.argmax(games.mask, axis=1)
    bad = legal.copy()
    illegal = [a for a in range(5) if not games.mask[3, a]][0]
    bad[3] = illegal
    bad[5] = 9
    before = _state(games)
    with pytest.raises(IllegalActionError) as err:
        games.step(bad)
    text = str(err.value)
    assert "2 game(s)" in text and f"game 3: action {illegal}" in text and "game 5: action 9" in text
    assert rules.DECISION_KINDS[games.kind[3]] in text and "legal:" in text
    assert isinstance(err.value, ValueError)
    after = _state(games)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    games.step(legal)                                  # and the batch plays on
    assert (games.decisions == 1).all()


@pytest.mark.parametrize("actions, match", [
    (np.zeros(5, dtype=np.int64), r"shape \(6,\).*got shape \(5,\)"),
    (np.zeros((6, 1), dtype=np.int64), r"shape \(6,\).*got shape \(6, 1\)"),
    (0, r"shape \(6,\).*got shape \(\)"),
    (np.zeros(6), "ints, got dtype float64"),
    (np.zeros(6, dtype=bool), "ints, got dtype bool"),
])
def test_actions_of_the_wrong_shape_or_type_are_refused(actions, match):
    games = BatchedGames(6)
    games.reset(np.arange(6))
    with pytest.raises(ValueError, match=match):
        games.step(actions)


def test_bad_reset_and_observe_arguments_are_named():
    games = BatchedGames(4)
    with pytest.raises(ValueError, match=r"seeds must have shape \(4,\).*got shape \(3,\)"):
        games.reset([1, 2, 3])
    with pytest.raises(ValueError, match=r"seeds must have shape \(2,\)"):
        games.reset([1, 2, 3], index=[0, 1])
    with pytest.raises(ValueError, match="non-negative"):
        games.reset([1, -2, 3, 4])
    with pytest.raises(ValueError, match=r"bool index must have shape \(4,\)"):
        games.reset([1], index=np.array([True, False]))
    with pytest.raises(ValueError, match=r"0\.\.3, got \[4\]"):
        games.reset([1], index=[4])
    with pytest.raises(ValueError, match="listed twice"):
        games.reset([1, 2], index=[1, 1])
    with pytest.raises(ValueError, match="1-D array of game indices"):
        games.reset([1], index=[[0]])
    games.reset(np.array([1, 2, 3, 4], dtype=np.uint64))
    games.reset([5, 6], index=np.array([True, False, True, False]))
    for seat, match in [(2, r"0 \(away\) or 1 \(home\); got 2"), (-1, "got -1"),
                        (np.array([0, 1]), r"shape \(4,\); got dtype int64, shape \(2,\)"),
                        (0.0, "got dtype float64")]:
        with pytest.raises(ValueError, match=match):
            games.observe(seat)
    seats = np.array([0, 1, 1, 0])
    mixed = games.observe(seats)
    for i, s in enumerate(seats):
        assert np.array_equal(mixed[i], games.observe(s)[i])
    assert np.array_equal(games.observe(seats[[3, 1]], [3, 1]), mixed[[3, 1]])
    assert np.array_equal(games.observe(1, np.array([False, True, True, False])),
                          games.observe(1)[1:3])
    with pytest.raises(ValueError, match=r"observe: seat .* shape \(2,\); got dtype int64, shape \(4,\)"):
        games.observe(seats, [0, 1])
    with pytest.raises(ValueError, match=r"observe: game indices must be in 0\.\.3, got \[7\]"):
        games.observe(0, [7])
    actions = np.argmax(games.mask, axis=1)
    with pytest.raises(ValueError, match=r"step: game indices must be in 0\.\.3, got \[-1\]"):
        games.step(actions, [-1])
    with pytest.raises(ValueError, match=r"step: a bool index must have shape \(4,\)"):
        games.step(actions, [True])


@pytest.mark.parametrize("options, error, match", [
    ({"num_games": 0}, OptionError, "num_games must be a positive int, got 0"),
    ({"num_games": 2.0}, OptionError, "num_games must be a positive int, got 2.0"),
    ({"num_games": True}, OptionError, "num_games must be a positive int, got True"),
    ({"innings": 0}, OptionError, "innings must be an int from 1 to 9"),
    ({"innings": 10}, OptionError, "innings must be an int from 1 to 9"),
    ({"innings": "9"}, OptionError, "innings must be an int"),
    ({"innings": 5, "max_innings": 4}, OptionError, r"max_innings must be None or an int from innings \(5\)"),
    ({"max_innings": 100}, OptionError, "max_innings"),
    ({"teams": "sample"}, OptionError, r"teams must be a pair \(away, home\)"),
    ({"teams": ("sample", "nobody")}, DataError, "unknown team 'nobody'"),
])
def test_bad_options_are_named(options, error, match):
    options = {"num_games": 3, **options}
    with pytest.raises(error, match=match):
        BatchedGames(options.pop("num_games"), **options)


def test_numpy_ints_are_accepted_as_options():
    games = BatchedGames(np.int64(3), innings=np.int32(3), max_innings=np.int16(4))
    assert (games.num_games, games.innings, games.max_innings) == (3, 3, 4)
    assert type(games.innings) is int


# -- statistics ------------------------------------------------------------------------------
def _runs_per_half_inning(runs, halves):
    """The ratio of total runs to half innings played, and its standard error (delta method
    over games, which are independent)."""
    runs, halves = np.asarray(runs, dtype=float), np.asarray(halves, dtype=float)
    ratio = runs.sum() / halves.sum()
    n = len(runs)
    resid = runs - ratio * halves
    se = math.sqrt(resid.var(ddof=1) / n) / halves.mean()
    return ratio, se


def test_runs_per_half_inning_agree_with_the_scalar_engine():
    """A fixed policy (the highest legal action: steal and throw at the lead runner, always
    roll), on seeds the two engines do not share: runs per half inning agree within four
    standard errors of the difference."""
    n_batch, n_scalar = 4000, 1000
    games = BatchedGames(n_batch)
    games.reset(np.arange(n_batch) + 10**6)
    choose = np.arange(1, len(rules.ACTIONS) + 1)
    while not games.over.all():
        games.step(np.argmax(games.mask * choose, axis=1))
    b_halves = 2 * (games.inning.astype(int) - 1) + games.half + 1
    b_ratio, b_se = _runs_per_half_inning(games.runs.sum(axis=1), b_halves)

    away, home = games.teams
    runs, halves = [], []
    for seed in range(2 * 10**6, 2 * 10**6 + n_scalar):
        s = rules.new_game(away, home, Dice(seed))
        while not s.over:
            rules.apply_action(s, max(rules.legal_actions(s)))
        runs.append(sum(s.board.runs))
        halves.append(2 * (s.board.inning - 1) + s.board.half + 1)
    s_ratio, s_se = _runs_per_half_inning(runs, halves)
    tolerance = 4 * math.hypot(b_se, s_se)
    assert abs(b_ratio - s_ratio) < tolerance, (b_ratio, s_ratio, tolerance)
    assert 0.3 < b_ratio < 1.5 and tolerance < 0.1      # a real game, and a test with teeth
