"""That's Baseball: engine (``rules``), teams (``cards``) and the AEC env (``env``), agent view (``view``)."""

from .cards import Team, adjusted_average, load_team
from .env import OBS, ThatsBaseballEnv
from .rules import GameState, apply_action, new_game
from .view import ThatsBaseballView, make_view

__all__ = ["GameState", "OBS", "Team", "ThatsBaseballEnv", "ThatsBaseballView", "adjusted_average", "apply_action",
           "load_team", "make_view", "new_game"]
