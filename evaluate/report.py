"""Tables, report folders and plots for tournaments.

``write_report(result, folder)`` writes::

    results.json         every figure (TournamentResult.to_dict(), plus extras such as a CRN check)
    matchups.csv         one row per matchup
    ratings.csv          one row per manager
    pairs.csv            every pair of games: seed, both scores and winners (to re-analyse)
    summary.md           the tables below, in Markdown
    winrate_matrix.png   each manager's win rate against each other one, as a heatmap
    ratings.png          Bradley-Terry ratings (Elo scale) with their 95% bootstrap intervals

The plots need matplotlib (``pip install -e .[plots]``); without it the rest is written
and a note says why the PNGs are missing.
"""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..envs.options import describe_options
from .tournament import TournamentResult

__all__ = ["matchup_table", "ratings_table", "home_line", "sprt_line", "crn_table", "write_report",
           "plot_winrate_matrix", "plot_ratings", "markdown_table", "text_table"]


# -- tables (text and Markdown share their rows) ------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(lo: float, hi: float, pct: bool = True, digits: int = 1) -> str:
    if pct:
        return f"{100 * lo:.{digits}f}-{100 * hi:.{digits}f}%"
    return f"{lo:+.{digits}f} to {hi:+.{digits}f}"


MATCHUP_HEADER = ("A", "B", "games", "A score", "95% interval", "A away win", "A home win",
                  "A run diff/game", "home win", "verdict")


def matchup_rows(d: dict[str, Any]) -> list[tuple[str, ...]]:
    rows = []
    for m in d["matchups"]:
        rows.append((m["a"], m["b"], f"{m['games']:,}", _pct(m["a_score"]),
                     _interval(m["a_score_low"], m["a_score_high"]),
                     _pct(m["a_away_win_rate"]), _pct(m["a_home_win_rate"]),
                     f"{m['a_run_diff']:+.2f} ({_interval(m['a_run_diff_low'], m['a_run_diff_high'], False, 2)})",
                     _pct(m["home_win_rate"]), m["verdict"]))
    return rows


RATINGS_HEADER = ("manager", "Elo (Bradley-Terry)", "95% bootstrap interval", "mean score")


def ratings_rows(d: dict[str, Any]) -> list[tuple[str, ...]]:
    scores: dict[str, list[float]] = {r["agent"]: [] for r in d["ratings"]}
    for m in d["matchups"]:
        scores[m["a"]].append(m["a_score"])
        scores[m["b"]].append(1 - m["a_score"])
    rows = []
    for r in sorted(d["ratings"], key=lambda r: -r["elo"]):
        s = scores[r["agent"]]
        rows.append((r["agent"], f"{r['elo']:+.0f}", f"{r['low']:+.0f} to {r['high']:+.0f}",
                     _pct(sum(s) / len(s)) if s else "-"))
    return rows


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def matchup_table(d: dict[str, Any]) -> str:
    return text_table(MATCHUP_HEADER, matchup_rows(d))


def ratings_table(d: dict[str, Any]) -> str:
    return text_table(RATINGS_HEADER, ratings_rows(d))


def home_line(d: dict[str, Any]) -> str:
    h = d["home_advantage"]
    return (f"home advantage: the home team won {_pct(h['home_win_rate'])} of {h['games']:,} games "
            f"(95% interval over pairs {_interval(h['low'], h['high'])}); the home side also "
            f"fields the env's home lineup, so this includes any difference between the teams")


def sprt_line(d: dict[str, Any]) -> str | None:
    s = d.get("sprt")
    if not s:
        return None
    from .stats import score_to_elo
    return (f"SPRT: H0 score {s['mu0']:.3f} ({score_to_elo(s['mu0']):+.0f} Elo) against H1 "
            f"{s['mu1']:.3f} ({score_to_elo(s['mu1']):+.0f} Elo), alpha {s['alpha']}, beta {s['beta']}, "
            f"both ways; at most {d['games_per_matchup']:,} games a matchup")


CRN_HEADER = ("design", "games", "A score", "95% interval", "half-width", "pair-score variance")


def crn_rows(c: dict[str, Any]) -> list[tuple[str, ...]]:
    rows = []
    for design, label in (("paired", "same seed (common random numbers)"),
                          ("independent", "independent dice")):
        x = c[design]
        rows.append((label, f"{c['games']:,}", _pct(x["a_score"]), _interval(x["low"], x["high"], digits=2),
                     f"{100 * x['half_width']:.2f} pts", f"{x['pair_variance']:.4f}"))
    return rows


def rules_line(d: dict[str, Any]) -> str:
    """The env options the games were played under (results' ``env_options``)."""
    options = d.get("env_options") or {}
    if not options:
        return f"Rules: `{d['env']}` with its default options."
    shown = ", ".join(f"`{k}={v if isinstance(v, str) else json.dumps(v)}`" for k, v in options.items())
    return f"Rules: `{d['env']}` with {shown} (its defaults for the rest)."


def crn_table(c: dict[str, Any]) -> str:
    rules = f" ({describe_options(c['env_options'])})" if c.get("env_options") else ""
    return (f"{c['a']} vs {c['b']} on {c['env']}{rules}\n" + text_table(CRN_HEADER, crn_rows(c)) +
            f"\n{crn_sentence(c)}")


def crn_sentence(c: dict[str, Any]) -> str:
    return (f"Pairing on the same seed makes the interval {100 * (1 - c['width_ratio']):.0f}% narrower "
            f"(width ratio {c['width_ratio']:.2f}): independent dice would need "
            f"{c['games_factor']:.2f} times as many games for the same precision.")


# -- the report folder --------------------------------------------------------------------------
def write_report(result: TournamentResult, folder: str | Path, extra: dict[str, Any] | None = None,
                 learning_curve: str | Path | None = None, title: str | None = None) -> Path:
    """Write the report of ``result`` into ``folder`` (created); returns the folder.

    ``extra`` is merged into results.json (e.g. ``{"crn": crn_check(...)}``, shown in the
    summary too); ``learning_curve`` is a training run's ``learning_curve.png``, copied in.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    d = result.to_dict()
    d.update(extra or {})
    (folder / "results.json").write_text(json.dumps(_finite(d), indent=2))
    _write_csv(folder / "matchups.csv", [{k: (json.dumps(v) if isinstance(v, (list, dict)) else v)
                                           for k, v in m.items()} for m in d["matchups"]])
    _write_csv(folder / "ratings.csv", d["ratings"])
    _write_csv(folder / "pairs.csv", [
        {"a": m.a, "b": m.b, "seed": p.seed, "a_away_runs": p.a_away[0], "b_home_runs": p.a_away[1],
         "winner_1": p.a_away[2] or "truncated", "b_away_runs": p.a_home[0], "a_home_runs": p.a_home[1],
         "winner_2": p.a_home[2] or "truncated", "a_pair_score": p.score}
        for m in result.matchups for p in m.pairs])
    plots: list[str] = []
    note = None
    try:
        plots.append(plot_winrate_matrix(d, folder / "winrate_matrix.png").name)
        plots.append(plot_ratings(d, folder / "ratings.png").name)
    except ImportError:
        note = "matplotlib is not installed: no plots (pip install -e .[plots])"
    if learning_curve is not None and Path(learning_curve).is_file():
        shutil.copyfile(learning_curve, folder / "learning_curve.png")
        plots.append("learning_curve.png")
    (folder / "summary.md").write_text(summary_markdown(d, plots, note, title))
    return folder


def summary_markdown(d: dict[str, Any], plots: Sequence[str], note: str | None = None,
                     title: str | None = None) -> str:
    lines = [f"# {title or 'Tournament on ' + d['env']}", "",
             f"{', '.join(d['labels'])}: round robin on `{d['env']}`, every seed played twice with the "
             f"seats swapped (seeds from {d['seed']}), {d['games']:,} games in {d['seconds']:.0f} s "
             f"({d['games_per_second']:.0f} games/s, {d['workers']} worker(s)).", "",
             rules_line(d), ""]
    names = {label: agent for label, agent in zip(d["labels"], d["agents"]) if label != agent}
    if names:
        lines += ["Managers: " + "; ".join(f"`{label}` is `{agent}`" for label, agent in names.items()), ""]
    lines += ["## Ratings", "", markdown_table(RATINGS_HEADER, ratings_rows(d)), "",
              f"Bradley-Terry strengths on the Elo scale ({'0 = ' + d['rating_anchor'] if d['rating_anchor'] != 'mean' else 'mean 0'}); "
              "intervals from resampling pairs. Mean score: over all opponents.", "",
              "## Matchups", "", markdown_table(MATCHUP_HEADER, matchup_rows(d)), "",
              "A score: A's mean pair score (wins / games), its 95% interval over pairs. A away/home win: "
              "A's win rate in that seat. Run diff: A's runs minus B's per game, 95% interval. Home win: "
              "the home team's share of the matchup's games.", "", home_line(d), ""]
    if sprt_line(d):
        lines += [sprt_line(d), ""]
    if "crn" in d:
        c = d["crn"]
        lines += ["## Common random numbers", "", f"{c['a']} vs {c['b']}:", "",
                  markdown_table(CRN_HEADER, crn_rows(c)), "", crn_sentence(c), ""]
    if plots:
        lines += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    if note:
        lines += [note, ""]
    lines += ["Methods and references: `dugout.evaluate.stats` (module docstring)."]
    return "\n".join(lines) + "\n"


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        if not rows:
            return
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _finite(x: Any) -> Any:
    """JSON has no infinities: write them as null."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    if isinstance(x, np.generic):
        return _finite(x.item())
    return x


# -- plots ----------------------------------------------------------------------------------------
def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_winrate_matrix(d: dict[str, Any], path: Path) -> Path:
    """Heatmap: row manager's win rate against the column manager, with its interval."""
    plt = _pyplot()
    labels = d["labels"]
    k = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    rate = np.full((k, k), np.nan)
    text = [["" for _ in range(k)] for _ in range(k)]
    for m in d["matchups"]:
        i, j = index[m["a"]], index[m["b"]]
        rate[i, j], rate[j, i] = m["a_score"], 1 - m["a_score"]
        text[i][j] = f"{100 * m['a_score']:.1f}%\n({100 * m['a_score_low']:.0f}-{100 * m['a_score_high']:.0f})"
        text[j][i] = (f"{100 * (1 - m['a_score']):.1f}%\n({100 * (1 - m['a_score_high']):.0f}-"
                      f"{100 * (1 - m['a_score_low']):.0f})")
    size = 1.5 + 1.25 * k
    fig, ax = plt.subplots(figsize=(size + 1.6, size), dpi=120)
    image = ax.imshow(rate * 100, cmap="RdBu", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if i == j:
                ax.text(j, i, "-", ha="center", va="center", color="grey")
                continue
            dark = abs(rate[i, j] - 0.5) > 0.3
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("manager")
    ax.set_title(f"{d['env']}: win rate of row against column\n(95% interval over seat-swapped pairs)",
                 fontsize=10)
    bar = fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label("win rate, %")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_ratings(d: dict[str, Any], path: Path) -> Path:
    """Horizontal bars: each manager's Bradley-Terry rating with its bootstrap interval."""
    plt = _pyplot()
    rows = sorted(d["ratings"], key=lambda r: r["elo"])
    k = len(rows)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.6 * k), dpi=120)
    y = np.arange(k)
    elo = np.array([r["elo"] for r in rows])
    low = np.array([r["low"] for r in rows])
    high = np.array([r["high"] for r in rows])
    ax.errorbar(elo, y, xerr=[elo - low, high - elo], fmt="o", color="tab:blue", ecolor="tab:blue",
                capsize=4)
    span = max(high.max() - low.min(), 50.0)
    for yi, e, hi in zip(y, elo, high):
        ax.text(hi + 0.02 * span, yi, f"{e:+.0f}", va="center", fontsize=9)
    ax.set_xlim(low.min() - 0.08 * span, high.max() + 0.15 * span)
    ax.set_ylim(-0.6, k - 0.4)
    ax.set_yticks(y, [r["agent"] for r in rows])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    anchor = d.get("rating_anchor", "mean")
    ax.set_xlabel(f"Bradley-Terry rating, Elo scale ({'0 = ' + anchor if anchor != 'mean' else 'mean 0'})")
    ax.set_title(f"{d['env']}: ratings with 95% bootstrap intervals (pairs resampled)", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
