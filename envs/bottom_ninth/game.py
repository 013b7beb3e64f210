"""The Longer Game (mode "game", RULES.md): both teams bat and pitch for ``innings`` innings.

Its set-up (the Player Draft of both teams, or each team's picks, with support cards), the
start of each half inning (a pitching change between innings, a double switch, the
inning's fatigue), pinch hitting and the bullpen. A plate appearance is the duel's
(:mod:`.rules`), played by the roles of the half inning; :mod:`.rules` assembles the one
pair of rule tables (``RULES``, ``CHOICES``) that plays both modes from these rules and its
own.
"""

from __future__ import annotations

from ..core.decisions import Decision
from ..core.dice import Dice, ScriptedDice
from ..core.scoreboard import Scoreboard
from ..core.scorebook import BoxScore, Play, PlayLog
from .cards import FIELD_POSITIONS, CardSet, can_complete_lineup, matching_size
from .state import (CARD, FATIGUE_DIR, FATIGUE_LOC, GAME_LINEUP, GAME_TEAM_NAMES, KEEP, PASS,
                    PICK_FIRST, PICK_SECOND, SLOT, SUPPORT, GameState, Grant, clear_pitch)
from .support import SupportSet

__all__ = ["long_game", "preset_teams", "joint_feasible", "bullpen", "sub_slots"]


def long_game(dice: Dice | ScriptedDice, cards: CardSet, faces: tuple[str, ...], *,
                  draft: bool, teams: str, fatigue_rows: int, out_rule: str, innings: int,
                  max_innings: int | None, batters: int, pitchers: int, support: bool,
                  supports: SupportSet | None) -> GameState:
    """A longer game before its first rule (:func:`.rules.new_game` plays it on to its first
    decision): ``teams`` "default" (presets, no decisions) or "choose" (both managers pick;
    ``draft`` first)."""
    board = Scoreboard(innings=innings, max_innings=max_innings)
    box = BoxScore(list(GAME_TEAM_NAMES), [[], []])
    state = GameState(board=board, dice=dice, box=box, log=PlayLog(), cards=cards, faces=faces,
                      fatigue_rows=fatigue_rows, out_rule=out_rule, teams=teams, draft=draft,
                      mode="game", supports=supports if support else None, n_batters=batters,
                      n_pitchers=pitchers, use_support=bool(support))
    if support == "shared":
        draw_shared_support(state)
    if teams == "default":
        preset_teams(state)
    return state


def preset_teams(state: GameState) -> None:
    """The longer game's presets (``teams="default"``): the first legal pick at every choice
    of the "choose" set-up (each pick checks that both teams can still be completed), and
    with support cards the first two. No die is rolled and nothing but the card set, the
    support cards and the team sizes decides them, so they are worked out once for each
    and copied into every new game.

    The presets are picked as they were first shipped, before the selection checked a
    pitcher's own role (``roles=False``): a pitcher fills the next staff slot whatever his
    designation, so the built-in set's away bullpen holds Starting Pitchers, who never come
    in. Kept so that every default game stays the game it was (RULES.md)."""
    key = (id(state.cards), id(state.supports), state.n_batters, state.n_pitchers,
           state.use_support, state.draft)
    known = _PRESETS.get(key)
    if known is None or known[0] is not state.cards or known[1] is not state.supports:
        state.step = "game_select"
        while state.step != "play_ball":
            offer_game_select(state, roles=False)
            if state.pending is not None:
                d, state.pending = state.pending, None
                SELECTIONS[d.kind](state, d, d.legal[0])
        if len(_PRESETS) >= 64:       # (a few card sets a process: never more than 64 kept)
            _PRESETS.clear()
        _PRESETS[key] = (state.cards, state.supports, tuple(tuple(x) for x in state.lineups),
                         tuple(tuple(x) for x in state.benches),
                         tuple(tuple(x) for x in state.staffs))
    else:
        state.lineups = [list(x) for x in known[2]]
        state.benches = [list(x) for x in known[3]]
        state.staffs = [list(x) for x in known[4]]
        state.step = "play_ball"
    if state.use_support and not state.shared_support:
        state.support = [0, 1]


def draw_shared_support(state: GameState) -> None:
    """Support Characters: "During setup, you may put one character into play. Both you and
    your opponent can use the Abilities described throughout the game": one card of the
    support set, drawn by a die (who chooses it is not said), held by both teams."""
    state.use_support = state.shared_support = True
    state.dice.set_stream(0, 0, 0)
    k = state.dice.randbelow("support", len(state.supports.cards))
    state.support = [k, k]


#: preset_teams' teams, by (card set, support set, batters, pitchers, support, draft): the
#: card set and the support set themselves, then the lineups, benches and staffs
_PRESETS: dict[tuple, tuple] = {}


def _augment(eligible: list[tuple[int, ...]], owner: list[int], i: int, seen: list[bool]) -> bool:
    for p in eligible[i]:
        if not seen[p]:
            seen[p] = True
            if owner[p] < 0 or _augment(eligible, owner, owner[p], seen):
                owner[p] = i
                return True
    return False


def joint_feasible(teams: list[tuple[list, list, int]], pool: list[tuple[int, ...]],
                   kinds: int, total: int) -> bool:
    """Whether both teams can complete their cards from one shared pool, each card to one
    team: ``teams[t]`` = (cards that must take a slot, cards that may, cards held), each card
    its eligible slot kinds (0..kinds-1, one slot of each kind per team), ``total`` the cards
    each team ends with. A bipartite matching (augmenting paths): a team's own cards first
    (they keep their slots), the pool last; the pool cards a team needs must fit its picks."""
    eligible: list[tuple[int, ...]] = []
    order: list[tuple[int, bool]] = []
    for t, (must, may, _) in enumerate(teams):
        for e in must:
            eligible.append(tuple(t * kinds + k for k in e))
            order.append((t, True))
        for e in may:
            eligible.append(tuple(t * kinds + k for k in e))
            order.append((t, False))
    n_own = len(eligible)
    for e in pool:
        eligible.append(tuple(t * kinds + k for t in (0, 1) for k in e))
    owner = [-1] * (2 * kinds)
    for i in range(len(eligible)):
        ok = _augment(eligible, owner, i, [False] * (2 * kinds))
        if not ok and i < n_own and order[i][1]:
            return False
    if min(owner) < 0:
        return False
    need = [total - teams[t][2] for t in (0, 1)]
    if min(need) < 0 or len(pool) < sum(need):
        return False
    for t in (0, 1):
        if sum(owner[t * kinds + k] >= n_own for k in range(kinds)) > need[t]:
            return False
    return True


_BATTER_KINDS = len(FIELD_POSITIONS)


def _pitcher_kinds(card) -> tuple[int, ...]:
    return tuple(k for k, ok in ((0, card.can_start), (1, card.can_relieve)) if ok)


def roll_for_draft_order(state: GameState) -> None:
    """Player Draft: "Players roll a single die. The winner may decide" to pick first or
    second (the duel's draft and the longer game's alike). Cards dealt at random
    (``dealt``) have no die winner: away takes the first card."""
    state.dice.set_stream(0, 0, 0)
    if state.dealt:
        state.draft_first = 0
        state.step = "game_draft" if state.mode == "game" else "draft_pick"
        return
    winner = state.dice.randbelow("draft", 2)
    state.pending = Decision("draft_order", winner, (PICK_FIRST, PICK_SECOND))


def game_setup(state: GameState) -> None:
    """Set-up of the longer game: a draft (Player Draft) or both managers' picks."""
    if state.draft:
        roll_for_draft_order(state)
    else:
        state.step = "game_select"


def _pool(state: GameState, batters: bool) -> list[int]:
    cs = state.cards
    taken = set(state.drafted[0]) | set(state.drafted[1])
    for t in (0, 1):
        taken |= set(state.lineups[t]) | set(state.benches[t]) | set(state.staffs[t])
    return [i for i in range(len(cs.cards)) if cs.is_batter(i) == batters and i not in taken]


def _draft_ok(state: GameState, seat: int, pick: int, batters: bool) -> bool:
    cs = state.cards
    held = [[i for i in state.drafted[t] if cs.is_batter(i) == batters] for t in (0, 1)]
    held[seat] = held[seat] + [pick]
    pool = [i for i in _pool(state, batters) if i != pick]
    if batters:
        elig = lambda i: cs.card(i).eligible                       # noqa: E731
        return joint_feasible([([], [elig(i) for i in held[t]], len(held[t])) for t in (0, 1)],
                              [elig(i) for i in pool], _BATTER_KINDS, state.n_batters)
    elig = lambda i: _pitcher_kinds(cs.card(i))                     # noqa: E731
    return joint_feasible([([], [elig(i) for i in held[t]], len(held[t])) for t in (0, 1)],
                          [elig(i) for i in pool], 2, state.n_pitchers)


def offer_game_draft(state: GameState) -> None:
    """Player Draft: "Beginning with the Pitchers, select players until each team has an
    equal number before moving on to the Batters. Optionally, draft an equal number of
    support cards last": alternate picks, ``pitchers`` each, then ``batters`` each, then one
    support card each; a pick must leave both teams, together, able to complete a legal team."""
    picks = len(state.drafted[0]) + len(state.drafted[1])
    n_p, n_b = 2 * state.n_pitchers, 2 * state.n_batters
    seat = state.draft_first if picks % 2 == 0 else 1 - state.draft_first
    if picks < n_p + n_b:
        batters = picks >= n_p
        legal = tuple(sorted(CARD + i for i in _pool(state, batters) if _draft_ok(state, seat, i, batters)))
        if not legal:
            raise RuntimeError("no legal draft pick: the card set is too small for a draft")
        offer_or_deal(state, Decision("draft_pick", seat, legal), choose_game_draft_pick)
        return
    if offer_support_pick(state, choose_game_draft_pick):
        return
    state.step = "game_select"


def offer_support_pick(state: GameState, choose) -> bool:
    """"Optionally, draft an equal number of support cards last": one each, the first picker
    first (the duel's draft and the Longer Game's); False when none is left to pick."""
    if not (state.use_support and min(state.support) < 0):
        return False
    seat = state.draft_first if state.support[state.draft_first] < 0 else 1 - state.draft_first
    free = [k for k in range(len(state.supports.cards)) if k not in state.support]
    offer_or_deal(state, Decision("draft_pick", seat, tuple(SUPPORT + k for k in free)), choose)
    return True


def offer_or_deal(state: GameState, decision: Decision, choose) -> None:
    """A draft pick: the manager's decision, or with cards dealt at random ("Pitcher and
    Batter Cards may be allocated randomly if you are going to play a multiple-inning game
    or a series of several games") a legal pick drawn by the dice (purpose ``deal``), so
    the teams come out as legal as a draft's."""
    if state.dealt:
        choose(state, decision, decision.legal[state.dice.randbelow("deal", len(decision.legal))])
    else:
        state.pending = decision


def choose_game_draft_pick(state: GameState, decision: Decision, action: int) -> None:
    if action >= SUPPORT:
        state.support[decision.actor] = action - SUPPORT
    else:
        state.drafted[decision.actor].append(action - CARD)


def _select_seat(state: GameState) -> tuple[int, str]:
    """Who picks what next in the selections: away's team, then home's; the lineup (8 in
    batting order), the bench, the starter, the bullpen, the support card."""
    for t in (0, 1):
        if len(state.lineups[t]) < 8:
            return t, "lineup"
        if state.draft:
            if not state.staffs[t]:
                return t, "starter"
            continue
        if len(state.benches[t]) < state.n_batters - 8:
            return t, "bench"
        if len(state.staffs[t]) < state.n_pitchers:
            return t, "pitcher"
        if state.use_support and state.support[t] < 0:
            return t, "support"
    return -1, ""


def _choose_ok(state: GameState, t: int, pick: int, what: str, roles: bool = True) -> bool:
    """A pick (no draft) that leaves both teams a legal team from the cards left. A pitcher
    picked must be able to fill the slot he is picked for (``roles``; the presets' picks
    alone skip that check, see :func:`preset_teams`)."""
    cs = state.cards
    if what in ("lineup", "bench"):
        elig = lambda i: cs.card(i).eligible                        # noqa: E731
        teams = []
        for u in (0, 1):
            line = state.lineups[u] + ([pick] if u == t and what == "lineup" else [])
            bench = state.benches[u] + ([pick] if u == t and what == "bench" else [])
            teams.append(([elig(i) for i in line], [], len(line) + len(bench)))
        pool = [elig(i) for i in _pool(state, True) if i != pick]
        return joint_feasible(teams, pool, _BATTER_KINDS, state.n_batters)
    kinds = state.n_pitchers

    def slots(i: int) -> tuple[int, ...]:
        """The staff slots card ``i`` may fill: 0 the starter's ("A Pitcher with the
        designation of Relief Pitcher can only be used to replace a Pitcher (can not start
        a game)"), 1.. the bullpen's ("A Pitcher with the designation of Starting Pitcher
        can only be played as your initial Pitcher and may not be used for relief")."""
        return tuple(k for k in range(kinds) if (k == 0 and cs.card(i).can_start)
                     or (k > 0 and cs.card(i).can_relieve))

    teams = []
    for u in (0, 1):
        staff = state.staffs[u] + ([pick] if u == t else [])
        # each pick holds the slot it was picked for (slot 0 the starter, then the bullpen)
        # and must be able to fill it: its own role is checked as the pool's is
        must = [tuple(k for k in (slots(i) if roles else range(kinds)) if (k == 0) == (j == 0))
                for j, i in enumerate(staff)]
        teams.append((must, [], len(staff)))
    pool = [slots(i) for i in _pool(state, False) if i != pick]
    return joint_feasible(teams, pool, kinds, state.n_pitchers)


def offer_game_select(state: GameState, roles: bool = True) -> None:
    """Each team's lineup ("8 Batter lineup (Pitcher being your 9th batter)", one per field
    position, in batting order), bench, starter (not a Relief Pitcher) and bullpen (not
    Starting Pitchers), from its draft or (no draft) from the cards the other team left.
    ``roles=False`` (the presets only) leaves a pitcher's own role unchecked."""
    cs = state.cards
    t, what = _select_seat(state)
    if t < 0:
        state.step = "play_ball"
        return
    if state.draft:
        mine = state.drafted[t]
        if what == "lineup":
            pool = [i for i in mine if cs.is_batter(i) and i not in state.lineups[t]]
            chosen = [cs.card(i).eligible for i in state.lineups[t]]
            legal = tuple(CARD + i for i in pool if can_complete_lineup(
                chosen + [cs.card(i).eligible], [cs.card(j).eligible for j in pool if j != i], 8))
            state.pending = Decision("select_batter", t, tuple(sorted(legal)))
        else:
            legal = tuple(sorted(CARD + i for i in mine if not cs.is_batter(i) and cs.card(i).can_start))
            state.pending = Decision("select_pitcher", t, legal)
        return
    if what == "support":
        free = [k for k in range(len(state.supports.cards)) if k not in state.support]
        state.pending = Decision("select_support", t, tuple(SUPPORT + k for k in free))
        return
    batters = what in ("lineup", "bench")
    legal = tuple(CARD + i for i in _pool(state, batters) if _choose_ok(state, t, i, what, roles))
    state.pending = Decision("select_batter" if batters else "select_pitcher", t, legal)


def choose_game_select(state: GameState, decision: Decision, action: int) -> None:
    t, what = _select_seat(state)
    cs = state.cards
    i = action - CARD
    if what == "lineup":
        state.lineups[t].append(i)
        if state.draft and len(state.lineups[t]) == 8:
            state.benches[t] = [j for j in state.drafted[t] if cs.is_batter(j) and j not in state.lineups[t]]
    elif what == "bench":
        state.benches[t].append(i)
    elif what == "starter":
        state.staffs[t] = [i] + [j for j in state.drafted[t] if not cs.is_batter(j) and j != i]
    else:
        state.staffs[t].append(i)


def choose_select_support(state: GameState, decision: Decision, action: int) -> None:
    state.support[decision.actor] = action - SUPPORT


def play_ball_game(state: GameState) -> None:
    """Both starters take the mound in turn; each lineup's 9th batter is its pitcher ("If a
    batting lineup is 9 players, the Pitcher must be included as a Batter")."""
    cs = state.cards
    state.opening = [[list(state.lineups[t][:8]), list(state.benches[t])] for t in (0, 1)]
    for t in (0, 1):
        state.lineups[t] = state.lineups[t][:8] + [state.staffs[t][0]]
        state.pslot[t] = 8
        state.mound[t] = state.staffs[t][0]
        state.slot_lines[t] = []
        for i in state.lineups[t]:
            label = cs.card(i).position if cs.is_batter(i) else "P"
            state.slot_lines[t].append(state.box.add_line(t, cs.card(i).name, label))
        state.box.add_pitcher(t, cs.card(state.mound[t]).name)
    state.step = "half_start"


# -- each half inning ------------------------------------------------------------------------------
def half_start(state: GameState) -> None:
    """A new half inning: the fielding team's pitcher takes the mound; between innings its
    manager may change pitchers (and double switch), then the inning's fatigue."""
    t = state.board.fielding
    state.pa = 0
    state.pitcher = state.mound[t]
    # what the table shows now is this pitcher's: his reset row, and the points his runs
    # allowed will add (inning_fatigue applies them to whoever pitches the half)
    state.ceiling = state.ceilings[t]
    state.fatigue = [state.ceiling, state.ceiling]
    state.fatigue_left = state.allowed[t]
    state.changed = False
    clear_pitch(state)
    if state.board.inning > 1:
        offer_game_change(state, "start_switch")
    else:
        state.step = "start_switch"


def bullpen(state: GameState, t: int) -> list[int]:
    """Team ``t``'s pitchers who may come in: never one removed, never a Starting Pitcher."""
    cs = state.cards
    return [i for i in state.staffs[t][1:] if i != state.mound[t] and i not in state.removed
            and cs.card(i).can_relieve]


def offer_game_change(state: GameState, then: str) -> None:
    """"The Pitching Player can change their Pitcher between At-Bats" (and between innings):
    keep (26) or a bullpen pitcher (his card action)."""
    state.step = then
    t = state.board.fielding
    pen = bullpen(state, t)
    if pen:
        state.pending = Decision("pitching_change", t, (KEEP,) + tuple(sorted(CARD + i for i in pen)))


def change_game_pitcher(state: GameState, new: int) -> None:
    """Longer Game, Relief Pitchers: "The first Pitch Reliever ignores the Relief Pitcher rules
    of the standard game. Each consecutive Pitcher follows the rule"; "In any game lasting
    longer than 3 Innings, the first and second Reliever used by each team starts at the
    top". The new pitcher takes the old one's batting slot."""
    b = state.board
    t = b.fielding
    cs = state.cards
    state.removed.append(state.mound[t])
    state.mound[t] = state.pitcher = new
    state.relievers[t] += 1
    long_game = b.innings > 3 or b.inning > 3
    top = state.relievers[t] == 1 or (state.relievers[t] == 2 and long_game)
    row = 0 if top else 1
    state.fatigue = [row, row]
    state.ceiling = state.ceilings[t] = row
    state.allowed[t] = 0
    state.changed = True
    state.box.add_pitcher(t, cs.card(new).name)
    s = state.pslot[t]
    state.lineups[t][s] = new
    state.slot_lines[t][s] = state.box.add_line(t, cs.card(new).name, "P")
    state.log.add(Play(b.inning, b.half, "pitching_change", new, -1, None, b.bases, b.bases, (), ""))


def _fielders(state: GameState, t: int, slot: int, card: int) -> bool:
    """The lineup with ``card`` in ``slot`` keeps "the 1-player per position rule": the eight
    who are not the pitcher match eight field positions."""
    cs = state.cards
    elig = [cs.card(card if j == slot else c).eligible for j, c in enumerate(state.lineups[t])
            if j != state.pslot[t]]
    return matching_size(elig) == 8


def sub_slots(state: GameState, t: int, card: int) -> tuple[int, ...]:
    """The lineup slots ``card`` may take: not the pitcher's, not a runner's (who is on
    base), and the one-per-position rule kept."""
    on_base = {r for r in state.board.bases if r is not None} if t == state.board.batting else set()
    return tuple(s for s in range(GAME_LINEUP) if s != state.pslot[t]
                 and state.slot_lines[t][s] not in on_base and _fielders(state, t, s, card))


def offer_double_switch(state: GameState, then: str) -> None:
    """Double Switch: "During any appropriate Pinch-Hit or Relief Pitcher situation, a Batter
    and Pitcher may be substituted simultaneously": after a pitching change, pass or a bench
    batter (then his slot, then where the new pitcher bats)."""
    state.step = then
    t = state.board.fielding
    if not state.changed:
        return
    state.changed = False
    legal = tuple(CARD + c for c in state.benches[t] if sub_slots(state, t, c))
    if legal:
        state.pending = Decision("double_switch", t, tuple(sorted(legal)) + (PASS,))


def offer_start_switch(state: GameState) -> None:
    """A double switch after a pitching change between innings; then the inning's fatigue."""
    offer_double_switch(state, "inning_fatigue")


def offer_switch(state: GameState) -> None:
    """A double switch after a pitching change between at-bats; then a pinch hitter."""
    offer_double_switch(state, "pinch")


def choose_double_switch(state: GameState, decision: Decision, action: int) -> None:
    if action != PASS:
        state.sub_card = action - CARD
        state.sub_slot = -1
        state.step = ("ds_slot_start" if state.step == "inning_fatigue" else "ds_slot")


def offer_sub_slot(state: GameState) -> None:
    """The slot the substitute takes (``pinch_slot``)."""
    t = decision_team(state)
    state.pending = Decision("pinch_slot", t, tuple(SLOT + s for s in sub_slots(state, t, state.sub_card)))


def decision_team(state: GameState) -> int:
    return state.board.batting if state.step == "pinch_slot" else state.board.fielding


def choose_sub_slot(state: GameState, decision: Decision, action: int) -> None:
    slot = action - SLOT
    if state.step == "pinch_slot":
        substitute_batter(state, decision.actor, slot, state.sub_card)
        state.sub_card = -1
        state.step = "new_batter"
        return
    state.sub_slot = slot
    state.step = "ds_where_start" if state.step == "ds_slot_start" else "ds_where"


def offer_ds_where(state: GameState) -> None:
    """"The new players may be placed in either substitute position of the hitting lineup":
    the new pitcher bats in the replaced batter's slot or in the pitcher's."""
    t = state.board.fielding
    state.pending = Decision("double_switch_slot", t,
                             tuple(sorted((SLOT + state.sub_slot, SLOT + state.pslot[t]))))


def choose_ds_where(state: GameState, decision: Decision, action: int) -> None:
    t = decision.actor
    slot, pitcher_slot = state.sub_slot, action - SLOT
    card = state.sub_card
    old_pslot = state.pslot[t]
    if pitcher_slot == slot:          # the pitcher moves to the batter's slot, the batter bats his
        state.lineups[t][slot] = state.lineups[t][old_pslot]
        state.slot_lines[t][slot] = state.slot_lines[t][old_pslot]
        state.pslot[t] = slot
        substitute_batter(state, t, old_pslot, card)
    else:
        substitute_batter(state, t, slot, card)
    state.sub_card = state.sub_slot = -1
    state.step = "inning_fatigue" if state.step == "ds_where_start" else "pinch"


def substitute_batter(state: GameState, t: int, slot: int, card: int) -> None:
    """"replace a Batter in your lineup with one of your substitutes, removing the original
    player from the game"."""
    cs = state.cards
    b = state.board
    state.benches[t].remove(card)
    state.lineups[t][slot] = card
    state.slot_lines[t][slot] = state.box.add_line(t, cs.card(card).name, cs.card(card).position)
    state.log.add(Play(b.inning, b.half, "substitution", state.slot_lines[t][slot], slot, None,
                       b.bases, b.bases, (), str(t)))


def inning_fatigue(state: GameState) -> None:
    """Longer Game, Fatigue: "At the start of each Inning, reset the Fatigue Track, then
    Fatigue the Pitcher 1 for each Run they have allowed in the game": the tokens go to the
    pitcher's reset row (the top, or row 1 for a reliever who follows the rule), then one
    point per run he allowed, each on a token of his manager's choice."""
    t = state.board.fielding
    state.ceiling = state.ceilings[t]
    state.fatigue = [state.ceiling, state.ceiling]
    state.fatigue_left = state.allowed[t]
    state.step = "fatigue_point"


def offer_fatigue_point(state: GameState) -> None:
    bottom = state.fatigue_rows - 1
    while state.fatigue_left > 0:
        room = [state.fatigue[i] < bottom for i in (0, 1)]
        if all(room):
            state.pending = Decision("fatigue_split", state.board.fielding, (FATIGUE_DIR, FATIGUE_LOC))
            return
        if not any(room):
            state.fatigue_left = 0          # both exhausted: the point is lost
            break
        state.fatigue[room.index(True)] += 1
        state.fatigue_left -= 1
    state.step = "pinch"


def choose_fatigue_point(state: GameState, decision: Decision, action: int) -> None:
    state.fatigue[action - FATIGUE_DIR] += 1
    state.fatigue_left -= 1


def offer_pinch_hit(state: GameState) -> None:
    """Pinch Hitters: "Between innings or between At-Bats, you may replace a Batter in your
    lineup with one of your substitutes ... the new lineup can not violate the 1-player per
    position rule": before each of its at-bats the batting team may pass or name a bench
    batter (then the slot, any but the pitcher's)."""
    state.step = "new_batter"
    t = state.board.batting
    if not state.benches[t]:
        return
    legal = tuple(CARD + c for c in state.benches[t] if sub_slots(state, t, c))
    if legal:
        state.pending = Decision("pinch_hit", t, tuple(sorted(legal)) + (PASS,))


def choose_pinch_hit(state: GameState, decision: Decision, action: int) -> None:
    if action != PASS:
        state.sub_card = action - CARD
        state.step = "pinch_slot"


def grant_support(state: GameState) -> None:
    """Support Characters, "used by the player that controls them": an unused support card's
    grant for its owner's side while that side may use it (once per game, RULES.md); a
    shared card ("Both you and your opponent can use the Abilities") is each team's, each
    using it once."""
    for role in (0, 1):
        team = state.seat_of(role)
        k = state.support[team]
        if k < 0 or state.support_used[team]:
            continue
        card = state.supports.cards[k]
        if card.role == role:
            for e in card.grant:
                state.grants[role].append(Grant("support", e, e.n))


#: The set-up's choices (the presets of :func:`preset_teams` make them by the first legal pick).
SELECTIONS = {"select_batter": choose_game_select, "select_pitcher": choose_game_select,
              "select_support": choose_select_support}
