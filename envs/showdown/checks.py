"""Checking a loaded MLB Showdown game: what ``GameState.from_dict`` checks beyond the
field types, that the rules could reach the game (see :func:`validate_game`).

The checks read the rules (the steps, the decisions they would ask), so they sit above them;
the state installs them (:func:`~.state.check_loaded_games_with`) when this module is
imported, which importing the package does.
"""

from __future__ import annotations

from ..core.bases import EMPTY_BASES
from ..core.decisions import Decision
from ..core.state import (SaveError, check_choice, check_index, check_int, check_len, describe,
                          saved_keys)
from . import cardplay, lineup, roster
from .actions import (CARD, LINEUP_KINDS, PASS, SEND_BOTH, SEND_LEAD, THROW_LEAD, THROW_TRAIL, WINDOWS, YES,
                      choose_player)
from .cards import FIELD_POSITIONS, INFIELD, OUTFIELD, RESULTS, PitcherCard
from .roster import (ROSTER, bullpen, can_remove_starter, pinch_hitter_options, starters_of)
from .rules import BATTER_ICONS, CODE_OUTCOME, ICON_USES, OUTCOMES, RULES
from .state import LEVELS, GameState, check_loaded_games_with

__all__ = ["validate_game"]


#: Where a player may stand in a lineup: a field position, the DH, the pitcher's spot, or a
#: pinch hitter (or runner) whose place is settled when his team takes the field.
_LINEUP_POSITIONS = FIELD_POSITIONS + ("DH", "P", "PH")
#: The steps of a substitution while a team takes the field (its positions are settled at
#: the end of it).
_SUB_STEPS = ("defensive_replacement", "replaced_player", "batting_slot")
#: The steps before the first at-bat.
_SETUP_STEPS = ("choose_starter", "play_ball", "set_lineups")
#: The steps of an at-bat after the pitch (the chart known), after the swing (the result
#: known) and after the result was carried out (the play's outcome known).
_PITCHED_STEPS = ("swing",)
_SWUNG_STEPS = ("result_icons", "carry_out", "double_play", "send_runners", "throw_at",
                "gold_glove", "double_play_roll", "throw_roll", "finish_play")
_PLAY_KINDS = frozenset({
    "pa", "steal", "caught_stealing", "card", "fielding_check", "card_advance", "card_out",
    "thrown_out", "extra_base", "pinch_hitter", "pinch_runner", "defensive_replacement",
    "dh_to_field", "pitching_change", "cy_young", "icon_K", "icon_V", "icon_S", "icon_HR",
    "icon_20", "icon_RP", "icon_G"})
_SUBSTITUTION_KINDS = frozenset({"pinch_hitter", "pinch_runner", "defensive_replacement",
                                 "dh_to_field", "pitching_change"})
#: The steps a game waits at for a decision of that name (no rule runs there).
_WAITING_STEPS = ("double_play", "replaced_player", "send_runners", "throw_at")
_CARD_MODS = ("pitch", "swing", "throw_bonus", "dp_bonus", "catcher_bonus")
_TRACK_KEYS = ("pitcher", "batters", "reached", "multi_out")


def validate_game(state: GameState) -> None:
    """Check a loaded game (``GameState.from_dict``) for what its types cannot say: a
    :class:`~dugout.envs.core.state.SaveError` names the field.

    Players are roster indices of 25-player teams; each team's per-player records have an
    entry per player; a lineup holds nine different players at nine spots (a field position,
    DH, P or PH), the pitcher in the pitcher's spot (or a pinch hitter batting for him), and
    everyone who entered a batting line (a pitcher a pitching line); the fielding team has
    every position filled, and a pinch hitter's team can still fill its field; the at-bat
    holds what its step needs (the chart after the pitch, the result after the swing, the
    outcome once carried out); strategy cards are conserved; and the pending decision is the
    one the rules offer at this step, with these legal actions (a game not over always waits
    on one)."""
    b = state.board
    check_choice(state.level, LEVELS, ("level",))
    check_choice(state.step, list(RULES) + list(_WAITING_STEPS) + ["over"], ("step",))
    n = [len(t.players) for t in state.teams]
    for t in (0, 1):
        if n[t] != ROSTER:
            raise SaveError(f"a team has {ROSTER} players, got {n[t]}", ("teams", t))
    for key in ("lineup", "pos", "pitcher", "starter", "used", "batted", "innings_pitched",
                "runs_charged", "ip_bonus", "icons_left", "twenty_inning", "relief_ace_inning",
                "box_line", "pitch_line", "pitcher_slot", "relief_ace_pitcher", "order",
                "needs_positions", "needs_pitcher", "decks_given", "decks", "hands", "discards",
                "in_play", "played", "relief_streak"):
        check_len(getattr(state, key), 2, (key,))
    _validate_relief_streak(state.relief_streak, state.teams, ("relief_streak",))
    _validate_lineup_picks(state)
    for t in (0, 1):
        _validate_team(state, t)
    for i, r in enumerate(b.bases):
        if r is not None:
            check_index(r, ROSTER, ("board", "bases", i), "the batting team's roster")
    for r, p in state.responsible.items():
        check_index(r, ROSTER, ("responsible",), "the roster")
        if p not in state.pitch_line[1 - b.half]:
            raise SaveError(f"runner {r} is charged to pitcher {p}, who has no pitching line",
                            ("responsible",))
    check_index(state.plus_runner, ROSTER, ("plus_runner",), "the roster", none=-1)
    check_int(state.pa_index, ("pa_index",), 0)
    for key, v in state.half_track.items():
        check_choice(key, _TRACK_KEYS, ("half_track",))
        check_int(v, ("half_track", f"[{key!r}]"), -1)
    if len(state.log_extra) != len(state.log.plays):
        raise SaveError(f"one entry per play of the log ({len(state.log.plays)}), got "
                        f"{len(state.log_extra)}", ("log_extra",))
    _validate_log(state)
    _validate_cards(state)
    _validate_at_bat(state)
    if state.step == "over" or b.over:
        if not (state.step == "over" and b.over) or state.pending is not None:
            raise SaveError("a game that is over is at step 'over' with no pending decision",
                            ("step",))
        return
    d = state.pending
    if d is None:
        raise SaveError("a game that is not over waits on a decision", ("pending",))
    setup = state.step in _SETUP_STEPS
    if b.outs == 3:
        raise SaveError("the third out ends the half inning before anyone decides",
                        ("board", "outs"))
    for t in (0, 1):
        if setup != (state.pitcher[t] < 0):
            raise SaveError("the pitchers take the mound when play begins, not before",
                            ("pitcher", t))
        if setup:
            continue
        if t == 1 - b.half and state.step not in _SUB_STEPS and \
                sorted(p for p in state.pos[t] if p in FIELD_POSITIONS) != sorted(FIELD_POSITIONS):
            raise SaveError(f"the fielding team has every position filled once it takes the "
                            f"field, got {state.pos[t]}", ("pos", t))
        _validate_field(state, t)
    if setup and (b.inning, b.half, b.outs, b.bases) != (1, 0, 0, EMPTY_BASES):
        raise SaveError("before the first pitch the board is at the top of the 1st, empty",
                        ("board",))
    offer = _offered(state, d)
    if offer is None:
        raise SaveError(f"a {d.kind!r} decision is not asked at step {state.step!r} here",
                        ("pending", "kind"))
    actor, legal, subject = offer
    if (d.actor, d.legal, d.subject) != (actor, legal, subject) or not legal:
        raise SaveError(f"the {d.kind!r} decision here is team {actor}'s among {list(legal)} "
                        f"(subject {subject}), got team {d.actor}'s among {list(d.legal)} "
                        f"(subject {d.subject})", ("pending",))


def lineup_being_set(state: GameState) -> bool:
    """Whether the managers are setting their lineups (``lineups="manager"``)."""
    return state.step == "set_lineups"


def _validate_lineup_picks(state: GameState) -> None:
    """The managers' lineup picks (``lineup.check_picks``): each one the rules offer."""
    check_len(state.lineup_picks, 2, ("lineup_picks",))
    for t in (0, 1):
        for i, k in enumerate(state.lineup_picks[t]):
            check_index(k, ROSTER, ("lineup_picks", t, i), "the roster")
    try:
        lineup.check_picks(state)
    except ValueError as e:
        raise SaveError(str(e), ("lineup_picks",)) from None


def _validate_relief_streak(streaks, teams, path: tuple) -> None:
    """A series' streaks: none (a single game), or one per player of both teams, a count of
    games from 0, and 0 for anyone but a reliever or closer."""
    if not streaks[0] and not streaks[1]:
        return
    for t in (0, 1):
        check_len(streaks[t], ROSTER, path + (t,))
        for k, n in enumerate(streaks[t]):
            check_int(n, path + (t, k), 0)
            card = teams[t].players[k]
            if n and not (card.kind == "pitcher" and card.role != "starter"):
                raise SaveError("only a reliever or closer has games in a row pitched",
                                path + (t, k))


def validate_carry(state: GameState, carry: object) -> None:
    """What a series carried into this game (``rules.series_carry``): ``{"rotation": [spot,
    spot], "relief_streak": [[games, ...], [games, ...]], "box_scores": [...]}``, the spots
    1-4 and the streaks this game holds; ``box_scores`` the finished games' box scores (at
    least one: a carry follows a game), each as ``BoxScore.summary`` writes it, of this
    game's teams; no streak longer than the games played. (That they are as many as the
    games before this one the series record says: ``ShowdownEnv.restore`` checks it.)"""
    saved_keys(carry, (), ("rotation", "relief_streak", "box_scores"))
    boxes = carry["box_scores"]
    if type(boxes) is not list or not boxes:
        raise SaveError(f"expected a list of the box scores of the games played (one or more), "
                        f"got {describe(boxes)}", ("box_scores",))
    for i, box in enumerate(boxes):
        _validate_box_score(box, [t.name for t in state.teams], ("box_scores", i))
    rotation = carry["rotation"]
    if type(rotation) is not list:
        raise SaveError(f"expected a list, got {type(rotation).__name__}", ("rotation",))
    check_len(rotation, 2, ("rotation",))
    for t in (0, 1):
        check_int(rotation[t], ("rotation", t), 1, 4)
        if state.starter[t] >= 0 and state.teams[t].rotation[rotation[t] - 1] != \
                state.card(t, state.starter[t]).key:
            raise SaveError("the game's starter is not the one the rotation sends out",
                            ("rotation", t))
    if carry["relief_streak"] != state.relief_streak:
        raise SaveError("the game's relief streaks are not the ones carried", ("relief_streak",))
    for t in (0, 1):
        for k, n in enumerate(state.relief_streak[t]):
            if n > len(boxes):
                raise SaveError(f"{n} games in a row pitched, but {len(boxes)} game(s) of the "
                                f"series were played", ("relief_streak", t, k))


#: A box score's per-team counts (``BoxScore.summary``), and its batting and pitching lines'.
_BOX_COUNTS = ("runs", "hits", "errors")
_BATTING_STATS = ("AB", "H", "R", "RBI", "BB", "SO", "SB", "2B", "3B", "HR")
_PITCHING_STATS = ("BF", "H", "R", "BB", "SO", "HR")


def _validate_box_score(box: object, teams: list[str], path: tuple) -> None:
    """One finished game's box score as ``BoxScore.summary`` writes it: its teams (these
    names), the line score, the runs, hits and errors, the batting lines and (once anyone
    pitched) the pitching lines of both teams, each named, with counts from 0 and IP as
    ``"innings.outs"``."""
    saved_keys(box, path, ("teams", "line_score", "batting") + _BOX_COUNTS, ("pitching",))
    if box["teams"] != teams:
        raise SaveError(f"the series' teams are {teams}, got {describe(box['teams'])}",
                        path + ("teams",))
    for key in ("line_score",) + _BOX_COUNTS + ("batting", "pitching"):
        value = box.get(key, [[], []])
        if type(value) is not list:
            raise SaveError(f"expected a list of the two teams', got {describe(value)}",
                            path + (key,))
        check_len(value, 2, path + (key,))
    for t in (0, 1):
        for key in _BOX_COUNTS:
            check_int(box[key][t], path + (key, t), 0)
        innings = box["line_score"][t]
        if type(innings) is not list:
            raise SaveError(f"expected a list of runs per inning, got {describe(innings)}",
                            path + ("line_score", t))
        for i, runs in enumerate(innings):
            check_int(runs, path + ("line_score", t, i), 0)
        for key, stats in (("batting", _BATTING_STATS), ("pitching", _PITCHING_STATS)):
            lines = box.get(key, [[], []])[t]
            if type(lines) is not list:
                raise SaveError(f"expected a list of lines, got {describe(lines)}", path + (key, t))
            for i, line in enumerate(lines):
                where = path + (key, t, i)
                saved_keys(line, where, ("name",) + stats + (("IP",) if key == "pitching" else ()))
                if type(line["name"]) is not str:
                    raise SaveError(f"expected a name, got {describe(line['name'])}",
                                    where + ("name",))
                for stat in stats:
                    check_int(line[stat], where + (stat,), 0)
                if key == "pitching":
                    ip = line["IP"] if type(line["IP"]) is str else ""
                    whole, dot, thirds = ip.partition(".")
                    if not (dot and whole.isascii() and whole.isdigit() and thirds in "012"
                            and len(thirds) == 1):
                        raise SaveError(f"expected innings pitched as \"innings.outs\" (6.2), got "
                                        f"{describe(line['IP'])}", where + ("IP",))


def _validate_team(state: GameState, t: int) -> None:
    """One team's records: entries per player, the lineup and its spots, the pitchers."""
    team = state.teams[t]
    for key in ("used", "batted", "innings_pitched", "runs_charged", "ip_bonus", "icons_left"):
        check_len(getattr(state, key)[t], ROSTER, (key, t))
    for k in range(ROSTER):
        check_int(state.runs_charged[t][k], ("runs_charged", t, k), 0)
        check_int(state.ip_bonus[t][k], ("ip_bonus", t, k), 0)
        innings = state.innings_pitched[t][k]
        for i, inning in enumerate(innings):
            check_int(inning, ("innings_pitched", t, k, i), 1, state.board.inning)
            if i and inning <= innings[i - 1]:
                raise SaveError("the innings a pitcher pitched in, each once, in order",
                                ("innings_pitched", t, k))
        for icon, left in state.icons_left[t][k].items():
            check_choice(icon, ICON_USES, ("icons_left", t, k))
            check_int(left, ("icons_left", t, k, f"[{icon!r}]"), 0, ICON_USES[icon])
    for key in ("twenty_inning", "relief_ace_inning"):
        check_int(getattr(state, key)[t], (key, t), 0)
    check_index(state.relief_ace_pitcher[t], ROSTER, ("relief_ace_pitcher", t), "the roster",
                none=-1)
    check_index(state.order[t], 9, ("order", t), "the batting order")
    lineup, pos = state.lineup[t], state.pos[t]
    if lineup_being_set(state):             # nothing of the lineups is set yet (lineup.py)
        if lineup or pos or state.pitcher_slot[t] != -1 or state.pitcher[t] != -1 \
                or any(state.used[t]) or state.box_line[t] or state.pitch_line[t]:
            raise SaveError("while the managers set their lineups, no lineup, position, "
                            "pitcher or batting line is set and nobody has entered",
                            ("lineup", t))
        check_index(state.starter[t], ROSTER, ("starter", t), "the roster")
        return
    check_len(lineup, 9, ("lineup", t))
    check_len(pos, 9, ("pos", t))
    slot = check_index(state.pitcher_slot[t], 9, ("pitcher_slot", t), "the lineup", none=-1)
    for i, k in enumerate(lineup):
        check_index(k, ROSTER, ("lineup", t, i), "the roster", none=-1 if i == slot else None)
        check_choice(pos[i], _LINEUP_POSITIONS, ("pos", t, i))
    placed = [k for k in lineup if k >= 0]
    if len(set(placed)) != len(placed):
        raise SaveError(f"a player bats in two spots: {lineup}", ("lineup", t))
    taken = [p for p in pos if p in FIELD_POSITIONS + ("DH",)]
    if len(set(taken)) != len(taken):
        raise SaveError(f"a position is taken twice: {pos}", ("pos", t))
    if slot >= 0 and pos[slot] not in ("P", "PH"):
        raise SaveError(f"the pitcher's spot holds the pitcher or a pinch hitter, got "
                        f"{pos[slot]!r}", ("pos", t, slot))
    if any(p == "P" for i, p in enumerate(pos) if i != slot) or (slot < 0 and "DH" not in pos):
        raise SaveError("the pitcher bats only in the pitcher's spot; without one the team has "
                        "a DH", ("pos", t))
    for k, line in state.box_line[t].items():
        check_index(k, ROSTER, ("box_line", t), "the roster")
        check_index(line, len(state.box.lines[t]), ("box_line", t, f"[{k}]"), "the batting lines")
    for k, line in state.pitch_line[t].items():
        check_index(k, ROSTER, ("pitch_line", t), "the roster")
        check_index(line, len(state.box.pitching[t]), ("pitch_line", t, f"[{k}]"),
                    "the pitching lines")
    starter = check_index(state.starter[t], ROSTER, ("starter", t), "the roster", none=-1)
    if starter >= 0 and not (isinstance(team.players[starter], PitcherCard)
                             and team.players[starter].role == "starter"):
        raise SaveError(f"player {starter} is not a starting pitcher", ("starter", t))
    p = check_index(state.pitcher[t], ROSTER, ("pitcher", t), "the roster", none=-1)
    if p < 0:
        return
    if not isinstance(team.players[p], PitcherCard) or starter < 0:
        raise SaveError(f"player {p} is not a pitcher (or no starter)", ("pitcher", t))
    if p not in state.pitch_line[t] or not state.used[t][p]:
        raise SaveError(f"the pitcher {p} has entered, with a pitching line", ("pitch_line", t))
    for k in placed:
        if k not in state.box_line[t] or not state.used[t][k]:
            raise SaveError(f"player {k} in the lineup has entered, with a batting line",
                            ("box_line", t))
    if slot >= 0 and lineup[slot] != p and not (pos[slot] == "PH" and state.needs_pitcher[t]):
        raise SaveError(f"the pitcher's spot holds the pitcher {p} or a pinch hitter for him, "
                        f"got {lineup[slot]}", ("lineup", t, slot))
    if slot < 0 and p in lineup:
        raise SaveError(f"with a DH the pitcher {p} does not bat", ("lineup", t))
    if "PH" in pos and not (state.needs_positions[t] or state.needs_pitcher[t]):
        raise SaveError("a team with a pinch hitter settles his place when it takes the field",
                        ("needs_positions", t))
    if state.needs_pitcher[t] and not bullpen(state, t):
        raise SaveError("a team that needs a pitcher has one in the bullpen", ("needs_pitcher", t))


def _validate_field(state: GameState, t: int) -> None:
    """A team with pinch hitters waiting for a place can fill its field when it next takes
    it (the expert game: with defensive replacements from the bench)."""
    if not state.needs_positions[t] or (t == 1 - state.board.half
                                        and state.step not in _SUB_STEPS):
        return
    if state.level == "expert":
        ok = roster.field_reachable(state, t, roster.fielders_of(state, t), roster.bench(state, t),
                                    roster._next_field_inning(state, t))
    else:
        trial = state.clone()
        try:
            roster.fill_positions(trial, t)
            ok = True
        except RuntimeError:
            ok = False
    if not ok:
        raise SaveError(f"team {t} cannot fill its field with {roster.fielders_of(state, t)}",
                        ("lineup", t))


def _validate_log(state: GameState) -> None:
    """The log as the play-by-play reads it: a known kind, players of the rosters (a card
    play names a team, a substitution the player replaced), bases, and each plate
    appearance's pitch, chart, swing and result."""
    for i, p in enumerate(state.log.plays):
        where = ("log", i)
        check_choice(p.kind, _PLAY_KINDS, where + (2,))
        check_index(p.actor, 2 if p.kind == "card" else ROSTER, where + (3,), "the roster",
                    none=-1 if p.kind in ("card_advance", "fielding_check") else None)
        check_int(p.base, where + (4,), -1, 3)
        for column, group in ((6, p.before), (7, p.after), (8, p.scored)):
            for j, r in enumerate(group):
                if r is not None:
                    check_index(r, ROSTER, where + (column, j), "the roster")
        if p.kind in _SUBSTITUTION_KINDS and not (p.detail.isdigit() and int(p.detail) < ROSTER):
            raise SaveError(f"a substitution names the player replaced, got {p.detail!r}",
                            where + (9,))
        if p.kind in ("steal", "caught_stealing", "thrown_out", "extra_base") and p.base < 0:
            raise SaveError("a steal or a throw names its base", where + (4,))
        if p.kind == "pa":
            check_choice(p.detail, OUTCOMES, where + (9,))
            if len(state.log_extra[i]) != 4:
                raise SaveError("a plate appearance's pitch, chart, swing and result",
                                ("log_extra", i))


def _validate_cards(state: GameState) -> None:
    """Strategy cards: indices of the card set, and every card of the decks given somewhere
    (deck, hand, in play, played this at-bat or discarded) once the decks are shuffled."""
    cs = state.card_set
    piles = ("decks", "hands", "discards", "in_play", "played")
    if cs is None:
        for key in piles + ("decks_given",):
            for t in (0, 1):
                if getattr(state, key)[t]:
                    raise SaveError("a game without strategy cards has none", (key, t))
        if state.window or state.window_then or state.window_turn != -1:
            raise SaveError("a game without strategy cards opens no card window", ("window",))
        return
    if state.level != "expert":
        raise SaveError("strategy cards are the expert game's", ("card_set",))
    names = cs.names
    for t in (0, 1):
        for i, name in enumerate(state.decks_given[t]):
            check_choice(name, names, ("decks_given", t, i))
        for key in piles:
            for i, c in enumerate(getattr(state, key)[t]):
                check_index(c, len(names), (key, t, i), "the card set")
        held = sorted(c for key in piles for c in getattr(state, key)[t])
        given = sorted(names.index(name) for name in state.decks_given[t])
        if held != given and (held or state.step not in _SETUP_STEPS):
            raise SaveError(f"team {t}'s strategy cards are the deck it was given", ("decks", t))
    if state.window:
        check_choice(state.window, WINDOWS, ("window",))
        check_int(state.window_turn, ("window_turn",), 0, 1)
        check_int(state.window_passes, ("window_passes",), 0, 1)
        check_choice(state.window_then, RULES, ("window_then",))
    elif state.window_then or state.window_turn != -1 or state.window_passes:
        raise SaveError("no card window is open", ("window",))


def _validate_at_bat(state: GameState) -> None:
    """The at-bat in progress holds what its step needs."""
    ab = state.ab
    path = ("ab",)
    for key in ("sb_asked", "scored", "eligible", "sent", "stealers", "sub_players", "sub_old"):
        for i, k in enumerate(getattr(ab, key)):
            check_index(k, ROSTER, path + (key, i), "the roster")
    check_index(ab.thrown, ROSTER, path + ("thrown",), "the roster", none=-1)
    check_index(ab.incoming, ROSTER, path + ("incoming",), "the roster", none=-1)
    if ab.ph_for is not None:
        check_index(ab.ph_for, 9, path + ("ph_for",), "the batting order")
    for i, base in enumerate(ab.pr_asked):
        check_int(base, path + ("pr_asked", i), 0, 2)
    for i, s in enumerate(ab.sub_slots):
        check_index(s, 9, path + ("sub_slots", i), "the batting order")
    if not (len(ab.sub_players) == len(ab.sub_old) == len(ab.sub_slots)) or \
            len(set(ab.sub_slots)) != len(ab.sub_slots):
        raise SaveError("a substitution's new players, old players and spots go together",
                        path + ("sub_slots",))
    check_int(ab.slots_placed, path + ("slots_placed",), 0, len(ab.sub_players))
    if ab.sub_then:
        check_choice(ab.sub_then, RULES, path + ("sub_then",))
    check_int(ab.glove, path + ("glove",), 0)
    for i, position in enumerate(ab.glove_asked):
        check_choice(position, FIELD_POSITIONS, path + ("glove_asked", i))
    for i, icon in enumerate(ab.icons_asked):
        check_choice(icon, ("K", "V", "S", "HR"), path + ("icons_asked", i))
    for key, v in ab.card_mods.items():
        check_choice(key, _CARD_MODS, path + ("card_mods",))
    if ab.chart is not None:
        check_choice(ab.chart, ("P", "B"), path + ("chart",))
    if ab.outs_before is not None:
        check_int(ab.outs_before, path + ("outs_before",), 0, 2)
    if ab.swing is not None:
        check_int(ab.swing, path + ("swing",), 1, 20)
    if ab.result is not None:
        check_choice(ab.result, RESULTS, path + ("result",))
    if ab.outcome is not None:
        check_choice(ab.outcome, CODE_OUTCOME, path + ("outcome",))
    if ab.throw_kind is not None:
        check_choice(ab.throw_kind, ("double_play", "extra_base"), path + ("throw_kind",))
    if ab.before is not None:
        for i, r in enumerate(ab.before):
            if r is not None:
                check_index(r, ROSTER, path + ("before", i), "the roster")
    if ab.throw is not None:
        throw = ab.throw
        if not (0 <= throw.runner < ROSTER and 1 <= throw.base <= 3
                and 0 <= throw.scored_before <= len(ab.scored)
                and all(r is None or 0 <= r < ROSTER for r in throw.bases)):
            raise SaveError("a throw at a runner of the roster, to a base", path + ("throw",))
    step = state.step
    window = state.window if step == "card_window" else ""
    pitched = step in _PITCHED_STEPS or step in _SWUNG_STEPS or window in ("on_result",
                                                                          "after_result") \
        or (step == "end_at_bat" and not state.board.over)
    if pitched and (ab.outs_before is None or (ab.chart is None and not ab.ibb)):
        raise SaveError(f"at step {step!r} the pitch has been made (outs_before, chart)",
                        path + ("chart",))
    swung = step in _SWUNG_STEPS or window in ("on_result", "after_result")
    if swung and ab.result is None and not ab.ibb:
        raise SaveError(f"at step {step!r} the swing's result is known", path + ("result",))
    carried = step in ("double_play", "send_runners", "throw_at", "gold_glove",
                       "double_play_roll", "throw_roll", "finish_play") or \
        window == "after_result"
    if carried and (ab.outcome is None or ab.before is None):
        raise SaveError(f"at step {step!r} the result has been carried out", path + ("outcome",))
    if step in ("gold_glove", "double_play_roll", "throw_roll") and ab.throw_kind is None:
        raise SaveError(f"at step {step!r} a throw is being made", path + ("throw_kind",))
    if step == "throw_roll" or (step == "gold_glove" and ab.throw_kind == "extra_base"):
        _validate_sent(state, 0 < len(ab.sent) <= 2 and ab.thrown in ab.sent)
    if step == "finish_play" and ab.throw is not None and not ab.throw.scored_before <= len(ab.scored):
        raise SaveError("the runs before the throw are among those scored", path + ("throw",))


def _validate_sent(state: GameState, ok: bool) -> None:
    """The runners sent for an extra base are on second or third, lead runner first."""
    b = state.board
    eligible = [r for r in (b.bases[2], b.bases[1]) if r is not None]
    if not ok or list(state.ab.sent) != eligible[:len(state.ab.sent)]:
        raise SaveError(f"the runners sent are the lead runners on third and second "
                        f"{eligible}, got {list(state.ab.sent)}", ("ab", "sent"))


def _offered(state: GameState, d: Decision) -> tuple[int, tuple[int, ...], int] | None:
    """The (actor, legal actions, subject) of the ``d.kind`` decision the rules ask at this
    step, or None when they ask none of that kind here."""
    b = state.board
    ab = state.ab
    bt, ft = b.half, 1 - b.half
    step, kind = state.step, d.kind
    level = state.level
    if kind in LINEUP_KINDS or lineup_being_set(state):
        offer = lineup.offered(state)
        return offer if offer is not None and kind == state.pending.kind else None
    if kind == "starting_pitcher":
        t = 0 if state.starter[0] < 0 else 1
        if step != "choose_starter" or state.starter[t] >= 0:
            return None
        return t, choose_player(tuple(starters_of(state, t)), False), -1
    if step in _SETUP_STEPS:
        return None
    if b.outs > 2 and kind != "play_card":
        return None
    yes = (PASS, YES)
    if kind == "pinch_hitter":
        if level == "basic" or not (step == "pitching_change" or (step == "pre_pitch" and ab.change)):
            return None
        options = pinch_hitter_options(state, bt, replaces_pinch_hitter=ab.ph_for is not None)
        return bt, (choose_player(options, True) if options else ()), state.order[bt]
    if kind == "pitching_change":
        if d.subject == 1:
            want = "defensive_replacement" if level == "expert" else "at_bat"
            if step != want or not state.needs_pitcher[ft] or state.pa_index:
                return None
            return ft, choose_player(tuple(bullpen(state, ft)), False), 1
        if d.subject == 2:              # a card forces the starter out (windows.force_starter_out)
            cards = state.card_set.cards if state.cards_on else ()
            ok = (step == "card_window" and state.window == "before_pitch"
                  and state.pitcher[ft] == state.starter[ft] and state.played[bt]
                  and any(e.do == "starter_out" for i in state.played[bt] for e in cards[i].effect))
            return (ft, choose_player(tuple(bullpen(state, ft)), False), 2) if ok else None
        if step != "pinch_hitter_again" or level == "basic" or not can_remove_starter(state, ft):
            return None
        return ft, choose_player(tuple(bullpen(state, ft)), True), 0
    if kind == "relief_ace":
        k = state.pitcher[ft]
        ok = (step == "twenty_game" and b.inning > 6 and state.pa_index == 0 and level != "basic"
              and state.card(ft, k).role != "starter" and state.icons_left[ft][k].get("RP", 0) > 0)
        return (ft, yes, -1) if ok else None
    if kind == "twenty_game":
        ok = (step == "stolen_base" and level == "advanced"
              and "20" in state.card(ft, state.pitcher[ft]).icons
              and state.twenty_inning[ft] != b.inning
              and not isinstance(state.card(bt, state.batter_index), PitcherCard))
        return (ft, yes, -1) if ok else None
    if kind == "stolen_base":
        base = d.subject
        if step != "stolen_base" or level == "basic" or base not in (0, 1):
            return None
        k = b.bases[base]
        ok = (k is not None and b.bases[base + 1] is None and k in ab.sb_asked
              and state.icons_left[bt][k].get("SB", 0) > 0)
        return (bt, yes, base) if ok else None
    if kind in ("strikeout", "reroll_out", "silver_slugger", "home_run_icon"):
        if step != "result_icons" or level != "advanced" or ab.result is None:
            return None
        if kind == "strikeout":
            ok = ("K" in ab.icons_asked and ab.result != "SO"
                  and state.icons_left[ft][state.pitcher[ft]].get("K", 0) > 0)
            return (ft, yes, -1) if ok else None
        icon, want = BATTER_ICONS.get(ab.result, (None, None))
        ok = (want == kind and icon in ab.icons_asked
              and state.icons_left[bt][state.batter_index].get(icon, 0) > 0)
        return (bt, yes, -1) if ok else None
    if kind == "double_play":
        ok = (step == "double_play" and level != "basic" and b.bases[0] is not None
              and b.outs < 2 and ab.result == "GB" and not (ab.ibb or ab.bunt or ab.no_dp))
        return (ft, yes, -1) if ok else None
    if kind == "gold_glove":
        if step != "gold_glove" or level != "advanced" or not 0 <= d.subject < len(FIELD_POSITIONS):
            return None
        position = FIELD_POSITIONS[d.subject]
        group = INFIELD if ab.throw_kind == "double_play" else OUTFIELD
        if position not in group or position not in ab.glove_asked or position not in state.pos[ft]:
            return None
        k = state.fielder_at(ft, position)
        return (ft, yes, d.subject) if state.icons_left[ft][k].get("G", 0) > 0 else None
    if kind == "send_runners":
        eligible = list(ab.eligible)
        on = [r for r in (b.bases[2], b.bases[1]) if r is not None]
        ok = (step == "send_runners" and level != "basic" and not ab.hold
              and 1 <= len(eligible) <= 2 and all(r in on for r in eligible)
              and eligible == [r for r in on if r in eligible])
        return (bt, (PASS, SEND_LEAD) + ((SEND_BOTH,) if len(eligible) == 2 else ()), -1) \
            if ok else None
    if kind == "throw_at":
        if step != "throw_at" or len(ab.sent) != 2 or list(ab.sent) != list(ab.eligible):
            return None
        _validate_sent(state, True)
        return ft, (THROW_LEAD, THROW_TRAIL), -1
    if level != "expert":
        return None
    if kind == "pinch_runner":
        base = d.subject
        if step != "pinch_runner" or base not in (0, 1, 2) or base not in ab.pr_asked:
            return None
        r = b.bases[base]
        options = () if r is None else roster.pinch_runner_options(state, bt, r)
        return bt, (choose_player(options, True) if options else ()), base
    if kind == "defensive_replacement":
        if step != "defensive_replacement":
            return None
        options = roster.replacement_options(state, ft)
        dh = next((k for k, p in zip(state.lineup[ft], state.pos[ft]) if p == "DH"), -1)
        return ft, (choose_player(options, roster.can_field(state, ft)) if options else ()), dh
    if kind == "replaced_player":
        new = ab.incoming
        if step != "replaced_player" or new < 0:
            return None
        return ft, choose_player(roster.replaced_options(state, ft, new), False), new
    if kind == "batting_slot":
        i = ab.slots_placed
        if step != "batting_slot" or len(ab.sub_players) - i < 2:
            return None
        return ft, choose_player(tuple(sorted(ab.sub_old[i:])), False), ab.sub_players[i]
    if kind == "intentional_walk":
        return (ft, yes, -1) if step == "sacrifice_bunt" else None
    if kind == "sacrifice_bunt":
        return (bt, yes, -1) if step == "before_pitch" and b.bases[2] is None else None
    if not state.cards_on or step != "card_window" or not state.window:
        return None
    if kind == "play_card":
        team = state.window_turn
        if not state.hands[team]:
            return None
        options = cardplay.window_options(state, team, state.window)
        return team, (PASS,) + tuple(CARD + i for i in options), WINDOWS.index(state.window)
    if kind == "catcher_throw":
        stealers = ab.stealers
        on = [r for r in b.bases if r is not None]
        if not 1 <= len(stealers) <= 2 or not all(r in on for r in stealers):
            return None
        for r in stealers:              # (a runner on third steals only home, alone)
            if b.bases.index(r) == 2 and len(stealers) > 1:
                return None
        return ft, ((PASS, YES) if len(stealers) == 1 else (PASS, THROW_LEAD, THROW_TRAIL)), -1
    return None


check_loaded_games_with(validate_game, validate_carry)
