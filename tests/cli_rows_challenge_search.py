"""The bad-argument table's rows for the Manager Challenge's search manager: ``dugout
challenge --agents search:...`` is a manager now, and a setting it does not have, a value out
of range, a horizon (each rollout plays the game to its end) or a rollout manager that cannot
play is refused by the subcommand's check before any campaign."""

from __future__ import annotations

from cli_table import Row

ROWS = [
    Row("challenge", ("--agents", "search:depth=3"), "--agents", "unknown option 'depth'"),
    Row("challenge", ("--agents", "search:sims=0"), "--agents", "sims must be a positive"),
    Row("challenge", ("--agents", "search:horizon=2"), "--agents", "horizon must be 0"),
    Row("challenge", ("--agents", "search:kinds=play_card"), "--agents",
        "kinds: 'play_card' is not a decision kind of manager_challenge_v0"),
    Row("challenge", ("--agents", "search:kinds=pitch"), "--agents",       # the deck pitches
        "kinds: 'pitch' is not a decision kind of manager_challenge_v0; its kinds: select_batter, "
        "select_bench, pinch_hit, guess, mvp_or_fatigue, batter_ability"),
    Row("challenge", ("--agents", "search:rollout=nobody", "heuristic"), "--agents",
        "rollout: unknown agent 'nobody'"),
    Row("challenge", ("--agents", "search", "search"), "--agents", "given twice"),
]
