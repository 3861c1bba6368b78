#!/usr/bin/env bash
# `npm run demo`: Chaindeck in a real VS Code (code-server) in your browser, with a local chain
# and a local graph-node already holding a subgraph. Installs what is missing, builds and packages
# the extension, starts anvil with DemoToken (an OpenZeppelin ERC-20 compiled with solc) and some
# transfers, approvals and an airdrop, and Points (an OpenZeppelin 5 upgradeable ERC-20) behind an
# ERC-1967 proxy with some activity; writes the contracts' compiler output into the workspace
# (artifacts/build-info/, where Chaindeck finds storage layouts); builds the demo subgraph for it and deploys it to
# `chaindeck graph-node start` (gnd, Postgres, the IPFS endpoint; data in the workspace's
# .graph-node), counts its records, stops it; then opens code-server on the workspace, where the
# extension starts the local graph-node with the deployment back, and the query file. Runs until
# Ctrl+C, then stops everything.
#   --smoke               all of it, then check that the subgraph answered every transfer and, in
#                         Chromium, that Chaindeck is active (the Nodes view shows the Local anvil
#                         node with its latest block, the Subgraphs view the Local Graph Node ready
#                         with the deployment; before that, that the workspace's compiler output
#                         is the code anvil runs and the proxy names Points); stop, exit 0; on free ports, in a temporary folder
#                         instead of .demo/
#   CHAINDECK_DEMO_PORT   code-server's port (default 8080; a free one if 8080 is taken)
# Everything it writes stays in .demo/ (gitignored), the workbench cache ($XDG_CACHE_HOME or
# ~/.cache, chaindeck-workbench/; see scripts/workbench/install.mjs) and gnd in chaindeck/ there.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# Bold only on a terminal: a log file or CI gets plain text, no escape codes.
if [ -t 1 ]; then say() { printf '\033[1m[demo]\033[0m %s\n' "$*"; }; else say() { printf '[demo] %s\n' "$*"; }; fi
die() { printf '[demo] ERROR: %s\n' "$*" >&2; exit 1; }

SMOKE=
case "${1:-}" in
  '') ;;
  --smoke) SMOKE=1 ;;
  *) printf '[demo] unknown argument %s\nusage: npm run demo [-- --smoke]\n' "$1" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { printf 'usage: npm run demo [-- --smoke]\n' >&2; exit 2; }

command -v node >/dev/null || die "Node.js 20.19 or newer is required (https://nodejs.org)"
# Started by `npm run demo`: drop npm's variables, so the installs, vsce and code-server (and
# the terminals in it) behave as if run by hand.
eval "$(node scripts/clean-env.mjs --shell)"

if [[ -n $SMOKE ]]; then
  DEMO=$(mktemp -d "${TMPDIR:-/tmp}/chaindeck-demo-smoke.XXXXXX")
  chmod 711 "$DEMO" # as root, Postgres runs as the postgres user, which must pass through it
  trap 'rm -rf "$DEMO"' EXIT # until the cleanup below takes over
else
  DEMO=$ROOT/.demo
fi
WS=$DEMO/workspace
demo_ts() { node --import tsx scripts/demo/workspace.ts "$@"; }

# --- 1. What a fresh machine lacks (Debian packages, npm packages, code-server + Node 24) --------
# Chromium only for the smoke check; the demo itself runs in your browser.
setup_flag=--no-browser
[[ -z $SMOKE ]] || setup_flag=
bash scripts/setup.sh $setup_flag >&2 || die "installing the tools failed (see above)"
paths=$(node scripts/workbench/install.mjs) # cached now: just prints the paths
NODE24=$(sed -n 's/^node24=//p' <<<"$paths")
CODE_SERVER=$(sed -n 's/^codeServerBin=//p' <<<"$paths")

# --- 3. Build and package -----------------------------------------------------------------------
say "building and packaging the extension"
mkdir -p "$DEMO"
node scripts/package.mjs "$DEMO/chaindeck.vsix" >"$DEMO/vsce.log" 2>&1 \
  || { cat "$DEMO/vsce.log"; die "packaging the .vsix failed"; }

# --- 4. Processes we start, stopped (whole process groups) on exit or Ctrl+C --------------------
# SIGTERM first and time to stop: the graph-node CLI and the extension stop gnd (SIGINT) and
# Postgres themselves; whatever still runs from the workspace's .graph-node is stopped last.
pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for _ in $(seq 1 60); do
    alive=
    for pid in "${pids[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    [[ -n $alive ]] || break
    sleep 0.25
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  demo_ts stop-leftovers "$WS/.graph-node" || true
  [[ -z $SMOKE ]] || rm -rf "$DEMO"
  say "stopped"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_free() { node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$1"; }
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
# Waits until $1 answers HTTP (any status), failing if process $2 died or after 60 s.
wait_http() {
  for _ in $(seq 1 240); do
    kill -0 "$2" 2>/dev/null || return 1
    node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(1000),method:process.argv[2],headers:{"content-type":"application/json"},body:process.argv[3]||undefined}).then(()=>process.exit(0),()=>process.exit(1))' "$1" "${3:-GET}" "${4:-}" && return 0
    sleep 0.25
  done
  return 1
}

# --- 5. anvil on 8545, or any free port --------------------------------------------------------
ANVIL_PORT=8545
[[ -z $SMOKE ]] && port_free "$ANVIL_PORT" || ANVIL_PORT=$(free_port)
setsid node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil --host 127.0.0.1 --port "$ANVIL_PORT" >"$DEMO/anvil.log" 2>&1 &
pids+=($!)
ANVIL_URL=http://127.0.0.1:$ANVIL_PORT
wait_http "$ANVIL_URL" "${pids[-1]}" POST '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' \
  || { cat "$DEMO/anvil.log"; die "anvil did not start"; }
say "anvil devnet at $ANVIL_URL"

# --- 6. The demo workspace: DemoToken, its subgraph deployed to a local graph-node -------------
# A new chain each run, so a new workspace: what an earlier run left running from it is stopped first.
demo_ts stop-leftovers "$WS/.graph-node"
rm -rf "$WS"
mkdir -p "$WS"
setsid node --import tsx scripts/demo/workspace.ts prepare "$ANVIL_URL" "$WS" >"$DEMO/prepared.json" &
pids+=($!)
wait "${pids[-1]}" || die "preparing the demo workspace failed (see above)"
# A field of what the workspace script deployed, by its path: `prepared points.proxy`.
prepared() { node -p 'process.argv[2].split(".").reduce((o, k) => o[k], JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")))' "$DEMO/prepared.json" "$1"; }
QUERY_FILE=$(prepared queryFile)
PROXY=$(prepared points.proxy)
# A fresh VS Code profile each run, with the demo's own user settings: no welcome page or chat,
# and no prompt about the repository around .demo/.
rm -rf "$DEMO/user-data" "$DEMO/extensions"
mkdir -p "$DEMO/user-data/User"
cat >"$DEMO/user-data/User/settings.json" <<'EOF'
{
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "git.openRepositoryInParentFolders": "never"
}
EOF

# --- 7. code-server with the packaged extension -------------------------------------------------
# HOME/XDG point into .demo: code-server writes its config and caches there, not in your home.
export HOME=$DEMO/home XDG_CONFIG_HOME=$DEMO/home/.config XDG_DATA_HOME=$DEMO/home/.local/share XDG_CACHE_HOME=$DEMO/home/.cache
export PATH=$(dirname "$NODE24"):$PATH
"$NODE24" "$CODE_SERVER" --extensions-dir "$DEMO/extensions" --user-data-dir "$DEMO/user-data" \
  --install-extension "$DEMO/chaindeck.vsix" >"$DEMO/install-extension.log" 2>&1 \
  || { cat "$DEMO/install-extension.log"; die "installing the .vsix into code-server failed"; }

if [[ -n $SMOKE ]]; then
  PORT=$(free_port)
elif [[ -n ${CHAINDECK_DEMO_PORT:-} ]]; then
  PORT=$CHAINDECK_DEMO_PORT
  port_free "$PORT" || die "port $PORT (CHAINDECK_DEMO_PORT) is in use"
else
  PORT=8080
  port_free "$PORT" || PORT=$(free_port)
fi
setsid "$NODE24" "$CODE_SERVER" --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry \
  --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$DEMO/user-data" --extensions-dir "$DEMO/extensions" "$WS" >"$DEMO/code-server.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$PORT/healthz" "${pids[-1]}" || { cat "$DEMO/code-server.log"; die "code-server did not start"; }

# The folder, and the query file opened in it (VS Code's `payload` parameter).
OPEN=$(node -p 'encodeURIComponent(JSON.stringify([["openFile", `vscode-remote://${process.argv[1]}${process.argv[2]}`]]))' "127.0.0.1:$PORT" "$QUERY_FILE")
URL="http://127.0.0.1:$PORT/?folder=$WS&payload=$OPEN"
if [[ -n $SMOKE ]]; then
  # Its own process group too, so the cleanup also stops a Chromium left by a timeout.
  setsid node --import tsx scripts/demo-smoke.ts "$URL" "$DEMO/prepared.json" &
  pids+=($!)
  if wait "${pids[-1]}"; then
    say "smoke passed"
    exit 0
  fi
  tail -n 30 "$DEMO/code-server.log" >&2 || true
  die "smoke failed: Chaindeck did not come up in the workbench (see above)"
fi
say "Open $URL"
say "First: right-click Local anvil in Chaindeck's Nodes view, Decode Contract Storage…, and paste the Points proxy $PROXY (its state, read through the proxy; README.md in the workspace says more)"
say "Then the Testing view (the flask): the subgraph's test, captured from this chain; Run Test replays it through gnd"
say "(the Chaindeck icon in the activity bar: Nodes, and the Local Graph Node in Subgraphs; the query file is open; logs in .demo/*.log; Ctrl+C to stop)"
wait "${pids[-1]}" || true
say "code-server exited"
