#!/usr/bin/env bash
# The test suite, on every core (pytest-xdist, idle workers taking tests from busy ones;
# DUGOUT_TEST_WORKERS=1 for one process).
# Two tiers: the quick one by default (random-game runs at quick sizes, the statistical
# tests left out), and `scripts/test.sh --full` (every run at full size, the statistical
# tests too), which CI runs. Other arguments go to pytest, e.g. `scripts/test.sh -k rulebook -x`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev bench train plots realstats tianshou docs openspiel web webtest
scripts/setup_browser.sh
exec .venv/bin/python -m pytest -n "${DUGOUT_TEST_WORKERS:-auto}" --dist worksteal "$@"
