#!/usr/bin/env bash
# Installs what Chaindeck's tests and demo need, skipping what is already there:
# Debian's Chromium (drives the real workbench), libkrb5-dev (code-server's kerberos module
# builds from source) and postgresql (the local graph-node's database), the npm packages, and
# the real VS Code (code-server with its Node 24), cached outside the repository. `npm test` and `npm run test:workbench` run it first
# (scripts/test.mjs --setup), and so does `npm run demo`.
set -euo pipefail
cd "$(dirname "$0")/.."

# --no-browser (the demo): everything but Chromium, which only the tests need.
missing=()
[ "${1:-}" = --no-browser ] || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
dpkg -s postgresql >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

# npm ci when the installed tree is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi

node scripts/workbench/install.mjs
