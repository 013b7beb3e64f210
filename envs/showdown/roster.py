"""MLB Showdown's roster: who is in the game, where he plays and who may still come in.

The engine (``rules.py``) runs the at-bat and asks the managers; this module keeps the
lineups, positions and pitchers straight, after the rulebook's Setup, Substitutions and
Team Construction: the starting lineups and pitchers, a batting line for each player who
enters, who may pinch hit or pitch in relief, where a pinch hitter or a new pitcher goes
in the lineup (the DH's spot, the pitcher's spot) and every position filled when a team
takes the field.

Players are roster indices (0-24, the team file's order).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .cards import FIELD_POSITIONS, HitterCard, PitcherCard, Team, best_assignment, fielding_at
from .state import GameState

__all__ = ["ROSTER", "rotation_spot", "set_lineups", "starters_of", "starters_take_the_mound",
           "enter", "can_remove_starter", "bullpen", "bench", "legal_pinch_hitters",
           "pinch_hitter_options",
           "take_the_field", "fill_positions", "pinch_hit", "change_pitcher",
           "can_field", "field_reachable", "pinch_runner_options", "pinch_run",
           "replacement_options", "replaced_options", "replace_fielder", "fielders_of"]

ROSTER = 25


# ================================================================== setting up

def rotation_spot(roll: int) -> int:
    """Advanced Game Setup 2: 1-5 first starters, 6-10 second, 11-15 third, 16-20 fourth."""
    return (roll - 1) // 5


def set_lineups(state: GameState, spot: int | None,
                spots: tuple[int, int] | None = None) -> None:
    """Basic Setup 4-5 / Advanced Game Setup 3-5: each team's lineup from its team file (the
    DH's, or the one in which the pitcher bats), and the starters from rotation ``spot``
    (1-4) when it is known, or each team's own spot in ``spots`` (a series: "your starters
    take turns pitching")."""
    for t, team in enumerate(state.teams):
        keys = {c.key: k for k, c in enumerate(team.players)}
        if spots is not None:
            state.starter[t] = keys[team.rotation[spots[t] - 1]]
        elif spot is not None:
            state.starter[t] = keys[team.rotation[spot - 1]]
        for player, position in team.lineups["dh" if state.dh else "no_dh"]:
            if player == "P":
                state.pitcher_slot[t] = len(state.lineup[t])
            state.lineup[t].append(-1 if player == "P" else keys[player])
            state.pos[t].append(position)


def starters_of(state: GameState, team: int) -> list[int]:
    return [k for k, c in enumerate(state.teams[team].players)
            if isinstance(c, PitcherCard) and c.role == "starter"]



def starters_take_the_mound(state: GameState) -> None:
    """Basic Setup 6: the starters on the mound (in the pitcher's spot when the pitcher
    bats), batting lines for everyone in the lineups, a pitching line for each starter."""
    for t in (0, 1):
        k = state.starter[t]
        state.pitcher[t] = k
        if state.pitcher_slot[t] >= 0:
            state.lineup[t][state.pitcher_slot[t]] = k
        for slot in state.lineup[t]:
            enter(state, t, slot)
        if state.dh:
            enter(state, t, k)
        state.pitch_line[t][k] = state.box.add_pitcher(t, state.card(t, k).name)


def enter(state: GameState, team: int, k: int, label: str | None = None) -> None:
    """A player enters the game: he gets a batting line if he bats (labelled with his
    position, or ``label``)."""
    state.used[team][k] = True
    card = state.card(team, k)
    if k in state.lineup[team]:
        if label is None:
            label = state.pos[team][state.lineup[team].index(k)]
        state.box_line[team][k] = state.box.add_line(team, card.name, label)


# ================================================================== who may come in

def can_remove_starter(state: GameState, team: int) -> bool:
    """"You can only remove your starter if ... It's after the 4th inning. He's given up 10
    or more runs." (the third condition, a strategy card, is the expert game's)."""
    k = state.pitcher[team]
    return k != state.starter[team] or state.board.inning > 4 or state.runs_charged[team][k] >= 10


class _TeamFacts(NamedTuple):
    """What a team's cards alone decide, as roster indices (teams are immutable, so this is
    worked out once per team object)."""
    team: Team
    hitters: tuple[int, ...]            # hitters
    relief: tuple[int, ...]             # relievers and closers
    qualifies: tuple[int, ...]          # per player, the positions he may play (_qualifies_mask)
    keys: dict[str, int]                # card key -> roster index


_FACTS: dict[int, _TeamFacts] = {}


def _team_facts(team: Team) -> _TeamFacts:
    known = _FACTS.get(id(team))
    if known is None or known.team is not team:
        players = team.players
        known = _TeamFacts(
            team,
            hitters=tuple(k for k, c in enumerate(players) if isinstance(c, HitterCard)),
            relief=tuple(k for k, c in enumerate(players)
                         if isinstance(c, PitcherCard) and c.role != "starter"),
            qualifies=tuple(_qualifies_mask(c) for c in players),
            keys={c.key: k for k, c in enumerate(players)})
        if len(_FACTS) > 1024:
            _FACTS.clear()
        _FACTS[id(team)] = known
    return known


def _started(state: GameState, team: int) -> frozenset[int]:
    """Who started the game for ``team``: its starting lineup and its starting pitcher
    (worked out once per team, DH rule and starter)."""
    if state.lineup_setting == "manager":       # the lineup its manager set (lineup.py)
        picks = state.lineup_picks[team]
        n = len(FIELD_POSITIONS)
        return frozenset(picks[:n + int(state.dh)]) | {state.starter[team]}
    memo = _team_memo(_STARTED, state.teams[team])
    key = (state.dh, state.starter[team])
    known = memo.get(key)
    if known is None:
        lineup = state.teams[team].lineups["dh" if state.dh else "no_dh"]
        keys = _team_facts(state.teams[team]).keys
        known = memo[key] = frozenset({keys[p] for p, _ in lineup if p != "P"}
                                      | {state.starter[team]})
    return known


def _roster_parts(team: Team) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hitters, relievers and closers) of a team, as roster indices."""
    facts = _team_facts(team)
    return facts.hitters, facts.relief


def bullpen(state: GameState, team: int) -> list[int]:
    """Relievers and closers who have not pitched ("you can't send in another starter")."""
    used = state.used[team]
    return [k for k in _team_facts(state.teams[team]).relief if not used[k]]


def bench(state: GameState, team: int) -> list[int]:
    """Hitters who have not entered the game."""
    used = state.used[team]
    return [k for k in _team_facts(state.teams[team]).hitters if not used[k]]


def _is_backup(state: GameState, team: int, k: int) -> bool:
    return state.card(team, k).key in state.teams[team].backups


def legal_pinch_hitters(state: GameState, team: int, replaces_pinch_hitter: bool) -> list[int]:
    """Bench hitters who may bat for the man due up (Substitutions; Team Construction).

    "All players who start the game must bat at least once before a pinch hitter can bat
    for them": a starter due up must have batted. A pinch hitter sent up earlier in this
    at-bat is batted for only in step 3 (``replaces_pinch_hitter``: "This is the only time
    you can send in one pinch hitter for another"). Anyone else (a reliever, a pinch
    runner, a defensive replacement) may be batted for before he has batted.
    """
    return list(pinch_hitter_options(state, team, replaces_pinch_hitter))


def pinch_hitter_options(state: GameState, team: int, replaces_pinch_hitter: bool) -> tuple[int, ...]:
    """:func:`legal_pinch_hitters` as a tuple (shared: the engine's own, read-only)."""
    slot = state.order[team]
    k = state.lineup[team][slot]
    if not state.batted[team][k] and not replaces_pinch_hitter and k in _started(state, team):
        return ()
    waiting = tuple(bench(state, team))
    if not waiting:         # an empty bench: nobody may pinch hit (most at-bats of a game)
        return ()
    is_pitcher = isinstance(state.teams[team].players[k], PitcherCard)
    if is_pitcher:
        if not can_remove_starter(state, team) or not bullpen(state, team):
            return ()
    # the inning in which this team next takes the field
    board = state.board
    next_field = board.inning + board.half
    if state.level == "expert":
        return tuple(cand for cand in waiting
                     if not (_is_backup(state, team, cand) and not is_pitcher and next_field < 7)
                     and _may_replace(state, team, slot, cand, next_field))
    # they change only when the lineup or the bench does: worked out once per team and
    # (lineup, positions, pitcher's slot, slot, before the 7th, bench)
    key = (tuple(state.lineup[team]), tuple(state.pos[team]), state.pitcher_slot[team], slot,
           next_field < 7, waiting)
    memo = _team_memo(_PINCH, state.teams[team])
    known = memo.get(key)
    if known is None:
        known = memo[key] = tuple(_pinch_candidates(state, team, k, state.pos[team][slot],
                                                    is_pitcher, next_field))
    return known


_PINCH: dict[int, tuple[Team, dict]] = {}
_STARTED: dict[int, tuple[Team, dict]] = {}
_FIELD: dict[int, tuple[Team, dict]] = {}


def _team_memo(store: dict[int, tuple[Team, dict]], team: Team) -> dict:
    """``store``'s memo for ``team`` (teams are immutable; a memo is kept per team object
    and emptied when it grows past 4,096 entries)."""
    known = store.get(id(team))
    if known is None or known[0] is not team:
        if len(store) > 64:
            store.clear()
        known = store[id(team)] = (team, {})
    memo = known[1]
    if len(memo) > 4096:
        memo.clear()
    return memo


def _pinch_candidates(state: GameState, team: int, k: int, position: str, is_pitcher: bool,
                      next_field: int) -> list[int]:
    """The bench hitters who may bat for ``k`` (batting at ``position``), the rest of the
    field permitting (see :func:`legal_pinch_hitters`)."""
    players, current = _fielders(state, team)
    qualifies = _team_facts(state.teams[team]).qualifies
    # the others stand where they are (nobody else waiting for a position)
    settled = all(current[p] != "PH" for p in players if p != k)
    out = []
    for cand in bench(state, team):
        if _is_backup(state, team, cand) and not is_pitcher and next_field < 7:
            continue    # "Before the 7th inning, backup players can only pinch hit for pitchers"
        if position in ("DH", "P") or is_pitcher:
            out.append(cand)
            continue
        card = state.card(team, cand)
        if settled and position != "PH" and card.fielding(position) is not None:
            out.append(cand)
            continue
        trial = [cand if p == k else p for p in players]
        masks = tuple(sorted(qualifies[p] for p in trial))
        if _can_fill(masks):
            out.append(cand)
    return out


# ================================================================== taking the field

def take_the_field(state: GameState, team: int) -> None:
    """"When a team's turn at the plate is over, the defense first checks to see that it
    can field all the positions": pinch hitters who stay in the game get positions."""
    if state.needs_positions[team]:
        fill_positions(state, team)
        state.needs_positions[team] = False


@lru_cache(maxsize=4096)
def _qualifies_mask(card: HitterCard | PitcherCard) -> int:
    """Bit i set when the card may play FIELD_POSITIONS[i]."""
    if card.kind != "hitter":
        return 0
    return sum(1 << i for i, pos in enumerate(FIELD_POSITIONS) if card.fielding(pos) is not None)


@lru_cache(maxsize=65536)
def _can_fill(masks: tuple[int, ...]) -> bool:
    """Whether players with these qualification masks can fill all eight positions."""
    reachable = {0}
    for i in range(len(FIELD_POSITIONS)):
        reachable = {used | 1 << j for used in reachable for j, m in enumerate(masks)
                     if m >> i & 1 and not used >> j & 1}
        if not reachable:
            return False
    return True


def _field_assignment(state: GameState, team: int, players: list[int],
                      current: dict[int, str]) -> dict[int, str] | None:
    """Positions for eight players, keeping as many where they were as possible (exact);
    worked out once per team and (players, where they were)."""
    memo = _team_memo(_FIELD, state.teams[team])
    key = (tuple(players), tuple(current[k] for k in players))
    if state.level == "expert":
        key += (state.board.inning >= 7,)
    if key not in memo:
        memo[key] = _best_field(state, team, players, current)
    known = memo[key]
    return None if known is None else dict(known)


def _best_field(state: GameState, team: int, players: list[int],
                current: dict[int, str]) -> dict[int, str] | None:
    expert = state.level == "expert"

    def score(k: int, position: str):
        card = state.card(team, k)
        fielding = card.fielding(position) if card.kind == "hitter" else None
        if expert:
            if not (_expert_mask(card) >> FIELD_POSITIONS.index(position) & 1) or not _may_field(
                    state, team, k, state.board.inning):
                return None
            fielding = fielding_at(card, position, True)
        if fielding is None:
            return None
        return fielding + (100 if current.get(k) == position else 0)

    placed = best_assignment(players, FIELD_POSITIONS, score)
    return None if placed is None else {k: pos for pos, k in placed.items()}


def _fielders(state: GameState, team: int) -> tuple[list[int], dict[int, str]]:
    """The eight players who take the field (not the DH, not the pitcher's spot)."""
    players, current = [], {}
    for slot, position in enumerate(state.pos[team]):
        if position != "DH" and slot != state.pitcher_slot[team]:
            k = state.lineup[team][slot]
            players.append(k)
            current[k] = position
    return players, current


def fill_positions(state: GameState, team: int) -> None:
    """The team takes the field: every position filled by a player who qualifies."""
    players, current = _fielders(state, team)
    assignment = _field_assignment(state, team, players, current)
    if assignment is None:   # legal_pinch_hitters never lets this happen
        raise RuntimeError(f"team {team} cannot fill the field with {players}")
    for slot, k in enumerate(state.lineup[team]):
        if k in assignment:
            state.pos[team][slot] = assignment[k]


# ================================================================== substitutions

def pinch_hit(state: GameState, team: int, new: int) -> int:
    """Player ``new`` bats for the man due up, who leaves the game; returns him. A pinch
    hitter for the DH is the DH; any other waits for a position until his team takes the
    field, and one who bats for the pitcher means "you must bring a new one in"."""
    slot = state.order[team]
    old = state.lineup[team][slot]
    state.lineup[team][slot] = new
    if state.pos[team][slot] != "DH":
        state.pos[team][slot] = "PH"
        if slot == state.pitcher_slot[team]:
            state.needs_pitcher[team] = True
        else:
            state.needs_positions[team] = True
    enter(state, team, new)
    return old


def change_pitcher(state: GameState, team: int, new: int) -> int:
    """Player ``new`` pitches; returns the old pitcher, who can't come back. The new pitcher
    takes the old one's spot in the batting order (or the spot of the pinch hitter who
    batted for him); with a DH he does not bat."""
    old = state.pitcher[team]
    state.pitcher[team] = new
    state.used[team][new] = True
    slot = state.pitcher_slot[team]
    if slot >= 0:
        state.lineup[team][slot] = new
        state.pos[team][slot] = "P"
        state.box_line[team][new] = state.box.add_line(team, state.card(team, new).name, "P")
    state.needs_pitcher[team] = False
    state.pitch_line[team][new] = state.box.add_pitcher(team, state.card(team, new).name)
    return old


# ================================================================== the expert game
# "In the expert rules, anyone who isn't a pitcher can play first base", pinch runners,
# defensive replacements and double switches (Expert Substitutions). The lineup is checked
# only when the team takes the field; a substitution is legal when a legal field can still
# be made then, with defensive replacements from the bench (RULES.md, "Expert lineups").

_FIRST = 1 << FIELD_POSITIONS.index("1B")


def _expert_mask(card: HitterCard | PitcherCard) -> int:
    """The positions a player may take in the expert game: his own, and first base for
    anyone who is not a pitcher."""
    mask = _qualifies_mask(card)
    return mask | _FIRST if card.kind == "hitter" else mask


def _may_field(state: GameState, team: int, k: int, inning: int) -> bool:
    """Backups "can't take the field before the 7th inning"; pitchers only pitch."""
    card = state.card(team, k)
    return card.kind == "hitter" and not (_is_backup(state, team, k) and inning < 7)


def fielders_of(state: GameState, team: int) -> list[int]:
    """The eight players who take the field (not the DH, not the pitcher's spot)."""
    return _fielders(state, team)[0]


def _next_field_inning(state: GameState, team: int) -> int:
    b = state.board
    if b.half != team:          # in the field now
        return b.inning
    return b.inning + (1 if team == 1 else 0)


def field_reachable(state: GameState, team: int, players: list[int], bench_: list[int],
                    inning: int) -> bool:
    """Whether ``players`` (the eight in the fielding spots), with defensive replacements
    from ``bench_``, can fill every position in ``inning`` (a replacement takes any spot:
    the eight who field are any eight of them who can)."""
    masks = [_expert_mask(state.card(team, k)) for k in players + bench_
             if _may_field(state, team, k, inning)]
    if len(masks) < len(FIELD_POSITIONS):
        return False
    return _can_fill(tuple(sorted(masks)))


def can_field(state: GameState, team: int) -> bool:
    """Whether the eight in the fielding spots can fill every position now, as they are."""
    return field_reachable(state, team, fielders_of(state, team), [],
                           _next_field_inning(state, team))


def _may_replace(state: GameState, team: int, slot: int, new: int, inning: int) -> bool:
    """Whether ``new`` may take batting ``slot``, leaving a field that the rest of the bench
    can still make legal (a pitcher's or DH's spot needs no field position, but ``new``
    leaves the bench)."""
    old = state.lineup[team][slot]
    players = [new if k == old else k for k in fielders_of(state, team)]
    rest = [k for k in bench(state, team) if k != new]
    return field_reachable(state, team, players, rest, inning)


def pinch_runner_options(state: GameState, team: int, runner: int) -> tuple[int, ...]:
    """Bench hitters who may run for ``runner`` (Expert Substitutions; "Backup players can
    pinch run at any time, but they must observe the rules for taking the field"). A runner
    in the pitcher's spot can be run for only when a reliever can take the mound."""
    lineup = state.lineup[team]
    if runner not in lineup:
        return ()
    slot = lineup.index(runner)
    if slot == state.pitcher_slot[team]:
        if not can_remove_starter(state, team) or not bullpen(state, team):
            return ()
    inning = _next_field_inning(state, team)
    return tuple(k for k in bench(state, team) if _may_replace(state, team, slot, k, inning))


def pinch_run(state: GameState, team: int, base: int, new: int) -> int:
    """Player ``new`` runs for the man on ``base``: "he goes to the base where the old runner
    was and takes the old runner's spot in the batting order"; returns the old runner."""
    b = state.board
    old = b.bases[base]
    slot = state.lineup[team].index(old)
    state.lineup[team][slot] = new
    if state.pos[team][slot] != "DH":
        state.pos[team][slot] = "PH"            # his place in the field waits, as a PH's does
        if slot == state.pitcher_slot[team]:
            state.needs_pitcher[team] = True
        else:
            state.needs_positions[team] = True
    bases = list(b.bases)
    bases[base] = new
    b.bases = (bases[0], bases[1], bases[2])
    enter(state, team, new, label="PR")
    if old in state.responsible:
        state.responsible[new] = state.responsible.pop(old)
    if state.plus_runner == old:
        state.plus_runner = new
    return old


def _field_key(state: GameState, team: int) -> tuple:
    """What the expert substitution options are made from (they change only with it)."""
    return (tuple(state.lineup[team]), tuple(state.pos[team]), state.pitcher_slot[team],
            state.pitcher[team], tuple(bench(state, team)), state.board.inning >= 7)


_REPLACE: dict[int, tuple[Team, dict]] = {}


def replacement_options(state: GameState, team: int) -> tuple[int, ...]:
    """Who may come in as a defensive replacement: bench hitters allowed to field this
    inning, and the DH himself ("If the player you're using as designated hitter takes the
    field, your team loses its designated hitter"), each only when some fielder can make
    way for him with a legal field still reachable (worked out once per lineup, positions
    and bench)."""
    memo = _team_memo(_REPLACE, state.teams[team])
    key = _field_key(state, team)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _replacement_options(state, team)
    return known


def _replacement_options(state: GameState, team: int) -> tuple[int, ...]:
    out = [k for k in bench(state, team) if _may_field(state, team, k, state.board.inning)]
    if state.pitcher_slot[team] < 0:
        dh = [state.lineup[team][s] for s, p in enumerate(state.pos[team]) if p == "DH"]
        out += [k for k in dh if _may_field(state, team, k, state.board.inning)]
    return tuple(sorted(k for k in out if replaced_options(state, team, k)))


def replaced_options(state: GameState, team: int, new: int) -> tuple[int, ...]:
    """The fielders ``new`` may replace: a legal field must still be reachable."""
    inning = state.board.inning
    players = fielders_of(state, team)
    rest = [k for k in bench(state, team) if k != new]
    return tuple(sorted(old for old in players
                        if field_reachable(state, team, [new if k == old else k for k in players],
                                           rest, inning)))


def replace_fielder(state: GameState, team: int, new: int, old: int) -> int:
    """A defensive replacement: ``new`` takes ``old``'s spot in the batting order and the
    field is juggled when the substitution is over. When ``new`` is the DH, he takes the
    field, ``old`` leaves, and the pitcher bats in ``old``'s spot from now on. Returns the
    batting slot ``new`` took (-1 for the DH, who keeps his own)."""
    lineup, pos = state.lineup[team], state.pos[team]
    slot = lineup.index(old)
    if new in lineup:                           # the DH takes the field
        pos[lineup.index(new)] = "PH"
        p = state.pitcher[team]
        lineup[slot] = p
        pos[slot] = "P"
        state.pitcher_slot[team] = slot
        state.box_line[team][p] = state.box.add_line(team, state.card(team, p).name, "P")
        state.needs_positions[team] = True
        return -1
    lineup[slot] = new
    pos[slot] = "PH"
    enter(state, team, new, label="DR")
    state.needs_positions[team] = True
    return slot
