"""What every dugout ruleset shares: dice, the scoreboard, base running, the scorebook,
decisions and masks, observation specs and the AEC base class."""

from .aec import AGENTS, BaseballAECEnv
from .bases import (BASE_NAMES, EMPTY_BASES, advance_all, advance_runner, force_advance,
                    occupied, push_runner, remove_runner, runner_count)
from .decisions import Decision, action_mask
from .dice import Dice, DiceScriptError, ScriptedDice, make_dice
from .errors import DataError, DugoutError, IllegalActionError, OptionError, check_options
from .observation import ObservationSpec
from .scoreboard import AWAY, HOME, Scoreboard
from .scorebook import BoxScore, Outcome, Play, PlayLog

__all__ = [
    "AGENTS", "AWAY", "HOME", "BASE_NAMES", "EMPTY_BASES", "BaseballAECEnv", "BoxScore",
    "DataError", "Decision", "Dice", "DiceScriptError", "DugoutError", "IllegalActionError",
    "ObservationSpec", "OptionError", "Outcome", "Play", "PlayLog", "Scoreboard", "ScriptedDice",
    "action_mask", "advance_all", "advance_runner", "check_options", "force_advance",
    "make_dice", "occupied", "push_runner", "remove_runner", "runner_count",
]
