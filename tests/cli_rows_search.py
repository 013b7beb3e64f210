"""The bad-argument table's rows for the search manager's settings: a reference that parses
(``search:key=value``) but names a setting the search does not have, or a value out of range,
refused by the subcommand's check before any game."""

from __future__ import annotations

from cli_table import Row

ROWS = [
    Row("tournament", ("--agents", "search:depth=3", "heuristic"), "--agents", "unknown option 'depth'"),
    Row("tournament", ("--agents", "search:sims=0", "heuristic"), "--agents", "sims must be a positive"),
    Row("tournament", ("--agents", "search:rollout=nobody", "heuristic"), "--agents",
        "rollout: unknown agent 'nobody'"),
    Row("challenge", ("--agents", "search:sims=4"), "--agents", "unknown agent 'search:sims=4'"),
    Row("replay", ("--agents", "search:batch=99", "heuristic"), "--agents", "batch (99) must be at most sims"),
]
