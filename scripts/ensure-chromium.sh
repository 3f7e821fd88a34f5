#!/usr/bin/env bash
# The end-to-end tests drive a real Chromium. Playwright cannot download its own browser here,
# so use the system one: Debian's `chromium`, installed on the spot when this is a fresh Debian
# machine and we are allowed to (root).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium-browser ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package for the end-to-end tests…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The end-to-end tests need Chromium: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
