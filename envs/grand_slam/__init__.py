"""Harry's Grand Slam Baseball: engine (``rules``), cards (``cards``), what a manager may
know (``view``) and the AEC env (``env``)."""

from .cards import CARD_TYPES, load_deck
from .env import OBS, GrandSlamEnv
from .rules import GameState, apply_action, new_game
from .view import GrandSlamView, view_of

__all__ = ["CARD_TYPES", "GameState", "GrandSlamEnv", "GrandSlamView", "OBS", "apply_action",
           "load_deck", "new_game", "view_of"]
