"""Bottom of the 9th: engine (``rules``), cards (``cards``), what a manager may know
(``view``) and the AEC env (``env``); the Manager Challenge's engine (``solo``), cards
(``solo_cards``) and Gymnasium env (``challenge``)."""

from .cards import CardSet, load_cards, parse_cards
from .env import OBS, BottomNinthEnv
from .rules import GameState, apply_action, new_game
from . import solo  # noqa: F401  (registers the Manager Challenge's rule tables, mode "solo")
from .solo import Campaign
from .view import BottomNinthView, view_of

__all__ = ["BottomNinthEnv", "BottomNinthView", "Campaign", "CardSet", "GameState", "OBS", "apply_action",
           "load_cards", "new_game", "parse_cards", "view_of"]
