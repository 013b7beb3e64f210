"""Command line: cards for a real team-season.

    python -m dugout.envs.realstats --team BOS --season 2004 --ruleset showdown -o bos2004.json
    python -m dugout.envs.realstats --team BOS --season 2004 --ruleset showdown --report
    python -m dugout.envs.realstats --team NYA --season 1927 --ruleset thats_baseball
    python -m dugout.envs.realstats --season 2004 --list
    python -m dugout.envs.realstats --team BOS --season 2004 --fit runs -o bos2004_runs.json

Team codes are Lahman's (``NYA`` for the Yankees, ``NYN`` for the Mets, ``LAN`` for the
Dodgers, ...); ``--list`` prints a season's. Without ``-o`` the JSON goes to standard output.

``--fit runs`` (Showdown) makes the runs fit's cards (:mod:`dugout.envs.realstats.runs_fit`):
the team's hitters' on-base rates raised by its stored boost, so that the advanced game
scores its real runs. The thirty 2004 teams have one; ``python -m dugout.evaluate.runs_fit
--season S --teams CODE --write`` fits and stores another team-season's (about half a
minute an iteration on one core, against its league's teams built from the database).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core.errors import DataError
from ..showdown import cards as sd
from . import fit as fitting
from . import runs_fit
from .build import showdown_team, thats_baseball_payload, thats_baseball_team
from .lahman import default_data, load_team_season

REGULAR_PA = 300


def fit_report(team: sd.Team) -> tuple[str, float]:
    """A table of fitted against actual rates for every card, and the regulars' worst error."""
    head = f"{'player':<26} {'n':>4}  " + " ".join(f"{o:>13}" for o in fitting.OUTCOMES) + "  max err"
    lines = [f"Fitted vs actual per-PA rates, {team.name} (n = PA for hitters, batters faced for "
             f"pitchers; each cell fitted/actual)", head, "-" * len(head)]
    worst_regular = 0.0
    for card in team.players:
        f = card.fit or {}
        if "actual" not in f:
            continue
        n = f.get("pa", f.get("bf", 0))
        cells = " ".join(f"{f['fitted'][o]:.3f}/{f['actual'][o]:.3f}" for o in fitting.OUTCOMES)
        mark = ""
        if isinstance(card, sd.HitterCard) and n >= REGULAR_PA:
            worst_regular = max(worst_regular, f["max_error"])
            mark = " *" if f["max_error"] > 0.01 else ""
        label = f"{card.name[:22]} ({'P' if isinstance(card, sd.PitcherCard) else 'H'})"
        lines.append(f"{label:<26} {n:>4}  {cells}  {f['max_error']:.4f}{mark}")
    lines.append(f"Largest error among regulars (hitters with {REGULAR_PA}+ PA): {worst_regular:.4f}"
                 f"{'' if worst_regular <= 0.01 else '  (over 0.01)'}")
    boosts = {c.fit["runs_fit"]["boost"] for c in team.players if "runs_fit" in (c.fit or {})}
    if boosts:
        lines.append(f"Runs fit: the hitters' cards are tuned away from their actual rates on "
                     f"purpose (on-base rates x{1 + boosts.pop():.4f}); errors of the rates fit "
                     f"are in each card's fit.runs_fit.priced_as")
    return "\n".join(lines), worst_regular


def _runs_fit_boost(args: argparse.Namespace) -> float:
    """The stored boost of the team-season (DataError, saying how to fit it, when none is)."""
    boost = runs_fit.stored_boost(args.team, args.season)
    if boost is None:
        raise DataError(f"no stored runs fit for {args.team.upper()} {args.season}; fit it with "
                        f"python -m dugout.evaluate.runs_fit --season {args.season} --teams "
                        f"{args.team.upper()} --write")
    print(f"runs fit: the stored boost {boost:+.4f} (hitters' on-base rates x{1 + boost:.4f})",
          file=sys.stderr)
    return boost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dugout.envs.realstats", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--team", help="Lahman team code, e.g. BOS, NYA, LAN")
    parser.add_argument("--season", type=int, required=True, help="season, 1871-2024")
    parser.add_argument("--ruleset", choices=("showdown", "thats_baseball"), default="showdown")
    parser.add_argument("-o", "--output", help="write the card file here (default: stdout)")
    parser.add_argument("--report", action="store_true",
                        help="print fitted against actual rates for every player (Showdown)")
    parser.add_argument("--list", action="store_true", help="list the season's team codes")
    parser.add_argument("--fit", choices=("rates", "runs"), default="rates",
                        help="Showdown cards: rates (default; every card its player's per-PA "
                             "rates) or runs (the hitters tuned so the advanced game scores "
                             "the team's real runs; see runs_fit)")
    args = parser.parse_args(argv)
    if args.fit == "runs" and args.ruleset != "showdown":
        parser.error("--fit runs is for --ruleset showdown (That's Baseball cards are career "
                     "averages, not fitted)")
    try:
        data = default_data()
    except ImportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        if args.list:
            teams = data.teams[data.teams.yearID == args.season]
            if teams.empty:
                raise DataError(f"season {args.season} is not in the Lahman database "
                                f"({int(data.teams.yearID.min())}-{int(data.teams.yearID.max())})")
            for _, row in teams.sort_values("teamID").iterrows():
                print(f"{row['teamID']:<4} {row['lgID']:<3} {row['name']}")
            return 0
        if not args.team:
            parser.error("--team is required (or --list to see the season's teams)")
        ts = load_team_season(args.team.upper(), args.season, data)
        if args.ruleset == "showdown":
            boost = 0.0
            if args.fit == "runs":
                boost = _runs_fit_boost(args)
            team, notes = showdown_team(ts, boost=boost)
            payload = sd.team_to_dict(team)
            text = sd.team_to_json(team)
            report, _ = fit_report(team)
        else:
            if args.report:
                parser.error("--report is for --ruleset showdown (That's Baseball cards are "
                             "career averages, not fitted)")
            payload = thats_baseball_payload(thats_baseball_team(ts, data))
            text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
            notes, report = {}, ""
    except DataError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output}: {payload['name']}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.report:
        print(report, file=sys.stderr if not args.output else sys.stdout)
    if notes.get("over_cap"):
        print(f"warning: this team costs {notes['total_points']:,.1f} points with its bench as "
              f"backups, over the rulebook's 5,000-point cap; it loads only with "
              f"load_team(..., point_cap=None)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
