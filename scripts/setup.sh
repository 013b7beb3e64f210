#!/usr/bin/env bash
# Create (or refresh) the project's virtual environment in .venv (or $VENV) and install
# dugout editable with the extras given as arguments, e.g. `scripts/setup.sh dev bench`.
# Safe to run again: it reinstalls only when pyproject.toml or the extras changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
  done
fi
if [ -z "$PYTHON" ]; then
  echo "setup: no python3.11 or python3 on PATH; dugout needs Python 3.11" >&2
  exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "setup: $PYTHON is $("$PYTHON" --version 2>&1); dugout needs Python 3.11 or newer" >&2
  exit 1
fi

VENV="${VENV:-.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV with $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m venv "$VENV"
fi

extras=$(IFS=,; echo "$*")
target="."
[ -n "$extras" ] && target=".[$extras]"
stamp="$VENV/.dugout-installed"
want="$(cat pyproject.toml | sha256sum | cut -d' ' -f1) $target"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing dugout $target"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  # the project's distribution was once called "dugout" (a name another project holds on
  # the package index): a venv made then loses it, so only one install maps `dugout`
  if "$VENV/bin/python" -m pip show dugout >/dev/null 2>&1; then
    "$VENV/bin/python" -m pip uninstall --quiet --yes dugout
  fi
  # torch (in the `train` extra) is pinned to 2.13.0: pip takes its CPU wheel locally.
  "$VENV/bin/python" -m pip install --quiet -e "$target"
  echo "$want" > "$stamp"
fi
