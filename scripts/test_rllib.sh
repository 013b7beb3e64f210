#!/usr/bin/env bash
# The tests that need Ray, in a venv of their own: the RLlib recipe and RLlib self-play
# training (tests/test_rllib.py, marked `rllib`) and the ray backend of tournaments and the
# Showdown calibration (tests/test_ray_backend.py, marked `ray`). Ray RLlib pins its own
# Gymnasium (1.2.2 for Ray 2.60), which must not change the main .venv, and the main venv
# holds no Ray at all (tests/test_imports.py checks that dugout works without it).
# Creates (or refreshes) .venv-rllib with dugout editable and the `rllib`, `ray` and `dev`
# extras; it reinstalls only when pyproject.toml changed. Arguments go to pytest, e.g.
# `scripts/test_rllib.sh -k ppo -x`. The example then runs as
# `.venv-rllib/bin/python examples/rllib_ppo.py --env showdown_v0 --iterations 2`.
set -euo pipefail
cd "$(dirname "$0")/.."

# torch is pinned to 2.13.0 in the `rllib` extra: pip takes its CPU wheel locally (a
# looser pin pulls a multi-GB CUDA build).
VENV=.venv-rllib scripts/setup.sh rllib ray dev

# Ray: no usage-stats prompt or upload, and no dashboard (tests start it with
# include_dashboard=False and at most two CPUs).
export RAY_USAGE_STATS_ENABLED=0
exec .venv-rllib/bin/python -m pytest -m "rllib or ray" tests/test_rllib.py tests/test_ray_backend.py "$@"
