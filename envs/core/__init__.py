"""What every dugout ruleset shares: dice, the scoreboard, base running, the scorebook,
decisions and masks, observation specs, plain-data state, series and the AEC base class."""

from .aec import AGENTS, BaseballAECEnv
from .bases import (BASE_NAMES, EMPTY_BASES, advance_all, advance_runner, force_advance,
                    occupied, push_runner, remove_runner, runner_count)
from .decisions import Decision, action_mask
from .dice import Dice, DiceScriptError, ScriptedDice, make_dice
from .errors import (MAX_GAME_INNINGS, MAX_INNINGS, DataError, DugoutError, IllegalActionError,
                     OptionError, as_int, check_innings, check_options, check_pair, UnknownEnvError)
from .datafile import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, check_plain_data, read_json_file
from .observation import ObservationSpec
from .scoreboard import AWAY, HOME, Scoreboard, SuddenDeathScoreboard
from .scorebook import BoxScore, Outcome, Play, PlayLog
from .series import SERIES_PIECES, Series, SeriesGame, check_series, game_seed, with_series_pieces
from .state import PlainState, SavedAs, codec

__all__ = [
    "AGENTS", "AWAY", "HOME", "BASE_NAMES", "EMPTY_BASES", "BaseballAECEnv", "BoxScore",
    "DataError", "Decision", "Dice", "DiceScriptError", "DugoutError", "IllegalActionError",
    "ObservationSpec", "OptionError", "Outcome", "PlainState", "Play", "PlayLog", "SavedAs",
    "Scoreboard", "ScriptedDice", "SuddenDeathScoreboard", "action_mask", "advance_all",
    "advance_runner", "check_innings", "check_options", "check_pair", "check_series", "codec",
    "force_advance", "game_seed", "make_dice", "occupied", "push_runner", "remove_runner",
    "runner_count", "SERIES_PIECES", "MAX_INNINGS", "MAX_GAME_INNINGS", "MAX_DEPTH",
    "MAX_FILE_BYTES", "MAX_NODES", "as_int", "check_plain_data", "read_json_file",
    "Series", "SeriesGame", "UnknownEnvError", "with_series_pieces",
]
