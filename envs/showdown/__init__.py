"""MLB Showdown (2004 rules). The card model and team files live here; the environment
(``dugout.envs.showdown_v0``) builds on them."""

from .cards import (Chart, HitterCard, PitcherCard, Team, card_from_dict, load_cards, load_team,
                    team_from_dict)

__all__ = ["Chart", "HitterCard", "PitcherCard", "Team", "card_from_dict", "load_cards",
           "load_team", "team_from_dict"]
