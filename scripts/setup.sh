#!/usr/bin/env bash
# Installs what Chaindeck's tests and demo need, skipping what is already there:
# Debian's Chromium (drives the real workbench), libkrb5-dev (code-server's kerberos module
# builds from source) and postgresql (the local graph-node's database), the npm packages, and
# the real VS Code (code-server with its Node 24), cached outside the repository. `npm test` and
# `npm run test:workbench` run it first (scripts/test.mjs --setup), and so does `npm run demo`.
# Each long step says what it does and about how long before it starts (scripts/long-step.mjs);
# apt-get's and the compilers' output goes to the log files it names.
#   --no-browser   everything but Chromium, which only the tests need (the demo)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  '' | --no-browser) ;;
  *) echo "usage: bash scripts/setup.sh [--no-browser]" >&2; exit 2 ;;
esac

step() { node scripts/long-step.mjs --tag setup "$@"; }

missing=()
[ "${1:-}" = --no-browser ] || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
dpkg -s postgresql >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  # Debian's packages need root: through sudo when we are not, after saying what for; without
  # sudo, the command to run as root.
  apt_cmd="apt-get update && apt-get install -y ${missing[*]}"
  by_hand() {
    printf 'setup: %s. As root, run\n  %s\nthen run this again.\n' "$1" "$apt_cmd" >&2
    exit 1
  }
  as_root=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || by_hand "the Debian packages ${missing[*]} are missing and installing them needs root (there is no sudo)"
    echo "setup: the Debian packages ${missing[*]} are missing; installing them with sudo (apt-get update, apt-get install)"
    sudo -v || by_hand "sudo refused"
    as_root=(sudo)
  fi
  logs=$(mktemp -d "${TMPDIR:-/tmp}/chaindeck-setup.XXXXXX")
  step --what "installing the Debian packages ${missing[*]}" --about "1 minute, 2 with Chromium" --log "$logs/apt-get.log" -- \
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive bash -c "apt-get update -q && apt-get install -y -q ${missing[*]}" \
    || by_hand "installing the Debian packages failed (see above)"
fi

# npm ci when the installed tree is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step --what "installing the npm packages (npm ci)" --about "2 minutes with an empty npm cache, 1 with a full one" -- \
    npm ci --no-audit --no-fund
fi

node scripts/workbench/install.mjs
