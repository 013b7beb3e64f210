"""Invariants of MLB Showdown (basic, advanced and expert games) over thousands of random games
between random 2004 teams, checked at every decision, at every at-bat and at the end of
each game. The thousands of games are the contract suite's random games (``test_contract.py``,
``test_invariants_over_random_games``, one run per level), to which
:func:`random_game_checks` adds these checks; the engine's states (``rules.new_game``) are
played through the env (``restore``).

What must hold:

* at every decision: the side is not retired (0-2 outs); no runner stands on two bases
  and every runner is in the batting team's lineup; each lineup holds nine distinct
  players who have entered the game, with the pitcher in the pitcher's spot (NL rules)
  or nowhere (DH); the fielding team has every field position held by one qualifying
  player, and a backup in the field only from the 7th on (skipped while the managers
  choose their starters); the decision is the right manager's, its legal actions
  non-empty, distinct and inside the action space;
* substitutions: the starter leaves (relieved or hit for) only from the 5th inning on
  or once charged with 10 runs; only relievers and closers come in to pitch; a player
  who left never comes back, and nobody enters twice;
* at the end: runs agree everywhere (scoreboard, line score, batting lines, play log);
  the pitching lines charge the opponent's runs and hits (and walks, strikeouts, home
  runs, batters faced), and record 3 outs for every half inning completed plus the outs
  of a walk-off half;
* every decision kind of the advanced game comes up over the run, and the basic game
  asks only for starting pitchers;
* the expert game: no icon is ever offered; first base may be played out of position (by
  any hitter); the DH, once he takes the field, is gone for good (the pitcher bats); the
  field is checked whenever a substitution is not in progress; pinch runners and defensive
  replacements never bring back a player who left; intentional walks, sacrifice bunts, the
  DH taking the field and double switches all come up.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dugout.envs.core import Dice
from dugout.envs.showdown import lineup, rules
from dugout.envs.showdown.actions import LINEUP_KINDS
from dugout.envs.showdown.cards import FIELD_POSITIONS, PitcherCard, builtin_team_names, load_team
from dugout.envs.showdown.strategy import deck_card_set, load_card_set, load_deck

from helpers import GameChecks, play_engine

TEAM_NAMES = sorted(n for n in builtin_team_names() if n.endswith("2004"))
TEAMS = {n: load_team(n) for n in TEAM_NAMES}
HIT_CODES = {"1B", "1B+", "2B", "3B", "HR"}
BATTING_KINDS = {"pinch_hitter", "stolen_base", "reroll_out", "silver_slugger",
                 "home_run_icon", "send_runners", "pinch_runner", "sacrifice_bunt"}
FIELDING_KINDS = {"pitching_change", "relief_ace", "twenty_game", "strikeout", "double_play",
                  "gold_glove", "throw_at", "defensive_replacement", "replaced_player",
                  "batting_slot", "intentional_walk", "catcher_throw"}
#: decisions taken while a substitution is under way (positions not yet juggled)
SUBSTITUTING = {"defensive_replacement", "replaced_player", "batting_slot"}
EXPERT_KEEPS = {"pinch_hitter", "pitching_change", "double_play", "send_runners", "throw_at"}
CARD_KINDS = {"play_card", "catcher_throw"}
BEFORE_THE_PITCH = {"pinch_hitter", "pitching_change", "relief_ace", "twenty_game",
                    "stolen_base"}


def test_the_thirty_2004_teams():
    assert len(TEAM_NAMES) == 30
    assert set(BATTING_KINDS | FIELDING_KINDS | {"starting_pitcher", "play_card"}) == set(rules.ALL_KINDS)


def random_game(seed, level, decks=None, options=None):
    """A game between two random 2004 teams (fixed by the seed), AL or NL rules at random
    (the ``dh`` of the env's ``options`` when they give one: the env restores only a game of
    its own DH rule); with ``decks`` (a deck name, the expert game) both managers hold that
    deck."""
    rng = random.Random(seed)
    away, home = rng.choice(TEAM_NAMES), rng.choice(TEAM_NAMES)
    dh = rng.choice([None, True, False])
    if (options or {}).get("dh") is not None:
        dh = options["dh"]
    cards = {}
    pair = decks if isinstance(decks, (tuple, list)) else (decks, decks)
    if None not in pair:              # a deck on one side only plays without cards, as the env does
        card_set = load_card_set("hooks" if "hooks" in {deck_card_set(d) for d in pair} else None)
        cards = dict(decks=tuple(load_deck(d, card_set) for d in pair), card_set=card_set)
    lineups = (options or {}).get("lineups", "file")
    state = rules.new_game((TEAMS[away], TEAMS[home]), Dice(seed), lineups=lineups, level=level,
                            dh=dh, **cards)
    return state, rng


def check_cards(state):
    """Strategy cards: none lost or made ("deck + hand + discard + in play" is each deck's
    60 at every decision); no name played twice by one manager in an at-bat; a hand holds
    the 3 drawn before the game, one per half inning begun and what cards drew, less what
    was played or discarded (checked: 4 each when the first batter steps in)."""
    for t in (0, 1):
        total = (len(state.decks[t]) + len(state.hands[t]) + len(state.discards[t])
                 + len(state.in_play[t]) + len(state.played[t]))
        assert total == 60, f"team {t} has {total} strategy cards"
        assert len(set(state.played[t])) == len(state.played[t]), "a name played twice"
    b = state.board
    if (b.inning, b.half, state.pa_index) == (1, 0, 0) and state.pending.kind == "intentional_walk":
        assert [len(h) for h in state.hands] == [4, 4]     # "you'll both have 4 cards"


# -- checks --------------------------------------------------------------------------------
def check_in_play(state, left, substituting=False):
    """What holds whenever the teams are on the field (every decision after setup, and the
    start of every at-bat); the fielding team's positions only when it is not in the
    middle of a substitution (``substituting``)."""
    b = state.board
    bt, ft = b.half, 1 - b.half
    assert 0 <= b.outs < 3, f"{b.outs} outs and the game goes on"
    runners = [r for r in b.bases if r is not None]
    assert len(runners) == len(set(runners)), f"a runner on two bases: {b.bases}"
    for r in runners:
        assert r in state.lineup[bt], f"runner {r} is not in the batting team's lineup"
    for t in (0, 1):
        lineup, pos = state.lineup[t], state.pos[t]
        assert len(lineup) == 9 == len(pos)
        assert len(set(lineup)) == 9, f"team {t}: a player bats twice: {lineup}"
        assert all(0 <= k < 25 and state.used[t][k] for k in lineup), f"team {t}: {lineup}"
        assert not set(lineup) & left[t], f"team {t}: a player came back: {set(lineup) & left[t]}"
        p = state.pitcher[t]
        slot = state.pitcher_slot[t]
        assert isinstance(state.card(t, p), PitcherCard) and state.used[t][p]
        has_dh = state.dh and (state.level != "expert" or slot == -1)   # expert: may be lost
        if p in left[t]:     # hit for: he stays "the pitcher" until the new one comes in
            assert not has_dh and pos[slot] == "PH" and lineup[slot] != p, \
                f"team {t}: pitcher {p} came back"
        if has_dh:
            assert slot == -1 and p not in lineup and pos.count("DH") == 1
        else:
            assert 0 <= slot < 9 and "DH" not in pos
            # the pitcher bats in his spot, or a pinch hitter who batted for him does
            assert (lineup[slot] == p and pos[slot] == "P") or pos[slot] == "PH"
        for position in FIELD_POSITIONS:
            assert pos.count(position) <= 1, f"team {t}: two players at {position}"
    if substituting:
        return
    # the fielding team: every position held by a player who qualifies there (expert:
    # "anyone who isn't a pitcher can play first base")
    pos = state.pos[ft]
    expert = state.level == "expert"
    for position in FIELD_POSITIONS:
        assert pos.count(position) == 1, f"fielding team {ft} has nobody at {position}: {pos}"
        k = state.lineup[ft][pos.index(position)]
        card = state.card(ft, k)
        assert not isinstance(card, PitcherCard) and (
            card.fielding(position) is not None or (expert and position == "1B")), \
            f"{card.name} does not qualify at {position}"
        if card.key in state.teams[ft].backups:
            assert b.inning >= 7, f"backup {card.name} in the field in the {b.inning}th"
    for slot, position in enumerate(pos):
        if position == "PH":    # only the pitcher's spot, until the forced change
            assert slot == state.pitcher_slot[ft] and state.needs_pitcher[ft]


def check_decision(state, level, left):
    b = state.board
    d = state.pending
    assert d is not None and not b.over
    expert = level == "expert"
    if d.kind in LINEUP_KINDS:        # lineups="manager": before the first pitch, away first
        assert lineup.setting_lineups(state) and b.inning == 1 and not state.log.plays
        assert d.actor == (0 if not lineup.picks_complete(state, 0) else 1)
        kind, subject, players = lineup.next_pick(state, d.actor)
        assert (d.kind, d.subject, d.legal) == (kind, subject,
                                                tuple(rules.PLAYER + k for k in players))
        return
    assert d.kind in (EXPERT_KEEPS | set(rules.EXPERT_KINDS) - (set() if state.cards_on else CARD_KINDS)
                      if expert else rules.DECISION_KINDS)
    if state.cards_on:
        check_cards(state)
    assert d.legal and len(set(d.legal)) == len(d.legal)
    n_actions = len(rules.action_labels(state.card_set))
    assert all(0 <= a < n_actions for a in d.legal), d
    if level == "basic":
        assert d.kind == "starting_pitcher", f"the basic game asked for {d.kind}"
    if d.kind == "starting_pitcher":
        # away first, then home; his four starters
        assert d.actor == (0 if state.starter[0] < 0 else 1)
        starters = [k for k, c in enumerate(state.teams[d.actor].players)
                    if isinstance(c, PitcherCard) and c.role == "starter"]
        assert d.legal == tuple(rules.PLAYER + k for k in starters) and len(starters) == 4
        return
    if d.kind == "play_card":          # either manager, in turn: a card of his colour
        for a in d.legal[1:]:
            card = state.card_set.cards[a - rules.CARD]
            assert card.color != ("defense" if d.actor == b.half else "offense"), card.name
            assert a - rules.CARD in state.hands[d.actor] and a - rules.CARD not in state.played[d.actor]
            assert card.timing == rules.WINDOWS[d.subject] == state.window
    else:
        assert d.actor == (b.half if d.kind in BATTING_KINDS else 1 - b.half), d
    # expert: the forced change that opens a half inning comes before the field is juggled
    check_in_play(state, left, substituting=expert and (
        d.kind in SUBSTITUTING or (d.kind == "pitching_change" and d.subject == 1)))
    bt, ft = b.half, 1 - b.half
    if d.kind in BEFORE_THE_PITCH:
        assert state.batter_index not in b.bases, "the batter due up is on base"
    if d.kind == "pitching_change":
        newcomers = [a - rules.PLAYER for a in d.legal if a != rules.PASS]
        # no pass: his team hit for its pitcher (subject 1), or a card forces the starter out (2)
        forced = d.subject in (1, 2)
        assert (rules.PASS in d.legal) != forced
        assert forced == state.needs_pitcher[ft] or (expert and not forced) or d.subject == 2
        for k in newcomers:
            card = state.card(ft, k)
            assert isinstance(card, PitcherCard) and card.role != "starter" and not state.used[ft][k]
        if not forced:
            check_starter_may_leave(state, ft)
    if d.kind in ("pinch_runner", "defensive_replacement"):
        team = bt if d.kind == "pinch_runner" else ft
        for a in d.legal:
            k = a - rules.PLAYER
            if a != rules.PASS and k not in state.lineup[team]:     # (the DH may take the field)
                assert not isinstance(state.card(team, k), PitcherCard) and not state.used[team][k]
        if d.kind == "pinch_runner":
            assert d.legal[0] == rules.PASS and b.bases[d.subject] is not None
    if d.kind == "sacrifice_bunt":
        assert b.bases[2] is None and not state.ab.ibb
    if d.kind == "pinch_hitter":
        assert d.legal[0] == rules.PASS and d.subject == state.order[bt]
        for a in d.legal[1:]:
            k = a - rules.PLAYER
            assert not isinstance(state.card(bt, k), PitcherCard) and not state.used[bt][k]
        if state.lineup[bt][state.order[bt]] == state.starter[bt]:
            check_starter_may_leave(state, bt)


def check_starter_may_leave(state, team):
    """"You can only remove your starter if ... It's after the 4th inning. He's given up
    10 or more runs." Checked whenever a decision would let him go."""
    starter = state.starter[team]
    if state.pitcher[team] == starter:
        assert state.board.inning >= 5 or state.runs_charged[team][starter] >= 10, \
            f"the starter may leave in the {state.board.inning} with " \
            f"{state.runs_charged[team][starter]} runs charged"


def track_substitutions(state, seen, left, entered):
    """Read the plays logged since ``seen``: who left and who came in."""
    for play in state.log.plays[seen:]:
        if play.kind in ("pinch_hitter", "pinch_runner"):
            team = play.half
        elif play.kind in ("pitching_change", "defensive_replacement"):
            team = 1 - play.half
        elif play.kind == "dh_to_field":     # the DH stays in; the fielder he replaces leaves
            team = 1 - play.half
            assert play.actor in state.lineup[team] or play.actor in left[team]
            left[team].add(int(play.detail))
            continue
        else:
            if play.kind in ("pa", "steal"):
                assert play.actor not in left[play.half], f"{play.actor} batted or ran after leaving"
            continue
        new, old = play.actor, int(play.detail)
        assert new not in entered[team] and new not in left[team], f"{new} entered twice"
        # only a pitcher who was hit for is replaced after leaving (the forced change)
        assert old not in left[team] or (play.kind == "pitching_change"
                                         and isinstance(state.card(team, old), PitcherCard))
        entered[team].add(new)
        left[team].add(old)
    return len(state.log.plays)


def check_final(state, level, tally):
    b = state.board
    assert b.over and state.pending is None and not b.truncated
    w = b.winner
    assert w in (0, 1) and b.runs[w] > b.runs[1 - w]
    log = state.log.plays
    box = state.box
    for t in (0, 1):
        opp = 1 - t
        assert sum(b.line[t]) == b.runs[t], "the line score does not add up"
        assert sum(x.r for x in box.lines[t]) == b.runs[t], "batting-line runs"
        assert sum(len(p.scored) for p in log if p.half == t) == b.runs[t], "runs in the log"
        pas = [p for p in log if p.kind == "pa" and p.half == t]
        assert sum(p.detail in HIT_CODES for p in pas) == box.hits[t]
        assert sum(x.pa for x in box.lines[t]) == len(pas)
        # the pitching lines of team t are charged with what team opp did at the plate
        pitching = box.pitching[t]
        assert sum(p.r for p in pitching) == b.runs[opp], "pitching-line runs"
        assert sum(state.runs_charged[t]) == b.runs[opp]
        assert sum(p.h for p in pitching) == box.hits[opp], "pitching-line hits"
        assert sum(p.bf for p in pitching) == sum(p.kind == "pa" for p in log if p.half == opp)
        assert sum(p.bb for p in pitching) == sum(x.bb for x in box.lines[opp])
        assert sum(p.so for p in pitching) == sum(x.so for x in box.lines[opp])
        assert sum(p.hr for p in pitching) == sum(x.hr for x in box.lines[opp])
        changes = [p for p in log if p.kind == "pitching_change" and p.half == opp]
        assert len(pitching) == 1 + len(changes)
        assert len({p.name for p in pitching}) == len(pitching)
    # outs: every top half is complete; the bottom of the last inning may be a walk-off
    walkoff = w == 1 and len(b.line[1]) == len(b.line[0])
    tops, bottoms = len(b.line[0]), len(b.line[1]) - walkoff
    assert sum(p.outs for p in box.pitching[1]) == 3 * tops
    assert sum(p.outs for p in box.pitching[0]) == 3 * bottoms + (b.outs if walkoff else 0)
    if not walkoff:
        assert b.outs == 0
    # the starter left only when the rules let him (log; the runs are the final count,
    # the decision-time check is exact)
    for p in log:
        if p.kind in ("pitching_change", "pinch_hitter"):
            team = 1 - p.half if p.kind == "pitching_change" else p.half
            if int(p.detail) == state.starter[team]:
                # (a strategy card may force him out earlier: the hooks deck's Chase the
                # Starter, after he has given up 4 runs)
                chased = state.decks is not None and state.runs_charged[team][state.starter[team]] >= 4
                assert p.inning >= 5 or state.runs_charged[team][state.starter[team]] >= 10 \
                    or chased, p
    if level == "basic":
        assert {p.kind for p in log} <= {"pa", "steal"}
    tally["walkoff"] += walkoff
    tally["extra"] += b.inning > b.innings
    tally[("away", "home")[w]] += 1


# -- the run -------------------------------------------------------------------------------
class AtBatCheck:
    """Wraps the engine's ``at_bat`` rule to check the in-play invariants at the start of
    every at-bat (the basic game has no decision during play)."""

    def __init__(self):
        self.left = [set(), set()]
        self.count = 0
        self.original = rules.RULES["at_bat"]

    def __call__(self, state):
        check_in_play(state, self.left)
        self.count += 1
        self.original(state)


def check_pitching_box_score(box):
    """The final infos' box score carries both teams' pitching lines, charged with the
    opponent's runs."""
    assert [sum(x) for x in box["line_score"]] == box["runs"]
    assert "pitching" in box and len(box["pitching"]) == 2
    for team, lines in enumerate(box["pitching"]):
        assert lines and all(set(p) == {"name", "IP", "BF", "H", "R", "BB", "SO", "HR"}
                             for p in lines)
        assert sum(p["R"] for p in lines) == box["runs"][1 - team]


def random_game_checks(options, monkeypatch):
    """This ruleset's checks in the contract's random games (``test_contract.py``,
    ``test_invariants_over_random_games``), for the basic and the advanced game: N games
    between two random 2004 teams, AL or NL rules at random; every decision checked by
    :func:`check_decision` (and the substitutions tracked), every at-bat by
    :func:`check_in_play`, every game by :func:`check_final` and its final infos by
    :func:`check_pitching_box_score`. Each level's decision kinds, walk-offs, extra innings
    and wins for both sides must come up, and in the advanced game double plays, runners
    thrown out, starters hit for and relieved, and games ending on either manager's move
    (the basic game ends on the home manager's choice of starter)."""
    level = options.get("level", "advanced")
    at_bats = AtBatCheck()
    monkeypatch.setitem(rules.RULES, "at_bat", at_bats)
    kinds, tally = Counter(), Counter()
    games, mover, last_movers = [0], [None], set()
    track = {}

    def start(seed):
        games[0] += 1
        track["left"], track["entered"] = [set(), set()], [set(), set()]
        at_bats.left = track["left"]
        state, rng = random_game(seed, level, options.get("decks"), options)
        track["seen"] = 0
        return state, lambda state: rng.choice(state.pending.legal)

    def follow(state):
        track["seen"] = track_substitutions(state, track["seen"], track["left"], track["entered"])

    def decision(state):
        follow(state)
        check_decision(state, level, track["left"])
        kinds[state.pending.kind] += 1
        if level == "expert" and state.pending.kind == "intentional_walk":   # the field is set
            ft = state.fielding_team
            first = state.card(ft, state.fielder_at(ft, "1B"))
            tally["first_out_of_position"] += first.fielding("1B") is None
        mover[0] = state.pending.actor

    def final(state, info):
        follow(state)
        check_final(state, level, tally)
        check_pitching_box_score(state.box.summary(state.board))
        last_movers.add(mover[0])
        for p in state.log.plays:
            tally["dp"] += p.kind == "pa" and p.detail == "DP"
            tally["IBB"] += p.kind == "pa" and p.detail == "IBB"
            tally["SH"] += p.kind == "pa" and p.detail == "SH"
            tally["dh_to_field"] += p.kind == "dh_to_field"
            tally["thrown_out"] += p.kind == "thrown_out"
            tally["hit_for_starter"] += (p.kind == "pinch_hitter"
                                         and int(p.detail) == state.starter[p.half])
            tally["starter_relieved"] += (p.kind == "pitching_change"
                                          and int(p.detail) == state.starter[1 - p.half])

    def done():
        n = games[0]
        if options.get("lineups") == "manager":     # each manager set his lineup (the DH too
            assert kinds["lineup_position"] and kinds["batting_order"], kinds   # under AL rules)
            assert kinds["lineup_dh"] if options.get("dh") is not False else not kinds["lineup_dh"]
            for kind in LINEUP_KINDS:
                kinds.pop(kind, None)
        assert tally["away"] and tally["home"] and tally["walkoff"] and tally["extra"], tally
        assert at_bats.count > 50 * n
        # the basic game ends on the home manager's choice of starter, the advanced game on
        # either manager's move
        assert last_movers == ({1} if level == "basic" else {0, 1})
        if level == "basic":
            assert set(kinds) == {"starting_pitcher"} and kinds["starting_pitcher"] == 2 * n
        elif level == "expert":
            decks = options.get("decks")
            pair = decks if isinstance(decks, (tuple, list)) else (decks, decks)
            cards = CARD_KINDS if None not in pair else set()     # one deck only: no cards
            assert set(kinds) == EXPERT_KEEPS | set(rules.EXPERT_KINDS) - CARD_KINDS | cards, kinds
            seen = ("dp", "thrown_out", "hit_for_starter", "starter_relieved", "IBB", "SH",
                    "first_out_of_position") + (() if options.get("dh") is False else ("dh_to_field",))
            assert all(tally[k] for k in seen), tally
        else:
            assert set(kinds) == set(rules.DECISION_KINDS) - {"starting_pitcher"}, kinds
            assert all(tally[k] for k in ("dp", "thrown_out", "hit_for_starter",
                                          "starter_relieved")), tally

    return GameChecks(start=start, decision=decision, final=final, done=done)


# -- the 1B+ ----------------------------------------------------------------------------------
@pytest.mark.parametrize("level", rules.LEVELS)
def test_single_plus_runner_steals_second_before_the_next_pitch(level):
    """Swing Result Chart, 1B+: "Before the next pitch, the previous player who got the 1B+
    result steals second base without a throw" (the basic game's chart too). After a 1B+
    that leaves the batter on first with second open, the next pitch of the half inning is
    preceded by his steal."""
    eligible = stole = 0
    for seed in range(400):
        state, rng = random_game(seed, level)
        play_engine(state, rules.apply_action, lambda s: rng.choice(s.pending.legal))
        plays = state.log.plays
        for i, p in enumerate(plays):
            if not (p.kind == "pa" and p.detail == "1B+" and p.after[0] == p.actor
                    and p.after[1] is None):
                continue
            following = [q for q in plays[i + 1:] if (q.inning, q.half) == (p.inning, p.half)
                         and q.kind in ("pa", "steal")]
            if not following:
                continue         # the half inning or the game ended first
            eligible += 1
            q = following[0]
            # expert: a pinch runner who ran for him steals in his place (RULES.md)
            runner = next((int(r.actor) for r in plays[i + 1:plays.index(q)]
                           if r.kind == "pinch_runner" and r.detail == str(p.actor)), p.actor)
            stole += q.kind == "steal" and q.actor == runner and q.detail == "1B+"
    assert eligible > 50
    assert stole == eligible, f"{level}: the 1B+ runner stole second {stole} times of {eligible}"


def _extreme_team(name: str, high: bool) -> dict:
    """A built-in team whose every rating sits at the card files' limit (RATING_LIMITS)."""
    from dugout.envs.showdown.cards import RATING_LIMITS, team_to_dict
    team = team_to_dict(load_team(name, point_cap=None))
    end = 1 if high else 0
    for card in team["players"]:
        if card["kind"] == "hitter":
            card["on_base"] = RATING_LIMITS["on_base"][end]
            card["speed"] = RATING_LIMITS["speed"][end]
            card["positions"] = {p: RATING_LIMITS["fielding"][end] for p in card["positions"]}
            card["icons"] = ["G", "S", "V", "HR", "SB"] if high else []
        else:
            card["control"] = RATING_LIMITS["control"][end]
            card["ip"] = RATING_LIMITS["ip"][end]
    return team


@pytest.mark.parametrize("level", rules.LEVELS)
def test_observations_stay_in_the_declared_bounds_with_extreme_cards(level):
    """The observation space's bounds hold for cards at the card files' limits: every
    rating at its highest for one team, at its lowest for the other, in random games."""
    from dugout.envs import make
    teams = (_extreme_team("nya2004", True), _extreme_team("bos2004", False))
    env = make("showdown_v0", level=level, teams=teams, point_cap=None)
    rng = random.Random(5)
    steps = 0
    for seed in range(12):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            for name in env.agents:
                o = env.observe(name)
                space = env.observation_space(name)["observation"]
                assert space.contains(o["observation"]), (
                    name, [(i, float(v), float(space.low[i]), float(space.high[i]))
                           for i, v in enumerate(o["observation"])
                           if not space.low[i] <= v <= space.high[i]])
            steps += 1
            env.step(None if term or trunc else
                     rng.choice(list(map(int, obs["action_mask"].nonzero()[0]))))
    assert steps > 40
