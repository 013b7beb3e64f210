"""That's Baseball: engine (``rules``), teams (``cards``) and the AEC env (``env``)."""

from .cards import Team, adjusted_average, load_team
from .env import OBS, ThatsBaseballEnv
from .rules import GameState, apply_action, new_game

__all__ = ["GameState", "OBS", "Team", "ThatsBaseballEnv", "adjusted_average", "apply_action",
           "load_team", "new_game"]
