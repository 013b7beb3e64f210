"""Bottom of the 9th card balance: every batter card against every pitcher card.

Run it with::

    dugout cards                     # the built-in set
    dugout cards --pas 20 --seed 1 --out balance/
    dugout cards --cards my_cards.json

(``python -m dugout.studies.bottom_ninth_cards`` is the same.) The card file is read and
checked like the env's own (``bottom_ninth_v0(cards=...)``), and the cards named by
``--batters``/``--pitchers`` must be in it, before any plate appearance is played.

What is measured
----------------
For every batter card B and every pitcher card P of the set, ``--pas`` plate appearances
of B against P, each the duel's **first** plate appearance: the bottom of the 9th, 0 outs,
bases empty, count 0-0, the pitcher fresh (both Fatigue tokens at the top). Both sides are
the ``"heuristic"`` manager (:mod:`dugout.agents.bottom_ninth`). Each plate appearance is
one game of ``bottom_ninth_v0`` (``mode="duel"``) played through the engine until the
first plate appearance ends (the state's ``pa`` count goes to 1, or the game ends); its
outcome is the play log's first ``"pa"`` play. Nothing of the rules is re-implemented.

* **The teams.** ``teams={"batters": [B, five others], "pitchers": [P, another]}``: B leads
  off; the five others are the first batters of the set, in its order, that keep a legal
  six-position lineup with B (a bipartite matching, :func:`~dugout.envs.bottom_ninth.cards.
  matching_size`); the substitute is the first other pitcher of the set. Neither comes into
  the first plate appearance.
* **Roles.** The set is passed as a modified copy (``cards=`` a dict) in which **every
  pitcher's role is "either"**, so Relief-only cards can start for the measurement. A
  reliever coming in during a real duel starts with his tokens at row 1; here every pitcher
  is measured fresh at row 0.
* **The managers' cards.** The heuristic reads the card set from its view (``view.cards``),
  so a ``--cards`` file is priced with its own cards.
* **Seeds.** Plate appearance k of the pair (B, P) plays game seed
  ``SeedSequence([seed, b, p, k])`` (b, p the cards' indices in the set) and seeds the
  managers (away, home) with ``2 * game seed`` and ``2 * game seed + 1``, like
  :func:`dugout.agents.play.play_game`. Every plate appearance has dice of its own, so the
  plate appearances are independent and a card's count is binomial; a pair's numbers do not
  depend on which other cards are measured, and a larger ``--pas`` extends a smaller one.

Outcomes: **reached** = the batter reached base safely (single, double, triple, home run,
walk, hit by pitch, error, fielder's choice) or a run scored on the play; **run** = a run
scored on the play (with the bases empty only a home run scores, so run = home run);
**win value** = the batting side's chance to win from the situation the plate appearance
leaves, read off the blank-card table :func:`dugout.agents.bottom_ninth.win_table` (1 after a
run): it weighs a home run above a single and a single above an out, which the reached rate
does not (a 95% normal interval). Per card the rates pool its plate appearances over every
opponent (equal counts per pair, so the pooled rate is the average over opponents), with a
95% Wilson interval from the count. A card is **outside** when its reached interval does
not overlap the interval of the other cards of its kind pooled; a **clear outlier** is
outside and more than ``OUTLIER_POINTS`` (8) percentage points from the kind's mean.

Output: a Markdown table on stdout (batters, pitchers, the spread, the outliers); with
``--out DIR``, ``DIR/results.json`` (every pair's counts and outcome codes, every card's
figures) and ``DIR/report.md`` (the table and the command).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..cli import args

__all__ = ["measure", "main", "configure", "check", "run", "card_set", "chosen", "all_either",
           "lineup_for", "substitute_for", "first_pa", "wilson", "markdown", "DEFAULT_PAS",
           "REACHED", "OUTLIER_POINTS"]

#: plate appearances per (batter, pitcher) pair by default: with the built-in 20 x 12 set a
#: batter card pools 12 x 100 = 1,200 (a 95% interval of about +-2.8 points on the reached
#: rate), a pitcher card 20 x 100 = 2,000 (about +-2.2 points); the whole run is 24,000
#: plate appearances, 43-48 s on one core of the development machine (2 shared cores).
DEFAULT_PAS = 100
#: the outcome codes in which the batter reaches base safely
REACHED = frozenset({"1B", "2B", "3B", "HR", "BB", "HBP", "E", "FC"})
#: a clear outlier: outside the others' interval and more than this many points from the mean
OUTLIER_POINTS = 8.0
Z95 = 1.959963984540054
ENV_ID = "bottom_ninth_v0"


# -- the card set -------------------------------------------------------------------------------
def _raw_cards(cards: Any) -> tuple[dict, str]:
    """The JSON data of a card set ("builtin", a path, or a dict) and its name for messages.
    A file is read through the checked loader (:func:`~dugout.envs.core.datafile.
    read_json_file`): a missing, damaged, too deep or non-UTF-8 file is a ``DataError``
    naming it."""
    from ..envs.bottom_ninth.cards import BUILTIN_PATH
    from ..envs.core.datafile import check_plain_data, read_json_file
    from ..envs.core.errors import DataError
    if isinstance(cards, dict):
        check_plain_data(cards, "card set")
        data, source = copy.deepcopy(cards), "card set"
    else:
        path = BUILTIN_PATH if isinstance(cards, str) and cards == "builtin" else Path(cards)
        data, source = read_json_file(path, "card"), f"card file {str(path)!r}"
    if not isinstance(data, dict):
        raise DataError(f"{source}: must be a JSON object (set, version, batters, pitchers), "
                        f"not {type(data).__name__}")
    return data, source


def card_set(cards: Any = "builtin") -> tuple[dict, Any, dict[str, Any]]:
    """The set measured: its data with every pitcher's role "either" (:func:`all_either`),
    the validated :class:`~dugout.envs.bottom_ninth.cards.CardSet` of that data, and each
    pitcher's own role in the set. A bad set is a ``DataError`` naming the file, the card
    and the field."""
    from ..envs.bottom_ninth.cards import parse_cards
    raw, source = _raw_cards(cards)
    pitchers = raw.get("pitchers")
    roles = {q.get("id"): q.get("role") for q in pitchers if isinstance(q, dict)} \
        if isinstance(pitchers, list) else {}
    data = all_either(raw)
    return data, parse_cards(data, source), roles


def all_either(data: dict) -> dict:
    """A copy of card-set data with every pitcher's role "either" (any card may start)."""
    out = copy.deepcopy(data)
    for p in out.get("pitchers", []) if isinstance(out.get("pitchers"), list) else ():
        if isinstance(p, dict):
            p["role"] = "either"
    return out


def chosen(cardset, batters: Sequence[str] | None = None,
           pitchers: Sequence[str] | None = None) -> tuple[list[int], list[int]]:
    """The indices of the batter and pitcher cards measured (every card without a choice);
    a ``ValueError`` naming the first id that is not a card of the set, or a card that
    cannot be measured (no legal lineup holds the batter, no substitute for the pitcher)."""
    ids_b = [c.id for c in cardset.batters]
    ids_p = [c.id for c in cardset.pitchers]
    for what, given, ids in (("batter", batters, ids_b), ("pitcher", pitchers, ids_p)):
        for cid in given or ():
            if cid not in ids:
                raise ValueError(f"{cid!r} is not a {what} card of the set {cardset.name!r}; its "
                                 f"{what}s: {', '.join(ids)}")
    use_b = [i for i, c in enumerate(ids_b) if batters is None or c in batters]
    use_p = [i for i, c in enumerate(ids_p) if pitchers is None or c in pitchers]
    return use_b, use_p


def lineup_for(cardset, b: int) -> list[str]:
    """Batter ``b`` (index) leading off, then the first batters of the set, in order, that
    keep six distinct positions possible."""
    from ..envs.bottom_ninth.cards import matching_size
    batters = cardset.batters
    chosen = [b]
    for i, card in enumerate(batters):
        if len(chosen) == 6:
            break
        if i != b and matching_size([batters[j].eligible for j in chosen] + [card.eligible]) \
                == len(chosen) + 1:
            chosen.append(i)
    if len(chosen) < 6:
        raise ValueError(f"no legal six-position lineup holds batter {batters[b].id!r}")
    return [batters[i].id for i in chosen]


def substitute_for(cardset, p: int) -> str:
    """The first other pitcher of the set able to relieve (every one, with all roles "either")."""
    for i, card in enumerate(cardset.pitchers):
        if i != p and card.can_relieve:
            return card.id
    raise ValueError(f"no substitute for pitcher {cardset.pitchers[p].id!r}")


def game_seed(seed: int, b: int, p: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, b, p, k]).generate_state(1, dtype=np.uint64)[0] >> 1)


# -- one plate appearance -----------------------------------------------------------------------
def first_pa(env, managers: dict[str, Any], seed: int) -> tuple[str, int, int, int]:
    """Play game ``seed`` of ``env`` (a raw ``bottom_ninth_v0`` duel) with ``managers`` until
    the first plate appearance ends: (its outcome code, runs scored on it, outs after it,
    runners after it as a bit mask: bit 0 first, bit 1 second, bit 2 third)."""
    env.reset(seed=seed)
    managers["away"].reset(seed=2 * seed)
    managers["home"].reset(seed=2 * seed + 1)
    raw = env.unwrapped
    state = raw.game
    while not state.over and state.pa == 0:
        agent = env.agent_selection
        env.step(managers[agent].act(None, raw.view(agent)))
        state = raw.game
    play = next(p for p in state.log.plays if p.kind == "pa")
    bases = sum(1 << i for i, r in enumerate(play.after) if r is not None)
    return play.detail, len(play.scored), int(state.board.outs), bases


def _managers() -> dict[str, Any]:
    from ..agents import make_agent
    return {seat: make_agent(ENV_ID, "heuristic") for seat in ("away", "home")}


# -- statistics ---------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n binomial trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _figures(n: int, reached: int, runs: int, value_sum: float, value_sq: float,
             outcomes: dict[str, int]) -> dict[str, Any]:
    lo, hi = wilson(reached, n)
    rlo, rhi = wilson(runs, n)
    mean = value_sum / n
    sd = math.sqrt(max(0.0, value_sq / n - mean * mean) * n / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "reached": reached, "reach": reached / n if n else 0.0,
            "reach_low": lo, "reach_high": hi, "runs": runs, "run": runs / n if n else 0.0,
            "run_low": rlo, "run_high": rhi, "value": mean, "value_low": mean - half,
            "value_high": mean + half, "outcomes": dict(sorted(outcomes.items()))}


def _aggregate(pairs: list[dict], key: str, cards, roles: dict[str, str]) -> list[dict]:
    out = []
    for card in cards:
        mine = [q for q in pairs if q[key] == card.id]
        if not mine:
            continue
        outcomes: dict[str, int] = {}
        for q in mine:
            for code, c in q["outcomes"].items():
                outcomes[code] = outcomes.get(code, 0) + c
        row = {"id": card.id, "name": card.name}
        if key == "batter":
            row["position"] = card.position
        else:                                   # the set's own role; measured as "either"
            row["role"], row["measured_as"] = roles.get(card.id, card.role), card.role
        row.update(_figures(sum(q["n"] for q in mine), sum(q["reached"] for q in mine),
                            sum(q["runs"] for q in mine), sum(q["value_sum"] for q in mine),
                            sum(q["value_sq"] for q in mine), outcomes))
        out.append(row)
    return out


def _judge(rows: list[dict]) -> dict[str, Any]:
    """Spread, mean and outliers of one kind's cards (reached rate; a run's rate for the spread)."""
    if not rows:
        return {"mean": 0.0, "spread": 0.0, "run_spread": 0.0, "value_spread": 0.0,
                "outside": [], "outliers": []}
    total_n = sum(r["n"] for r in rows)
    total_k = sum(r["reached"] for r in rows)
    mean = total_k / total_n
    for r in rows:
        n_o, k_o = total_n - r["n"], total_k - r["reached"]
        lo, hi = wilson(k_o, n_o)
        r["others_low"], r["others_high"] = lo, hi
        r["outside"] = n_o > 0 and (r["reach_high"] < lo or r["reach_low"] > hi)
        r["points_from_mean"] = 100 * (r["reach"] - mean)
        r["outlier"] = bool(r["outside"] and abs(r["points_from_mean"]) > OUTLIER_POINTS)
    reach = [r["reach"] for r in rows]
    run = [r["run"] for r in rows]
    value = [r["value"] for r in rows]
    return {"mean": mean, "spread": max(reach) - min(reach),
            "highest": max(rows, key=lambda r: r["reach"])["id"],
            "lowest": min(rows, key=lambda r: r["reach"])["id"],
            "run_mean": sum(r["runs"] for r in rows) / total_n, "run_spread": max(run) - min(run),
            "value_mean": sum(r["value"] * r["n"] for r in rows) / total_n,
            "value_spread": max(value) - min(value),
            "value_highest": max(rows, key=lambda r: r["value"])["id"],
            "value_lowest": min(rows, key=lambda r: r["value"])["id"],
            "outside": [r["id"] for r in rows if r["outside"]],
            "outliers": [r["id"] for r in rows if r["outlier"]]}


# -- the measurement ----------------------------------------------------------------------------
def measure(cards: Any = "builtin", pas: int = DEFAULT_PAS, seed: int = 0,
            batters: Sequence[str] | None = None, pitchers: Sequence[str] | None = None,
            progress=None) -> dict[str, Any]:
    """Measure every batter against every pitcher (or the ``batters``/``pitchers`` ids
    given): ``pas`` first plate appearances per pair. Returns the figures (see the module
    docstring); ``progress(done, total)`` is called after each pair."""
    from ..envs import bottom_ninth_v0
    from ..agents.bottom_ninth import win_table
    if isinstance(pas, bool) or not isinstance(pas, int) or pas < 1:
        raise ValueError(f"pas must be a positive int, got {pas!r}")
    data, cardset, roles = card_set(cards)
    ids_b = [c.id for c in cardset.batters]
    ids_p = [c.id for c in cardset.pitchers]
    use_b, use_p = chosen(cardset, batters, pitchers)
    managers = _managers()
    table = win_table()                      # blank cards, the default faces and out rule
    pairs = []
    start = time.perf_counter()
    total = len(use_b) * len(use_p)
    for b in use_b:
        lineup = lineup_for(cardset, b)
        for p in use_p:
            teams = {"batters": lineup, "pitchers": [ids_p[p], substitute_for(cardset, p)]}
            env = bottom_ninth_v0.raw_env(mode="duel", teams=teams, cards=data)
            outcomes: dict[str, int] = {}
            reached = runs = 0
            value = value_sq = 0.0
            for k in range(pas):
                code, scored, outs, bases = first_pa(env, managers, game_seed(seed, b, p, k))
                outcomes[code] = outcomes.get(code, 0) + 1
                reached += code in REACHED or scored > 0
                runs += scored > 0
                v = 1.0 if scored else float(table[min(outs, 2), bases, 0, 0])
                value += v
                value_sq += v * v
            pairs.append({"batter": ids_b[b], "pitcher": ids_p[p], "n": pas, "reached": reached,
                          "runs": runs, "value_sum": value, "value_sq": value_sq,
                          "outcomes": dict(sorted(outcomes.items()))})
            if progress is not None:
                progress(len(pairs), total)
    elapsed = time.perf_counter() - start
    rows_b = _aggregate(pairs, "batter", cardset.batters, roles)
    rows_p = _aggregate(pairs, "pitcher", cardset.pitchers, roles)
    summary = {"batters": _judge(rows_b), "pitchers": _judge(rows_p)}
    return {"set": cardset.name, "cards": "builtin" if isinstance(cards, str) and cards == "builtin"
            else ("dict" if isinstance(cards, dict) else str(cards)),
            "roles": "every pitcher's role set to 'either' for the measurement",
            "managers": {"away": "heuristic", "home": "heuristic"},
            "situation": "bottom of the 9th, 0 outs, bases empty, 0-0, fresh fatigue (first PA)",
            "pas": pas, "seed": seed, "plate_appearances": len(pairs) * pas,
            "start_value": float(table[0, 0, 0, 0]),
            "reached_codes": sorted(REACHED), "outlier_points": OUTLIER_POINTS,
            "pairs": pairs, "batters": rows_b, "pitchers": rows_p, "summary": summary,
            "elapsed_s": round(elapsed, 2)}


# -- reporting ----------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _table(rows: list[dict], kind: str) -> list[str]:
    label = "pos" if kind == "batter" else "role"
    key = "position" if kind == "batter" else "role"
    lines = [f"| {kind} | {label} | name | PAs | reached % (95% CI) | run % (95% CI) | "
             f"win value % (95% CI) | BB | HBP | 1B | 2B | HR | SO | outs in play | vs mean | flag |",
             "|---|---|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        o = r["outcomes"]
        flag = "**outlier**" if r.get("outlier") else ("outside" if r.get("outside") else "")
        in_play = o.get("GO", 0) + o.get("FO", 0) + o.get("FC", 0)
        lines.append(
            f"| {r['id']} | {r[key]} | {r['name']} | {r['n']} | {_pct(r['reach'])} "
            f"({_pct(r['reach_low'])}-{_pct(r['reach_high'])}) | {_pct(r['run'])} "
            f"({_pct(r['run_low'])}-{_pct(r['run_high'])}) | {_pct(r['value'])} "
            f"({_pct(r['value_low'])}-{_pct(r['value_high'])}) | {o.get('BB', 0)} | {o.get('HBP', 0)} | "
            f"{o.get('1B', 0)} | {o.get('2B', 0)} | {o.get('HR', 0)} | {o.get('SO', 0)} | {in_play} | "
            f"{r.get('points_from_mean', 0.0):+.1f} | {flag} |")
    return lines


def markdown(results: dict[str, Any]) -> str:
    """The batter and pitcher tables, the spreads and the outliers, in Markdown."""
    s = results["summary"]
    out = [f"Set {results['set']!r}: {len(results['batters'])} batters x "
           f"{len(results['pitchers'])} pitchers, {results['pas']} first plate appearances per pair "
           f"({results['plate_appearances']} in all), seed {results['seed']}, heuristic managers on "
           f"both sides, every pitcher's role 'either' (the role column is the set's own).", "",
           f"Win value: the batting side's chance to win after the plate appearance with blank "
           f"cards from there on (1 after a run; `win_table`); {_pct(results['start_value'])}% "
           f"before it. 'vs mean' and the flags are on the reached rate.", "",
           "Batters (each pooled over every pitcher; higher is better for the batter):", ""]
    out += _table(results["batters"], "batter")
    out += ["", "Pitchers (each pooled over every batter; lower is better for the pitcher):", ""]
    out += _table(results["pitchers"], "pitcher")
    out.append("")
    for kind in ("batters", "pitchers"):
        k = s[kind]
        if not results[kind]:
            continue
        out.append(f"* {kind.capitalize()}: mean reached {_pct(k['mean'])}%, spread (max - min) "
                   f"{_pct(k['spread'])} points ({k['highest']} highest, {k['lowest']} lowest); run mean "
                   f"{_pct(k['run_mean'])}%, spread {_pct(k['run_spread'])} points; win value mean "
                   f"{_pct(k['value_mean'])}%, spread {_pct(k['value_spread'])} points "
                   f"({k['value_highest']} highest, {k['value_lowest']} lowest); outside the "
                   f"others' interval: {', '.join(k['outside']) or 'none'}; clear outliers "
                   f"(> {OUTLIER_POINTS:g} points and outside): {', '.join(k['outliers']) or 'none'}.")
    return "\n".join(out)


def _command(ns: argparse.Namespace) -> str:
    parts = ["dugout cards", f"--pas {ns.pas}", f"--seed {ns.seed}"]
    if str(ns.cards) != "builtin":
        parts.append(f"--cards {ns.cards}")
    for flag in ("batters", "pitchers"):
        if getattr(ns, flag):
            parts.append(f"--{flag} " + " ".join(getattr(ns, flag)))
    return " ".join(parts)


#: The most plate appearances a pair.
MAX_PAS = 10**6


def _card_file(text: str) -> Any:
    return "builtin" if text == "builtin" else args.in_file(text)


#: ``--cards``: ``builtin`` or a card-set file to read (its content is checked in ``check``).
card_file = args.ArgType("file", _card_file, bad=[""], paths="in_file")


def configure(parser: args.Parser) -> None:
    """``dugout cards``'s flags."""
    parser.add_argument("--pas", type=args.count(1, MAX_PAS, "plate appearances a pair"),
                        default=DEFAULT_PAS, metavar="N",
                        help=f"plate appearances per (batter, pitcher) pair, from 1 to "
                             f"{MAX_PAS:,} (default {DEFAULT_PAS})")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"seed of the run, from 0 to {args.MAX_SEED} (default 0)")
    parser.add_argument("--cards", type=card_file, default="builtin", metavar="FILE",
                        help="a card-set JSON file (default builtin: the built-in set)")
    parser.add_argument("--batters", nargs="+", metavar="ID", help="only these batter cards")
    parser.add_argument("--pitchers", nargs="+", metavar="ID", help="only these pitcher cards")
    parser.add_argument("--out", metavar="DIR", type=args.out_dir,
                        help="write DIR/results.json and DIR/report.md")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def check(ns: argparse.Namespace) -> None:
    """The card set (read and validated), the cards chosen and each one's lineup and
    substitute, before any plate appearance."""
    from ..envs.core.errors import DugoutError
    try:
        _, cardset, _ = card_set(ns.cards)
    except (DugoutError, ValueError) as error:
        raise args.UsageError("--cards", str(error)) from None
    try:
        use_b, use_p = chosen(cardset, ns.batters, ns.pitchers)
    except ValueError as error:
        flag = "--batters" if "is not a batter card" in str(error) else "--pitchers"
        raise args.UsageError(flag, str(error)) from None
    try:
        for b in use_b:
            lineup_for(cardset, b)
        for p in use_p:
            substitute_for(cardset, p)
    except ValueError as error:
        raise args.UsageError("--cards", f"{ns.cards}: {error}") from None


def run(ns: argparse.Namespace) -> dict[str, Any]:
    """Measure, print the Markdown table, write ``--out``; returns the figures."""

    def progress(done: int, total: int) -> None:
        if not ns.quiet and (done == total or done % 12 == 0):
            print(f"\r{done}/{total} pairs", end="\n" if done == total else "", file=sys.stderr,
                  flush=True)

    results = measure(ns.cards, ns.pas, ns.seed, ns.batters, ns.pitchers, progress)
    command = _command(ns)
    results["command"] = command
    table = markdown(results)
    print(table)
    print(f"\n{results['plate_appearances']} plate appearances in {results['elapsed_s']:.1f} s. "
          f"Reproduce: `{command}`")
    if ns.out:
        out = Path(ns.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        (out / "report.md").write_text(
            f"# Bottom of the 9th card balance\n\n{table}\n\nMeasured in {results['elapsed_s']:.1f} s "
            f"({results['plate_appearances']} plate appearances). Reproduce with:\n\n"
            f"```\n{command}\n```\n", encoding="utf-8")
    return results


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """``python -m dugout.studies.bottom_ninth_cards``: the same as ``dugout cards``."""
    return args.invoke("dugout cards", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
