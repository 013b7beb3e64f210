#!/usr/bin/env bash
# The headless browser the web app's browser test drives (tests/test_web_browser.py):
# Debian's chromium and its chromedriver, installed with apt-get where either is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
echo "setup_browser: installing chromium and chromium-driver (the browser test's headless browser)" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
fi
if ! command -v apt-get >/dev/null 2>&1 || \
        ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium chromium-driver; }; then
    echo "setup_browser: could not install chromium and chromium-driver with apt-get; install them" \
         "so that /usr/bin/chromium and /usr/bin/chromedriver exist, or tests/test_web_browser.py fails" >&2
    exit 1
fi
