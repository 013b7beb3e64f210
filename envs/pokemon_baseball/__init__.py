"""Pokemon Baseball (Rule 2.3E): charts (``charts``), creatures and teams (``cards``), the
engine (``rules``), the AEC env (``env``) and the agent view (``view``)."""

from .cards import Creature, Team, load_creatures, load_team
from .env import OBS, PokemonBaseballEnv
from .rules import GameState, apply_action, new_game
from .view import PokemonBaseballView, make_view

__all__ = ["Creature", "GameState", "OBS", "PokemonBaseballEnv", "PokemonBaseballView", "Team",
           "apply_action", "load_creatures", "load_team", "make_view", "new_game"]
