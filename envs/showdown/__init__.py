"""MLB Showdown (2004 rules). The card model and team files live here; the environment
(``dugout.envs.showdown_v0``) builds on them, and the engine is ``rules.py`` (its docstring
lists the modules it is made of).

Importing the package imports ``checks``, which installs the checks every loaded game passes
(``GameState.from_dict``): the state (``state.py``) imports none of the rules it is checked
against."""

from . import checks as _checks  # noqa: F401  (installs the loaded-game checks)
from .cards import (Chart, HitterCard, PitcherCard, Team, card_from_dict, load_cards, load_team,
                    team_from_dict)

__all__ = ["Chart", "HitterCard", "PitcherCard", "Team", "card_from_dict", "load_cards",
           "load_team", "team_from_dict"]
