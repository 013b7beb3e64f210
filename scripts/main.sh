#!/usr/bin/env bash
# The main job: train a That's Baseball manager for a few minutes, then play a tournament
# (random, the rulebook heuristic, the trained manager, the solver) on every ruleset and
# write the report to reports/latest. Arguments are passed on, e.g.
# `scripts/main.sh --timesteps 20000 --games 400 --out reports/quick`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh train plots
exec .venv/bin/dugout pipeline "$@"
