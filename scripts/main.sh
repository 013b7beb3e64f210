#!/usr/bin/env bash
# The main job: play a batch of That's Baseball games between two managers and print
# a line score and a summary. Arguments are passed on, e.g. `scripts/main.sh --games 500`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh plots
exec .venv/bin/python -m dugout.evaluate.main "$@"
