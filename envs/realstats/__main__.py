"""``dugout realstats``: cards for a real team-season.

    dugout realstats --team BOS --season 2004 --ruleset showdown -o bos2004.json
    dugout realstats --team BOS --season 2004 --ruleset showdown --report
    dugout realstats --team NYA --season 1927 --ruleset thats_baseball
    dugout realstats --season 2004 --list
    dugout realstats --team BOS --season 2004 --fit runs -o bos2004_runs.json
    python -m dugout.envs.realstats --season 2004 --list   (the same as dugout realstats)

Team codes are Lahman's (``NYA`` for the Yankees, ``NYN`` for the Mets, ``LAN`` for the
Dodgers, ...); ``--list`` prints a season's (with ``--team``, that team's line only).
Without ``-o`` the JSON goes to standard output. The season must be in the Lahman database
(1871 to its last season), the team must have played that season, and ``--fit runs`` needs
the team-season's stored boost: all checked before any card is made, as is ``-o``'s path;
a bad one is one line naming the flag, exit status 2.

``--fit runs`` (Showdown) makes the runs fit's cards (:mod:`dugout.envs.realstats.runs_fit`):
the team's hitters' on-base rates raised by its stored boost, so that the advanced game
scores its real runs. The thirty 2004 teams have one; ``dugout runs-fit --season
S --teams CODE --write`` fits and stores another team-season's (about half a
minute an iteration on one core, against its league's teams built from the database).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Sequence

from ...cli import args
from ..showdown import cards as sd
from . import fit as fitting
from . import runs_fit
from .build import showdown_team, thats_baseball_payload, thats_baseball_team
from .lahman import FIRST_SEASON, default_data, load_team_season

__all__ = ["main", "configure", "check", "run", "fit_report", "REGULAR_PA"]

REGULAR_PA = 300
#: The latest season the flag takes: this year (the database's own last season is checked
#: against the data in ``check``).
LAST_SEASON = datetime.date.today().year


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


def _runs_fit_boost(team: str, season: int) -> float:
    """The stored boost of the team-season (a UsageError, saying how to fit it, when none is)."""
    boost = runs_fit.stored_boost(team, season)
    if boost is None:
        raise args.UsageError("--fit", f"--fit runs: no stored runs fit for {team} {season}; fit "
                                       f"it with dugout runs-fit --season "
                                       f"{season} --teams {team} --write")
    return boost


def configure(parser: args.Parser) -> None:
    """``dugout realstats``' flags."""
    parser.add_argument("--team", help="Lahman team code, e.g. BOS, NYA, LAN (--list shows a "
                                       "season's)")
    parser.add_argument("--season", type=args.integer(FIRST_SEASON, LAST_SEASON, "a season"),
                        required=True,
                        help=f"season, {FIRST_SEASON} to the Lahman database's last")
    parser.add_argument("--ruleset", choices=("showdown", "thats_baseball"), default="showdown")
    parser.add_argument("-o", "--output", type=args.out_file,
                        help="write the card file here (default: stdout)")
    parser.add_argument("--report", action="store_true",
                        help="print fitted against actual rates for every player (Showdown)")
    parser.add_argument("--list", action="store_true",
                        help="list the season's team codes (with --team: that team's line)")
    parser.add_argument("--fit", choices=("rates", "runs"), default="rates",
                        help="Showdown cards: rates (default; every card its player's per-PA "
                             "rates) or runs (the hitters tuned so the advanced game scores "
                             "the team's real runs; see runs_fit)")


def check(ns: argparse.Namespace) -> None:
    """Every flag before any card is made: the flags that go together, the season in the
    Lahman database, the team in the season, the stored runs fit (``ns.data``,
    ``ns.boost``, ``ns.team`` in capitals)."""
    if ns.list:
        for flag, given in (("--output", ns.output is not None), ("--report", ns.report),
                            ("--fit", ns.fit != "rates"), ("--ruleset", ns.ruleset != "showdown")):
            if given:
                raise args.UsageError(flag, f"{flag} makes cards; --list only lists the "
                                            f"season's teams")
    else:
        if not ns.team:
            raise args.UsageError("--team", "--team is required (or --list to see the "
                                             "season's teams)")
        if ns.fit == "runs" and ns.ruleset != "showdown":
            raise args.UsageError("--fit", "--fit runs is for --ruleset showdown (That's "
                                           "Baseball cards are career averages, not fitted)")
        if ns.report and ns.ruleset != "showdown":
            raise args.UsageError("--report", "--report is for --ruleset showdown (That's "
                                              "Baseball cards are career averages, not fitted)")
    try:
        ns.data = default_data()
    except ImportError as error:
        raise args.UsageError("", f"the Lahman database is not here: {error}") from None
    years = ns.data.teams.yearID
    first, last = int(years.min()), int(years.max())
    if not first <= ns.season <= last or not (years == ns.season).any():
        raise args.UsageError("--season", f"--season {ns.season}: not in the Lahman database "
                                          f"({first}-{last})")
    if ns.team is not None:
        ns.team = ns.team.strip().upper()
        teams = ns.data.teams[ns.data.teams.yearID == ns.season]
        codes = sorted(teams.teamID.astype(str))
        if ns.team not in codes:
            raise args.UsageError("--team", f"--team: unknown team {ns.team!r} in {ns.season}; "
                                            f"that season's teams are {', '.join(codes)}")
    ns.boost = _runs_fit_boost(ns.team, ns.season) if ns.fit == "runs" else 0.0


def _list(ns: argparse.Namespace) -> int:
    teams = ns.data.teams[ns.data.teams.yearID == ns.season]
    if ns.team is not None:
        teams = teams[teams.teamID.astype(str) == ns.team]
    for _, row in teams.sort_values("teamID").iterrows():
        print(f"{row['teamID']:<4} {row['lgID']:<3} {row['name']}")
    return 0


def run(ns: argparse.Namespace) -> int:
    """Make the cards and write them (a ``DataError`` of the roster is one line, exit 2)."""
    if ns.list:
        return _list(ns)
    ts = load_team_season(ns.team, ns.season, ns.data)
    if ns.ruleset == "showdown":
        if ns.fit == "runs":
            print(f"runs fit: the stored boost {ns.boost:+.4f} (hitters' on-base rates "
                  f"x{1 + ns.boost:.4f})", file=sys.stderr)
        team, notes = showdown_team(ts, boost=ns.boost)
        payload = sd.team_to_dict(team)
        text = sd.team_to_json(team)
        report, _ = fit_report(team)
    else:
        payload = thats_baseball_payload(thats_baseball_team(ts, ns.data))
        text = json.dumps(payload, indent=1, ensure_ascii=False) + "\n"
        notes, report = {}, ""
    if ns.output is not None:
        Path(ns.output).parent.mkdir(parents=True, exist_ok=True)
        with open(ns.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {ns.output}: {payload['name']}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if ns.report:
        print(report, file=sys.stderr if ns.output is None else sys.stdout)
    if notes.get("over_cap"):
        print(f"warning: this team costs {notes['total_points']:,.1f} points with its bench as "
              f"backups, over the rulebook's 5,000-point cap; it loads only with "
              f"load_team(..., point_cap=None)", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dugout.envs.realstats``: the same as ``dugout realstats``."""
    return args.invoke("dugout realstats", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    sys.exit(main())
