"""The statistics of a tournament: intervals, ratings and a sequential test.

Every function here is plain numpy on counts or per-pair scores, so it can be tested on
synthetic numbers. The harness (:mod:`dugout.evaluate.tournament`) plays each seed twice
with the seats swapped and treats the *pair* as the unit of analysis: pairs are
independent of one another, the two games of a pair are not (they share the dice).

Methods
-------
**Wilson score interval** (:func:`wilson_interval`) for a proportion of independent
trials, e.g. the home team's share of wins. Unlike the normal ("Wald") interval it stays
inside [0, 1] and keeps close to its nominal coverage near 0 and 1.
E. B. Wilson (1927), "Probable inference, the law of succession, and statistical
inference", JASA 22:209-212; L. D. Brown, T. T. Cai, A. DasGupta (2001), "Interval
estimation for a binomial proportion", Statistical Science 16:101-133.

**Mean with a normal interval** (:func:`mean_interval`) for per-pair quantities: a
manager's pair score (its wins in the pair / 2, a game cut off by ``max_innings``
counting 1/2, so 0, 1/4, ..., 1) and its run differential per game. The interval is
``mean +- z * sd / sqrt(n)`` with the sample standard deviation of the n pair values: the
central limit theorem over independent pairs. It is the paired-design interval: the
variance it uses is the variance *of pairs*, so whatever the shared dice cancel inside a
pair no longer widens it (see :func:`dugout.evaluate.tournament.crn_check`).

**Bradley-Terry ratings** (:func:`bradley_terry`): P(i beats j) = g_i / (g_i + g_j),
fitted by maximum likelihood with the minorization-maximization (MM) iteration
``g_i <- W_i / sum_j n_ij / (g_i + g_j)`` (W_i: i's wins, n_ij: games between i and j).
D. R. Hunter (2004), "MM algorithms for generalized Bradley-Terry models", Annals of
Statistics 32:384-406 (the update is his eq. 3, first given by Zermelo 1929). A game cut
off counts half a win to each side. The maximum likelihood estimate exists only if no
group of managers wins every game against the rest (Hunter's Assumption 1), so each
pair of managers that met gets ``prior`` virtual wins each way (default 1/2: one virtual
drawn game), which pulls ratings towards each other by a negligible amount over
thousands of games and keeps them finite otherwise. Ratings are reported on the Elo
scale, ``400 log10 g_i``, so a 100-point gap means the better side wins
1 / (1 + 10^(-100/400)) = 64% of its games; they are centred on ``anchor`` (an agent
rated 0) or on their mean.

**Bootstrap intervals for ratings** (:func:`bootstrap_ratings`): the pairs of each matchup
are resampled with replacement (a stratified, nonparametric bootstrap: the pair, not the
game, is the unit drawn, so the dependence inside a pair is kept), Bradley-Terry is
refitted on every resample, and the 2.5% and 97.5% percentiles of each rating form its
95% interval. B. Efron, R. Tibshirani (1993), *An Introduction to the Bootstrap*,
Chapman & Hall, ch. 13 (percentile intervals).

**Sequential probability ratio test** (:class:`SPRT`). A. Wald (1945), "Sequential tests
of statistical hypotheses", Annals of Mathematical Statistics 16:117-186. The log
likelihood ratio of H1 against H0 is summed pair by pair and the test stops when it
leaves (log(beta / (1 - alpha)), log((1 - beta) / alpha)): below accepts H0, above
accepts H1; Wald's bounds keep the error rates at most about alpha and beta. A pair score
is not a Bernoulli trial (it takes values 0, 1/4, ..., 1 and its variance depends on how
much the shared dice cancel), so the likelihood of the mean score is approximated by a
normal one with the observed variance, the generalized SPRT used by chess engine
testing (Fishtest): after n pairs with mean x and variance s^2,
``LLR = n (mu1 - mu0) (2 x - mu0 - mu1) / (2 s^2)``. The margin is given as Elo points
(``elo0``, ``elo1``; expected score ``1 / (1 + 10^(-elo / 400))``) or as win
probabilities (``p0``, ``p1``). To let *either* manager be shown better, two tests run
side by side on the same pairs, "A is better than B by the margin" and "B is better than
A by the margin"; the run stops as soon as one accepts its H1 (that manager is better),
or once both accept H0 (neither is better by the margin). The chance of wrongly naming
a better manager is then at most about 2 alpha. M. Van den Bergh, "Normalized Elo and
the GSPRT" (Fishtest documentation) derives the approximation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["wilson_interval", "mean_interval", "elo_to_score", "score_to_elo", "bradley_terry",
           "bootstrap_ratings", "SPRT", "SPRTResult", "Z95"]

Z95 = 1.959963984540054        # the 97.5% point of the standard normal


# -- proportions and means ---------------------------------------------------------------------
def wilson_interval(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes out of ``n`` independent trials."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)      # exact ends, not 1 - 1e-16
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of independent values and its normal 95% interval.

    Fewer than two values give an interval as wide as the values' range can make it
    (``(-inf, inf)``): no variance can be estimated from one value.
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = float(x.mean())
    if x.size < 2:
        return mean, -math.inf, math.inf
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean, mean - half, mean + half


def elo_to_score(elo: float) -> float:
    """The expected score of a side rated ``elo`` points above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (+-inf at 1 and 0)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


# -- Bradley-Terry ------------------------------------------------------------------------------
def bradley_terry(wins: np.ndarray, prior: float = 0.5, anchor: int | None = None,
                  tol: float = 1e-10, max_iter: int = 10_000) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale from a matrix of wins.

    ``wins[i, j]`` is how many games manager i won against manager j (a truncated game
    adds 1/2 to both cells). Each pair that met gets ``prior`` virtual wins each way.
    Returns one rating per manager: 0 for ``anchor`` if given, else mean 0. Fitted with
    Hunter's (2004) MM iteration until no strength moves by more than ``tol`` (relative).
    """
    w = np.array(wins, dtype=float)
    k = w.shape[0]
    if w.shape != (k, k):
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    if np.any(w < 0):
        raise ValueError("wins must be non-negative")
    games = w + w.T
    np.fill_diagonal(games, 0.0)
    met = games > 0
    w = np.where(met, w + prior, 0.0)
    games = np.where(met, games + 2 * prior, 0.0)
    total_wins = w.sum(axis=1)
    if np.any(total_wins <= 0):
        lonely = [i for i in range(k) if total_wins[i] <= 0]
        raise ValueError(f"managers {lonely} have no games (or no wins and prior=0): "
                         "their rating is not defined")
    g = np.ones(k)
    for _ in range(max_iter):
        denom = (games / (g[:, None] + g[None, :])).sum(axis=1)
        new = total_wins / denom
        new /= np.exp(np.log(new).mean())          # fix the scale: geometric mean 1
        done = np.max(np.abs(new - g) / g) < tol
        g = new
        if done:
            break
    ratings = 400.0 * np.log10(g)
    return ratings - (ratings[anchor] if anchor is not None else ratings.mean())


def bootstrap_ratings(pair_wins: Sequence[tuple[int, int, np.ndarray, np.ndarray]], k: int,
                      samples: int = 1000, seed: int = 0, prior: float = 0.5,
                      anchor: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bradley-Terry ratings with 95% percentile-bootstrap intervals, resampling pairs.

    ``pair_wins`` holds one entry per matchup: ``(i, j, wins_i, wins_j)`` where
    ``wins_i[p]`` / ``wins_j[p]`` are i's and j's wins in pair p (0, 1 or 2, halves for
    truncated games). Returns ``(ratings, low, high)``, each of length ``k``.
    """
    def matrix(choice: list[np.ndarray] | None) -> np.ndarray:
        m = np.zeros((k, k))
        for n, (i, j, wi, wj) in enumerate(pair_wins):
            idx = slice(None) if choice is None else choice[n]
            m[i, j] += np.asarray(wi, dtype=float)[idx].sum()
            m[j, i] += np.asarray(wj, dtype=float)[idx].sum()
        return m

    point = bradley_terry(matrix(None), prior=prior, anchor=anchor)
    rng = np.random.default_rng(seed)
    draws = np.empty((samples, k))
    for b in range(samples):
        choice = [rng.integers(0, len(wi), len(wi)) for (_, _, wi, _) in pair_wins]
        draws[b] = bradley_terry(matrix(choice), prior=prior, anchor=anchor)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    return point, low, high


# -- the sequential probability ratio test ------------------------------------------------------
@dataclass(frozen=True)
class SPRTResult:
    """Where a sequential test stands after ``pairs`` pairs."""
    decision: str             # "A better", "B better", "neither better by the margin", or "continue"
    pairs: int
    llr_a: float              # log likelihood ratio of "A better by the margin" (H1) against H0
    llr_b: float              # the same for B
    lower: float              # Wald's bounds
    upper: float


@dataclass(frozen=True)
class SPRT:
    """Wald's SPRT on seat-swapped pairs, both ways at once (see the module docstring).

    ``mu0`` and ``mu1`` are the expected pair scores under H0 and H1 of "A is better by
    the margin" (e.g. ``SPRT.from_elo(0, 30)``: H0 no better, H1 30 Elo better); the
    mirror test for B uses ``1 - mu0`` and ``1 - mu1``. ``min_pairs`` pairs are played
    before the first look, so the variance estimate is not wild.
    """
    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_pairs: int = 20

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, got {value}")
        if not 0 < self.mu0 < self.mu1 < 1:
            raise ValueError(f"SPRT needs 0 < p0 < p1 < 1 (H1 must claim more than H0), "
                             f"got p0={self.mu0}, p1={self.mu1}")
        if self.mu0 < 0.5:
            raise ValueError(f"SPRT p0 must be at least 0.5 (elo0 >= 0) so that 'A better' "
                             f"and 'B better' cannot both be accepted, got p0={self.mu0}")
        if self.min_pairs < 2:
            raise ValueError("SPRT min_pairs must be at least 2")

    @classmethod
    def from_elo(cls, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                 min_pairs: int = 20) -> "SPRT":
        return cls(elo_to_score(elo0), elo_to_score(elo1), alpha, beta, min_pairs)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, scores: np.ndarray, mu0: float, mu1: float) -> np.ndarray:
        """The log likelihood ratio after each prefix of ``scores`` (normal approximation)."""
        x = np.asarray(scores, dtype=float)
        n = np.arange(1, x.size + 1)
        mean = np.cumsum(x) / n
        var = np.maximum(np.cumsum(x * x) / n - mean ** 2, 1e-6)   # floor: all pairs alike
        return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * var)

    def run(self, scores: Sequence[float]) -> SPRTResult:
        """Look after every pair of ``scores`` (A's pair scores, in seed order) from
        ``min_pairs`` on; stop at the first pair where the test decides."""
        x = np.asarray(scores, dtype=float)
        lower, upper = self.bounds
        if x.size == 0:
            return SPRTResult("continue", 0, 0.0, 0.0, lower, upper)
        la = self.llr(x, self.mu0, self.mu1)
        lb = self.llr(1.0 - x, self.mu0, self.mu1)
        for n in range(self.min_pairs, x.size + 1):
            a, b = la[n - 1], lb[n - 1]
            if a >= upper:
                return SPRTResult("A better", n, float(a), float(b), lower, upper)
            if b >= upper:
                return SPRTResult("B better", n, float(a), float(b), lower, upper)
            if a <= lower and b <= lower:
                return SPRTResult("neither better by the margin", n, float(a), float(b),
                                  lower, upper)
        return SPRTResult("continue", int(x.size), float(la[-1]), float(lb[-1]), lower, upper)
