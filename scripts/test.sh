#!/usr/bin/env bash
# The test suite. Arguments go to pytest, e.g. `scripts/test.sh -k rulebook`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev bench train plots realstats tianshou
exec .venv/bin/python -m pytest "$@"
