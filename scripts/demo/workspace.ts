/**
 * `npm run demo`'s workspace, before the editor opens it:
 *
 *   node --import tsx scripts/demo/workspace.ts prepare RPC_URL WORKSPACE
 *     DemoToken deployed with some activity (scripts/demo/chain.ts), and Points behind an
 *     ERC1967Proxy with some activity through it (scripts/demo/points.ts); WORKSPACE holding the
 *     contracts, their compiler output as a Hardhat build-info (artifacts/build-info/, where the
 *     editor finds storage layouts: scripts/demo/build.ts), a README.md naming the addresses and
 *     what to open, the subgraph for DemoToken (address and start block filled in, codegen and
 *     build done) and a query file; `chaindeck graph-node start --data WORKSPACE/.graph-node` (the built CLI)
 *     with the subgraph created and deployed, waited for until the index node says synced with
 *     every record, counted over GraphQL, then stopped with SIGINT (its data kept, so the editor's
 *     local graph-node starts with the deployment back); the workspace settings. Prints one line
 *     of JSON (what was deployed and counted) on stdout; progress on stderr.
 *
 *   node --import tsx scripts/demo/workspace.ts stop-leftovers DATA_DIR
 *     SIGINT (gnd exits on SIGINT only; Postgres takes it as a fast shutdown) to every process
 *     whose command line names DATA_DIR, then SIGKILL to what still runs after 15 s.
 */
import { spawn, execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { captureTest } from '../../src/core/gndtest/capture/capture';
import { processesUsing } from '../../test/support/processes';
import { DEMO_CONTRACTS, demoBuildInfo, SOURCE_DIR, writeBuildInfo } from './build';
import { setUpDemoChain, writeDemoSubgraph } from './chain';
import { deployPoints, type DeployedPoints } from './points';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const GRAPH = path.join(REPO, 'node_modules', '.bin', 'graph');
/** The name the demo deploys its subgraph under (and the query file's `# @subgraph`). */
export const DEMO_SUBGRAPH_NAME = 'demo/token';
/** Recipients of the demo's airdrop: enough records to page through, indexed in about a second. */
const AIRDROP = 1000;
const SYNC_TIMEOUT_MS = 120_000;

const run = promisify(execFile);
// Bold only on a terminal: a log file or CI gets plain text, no escape codes.
const say = (text: string) => process.stderr.write(process.stderr.isTTY ? `\x1b[1m[demo]\x1b[0m ${text}\n` : `[demo] ${text}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface NodeUrls {
  graphql: string;
  admin: string;
  ipfs: string;
  indexNode: string;
  gnd: string;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** Every Transfer record of the subgraph, counted page by page over its GraphQL endpoint. */
export async function countTransfers(queryUrl: string): Promise<number> {
  let count = 0;
  let last = '0x';
  for (;;) {
    const answer = await post<{ data?: { transfers: { id: string }[] }; errors?: { message: string }[] }>(queryUrl, {
      query: 'query ($last: Bytes!) { transfers(first: 1000, orderBy: id, where: { id_gt: $last }) { id } }',
      variables: { last },
    });
    if (!answer.data) throw new Error(`the subgraph answered no transfers: ${JSON.stringify(answer.errors)}`);
    count += answer.data.transfers.length;
    if (answer.data.transfers.length < 1000) return count;
    last = answer.data.transfers[answer.data.transfers.length - 1].id;
  }
}

interface Status {
  subgraph: string;
  synced: boolean;
  health: string;
  entityCount: string;
  fatalError?: { message: string } | null;
  chains: { latestBlock?: { number: string } | null }[];
}

/** Waits until the index node says the name's current version is synced to `block`. */
async function untilSynced(indexNode: string, name: string, block: number): Promise<Status> {
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  let status: Status | undefined;
  for (;;) {
    const answer = await post<{ data?: { indexingStatusForCurrentVersion: Status | null } }>(indexNode, {
      query: `query ($name: String!) { indexingStatusForCurrentVersion(subgraphName: $name) { subgraph synced health entityCount fatalError { message } chains { latestBlock { number } } } }`,
      variables: { name },
    }).catch(() => undefined);
    status = answer?.data?.indexingStatusForCurrentVersion ?? undefined;
    if (status?.health === 'failed') throw new Error(`the subgraph failed: ${status.fatalError?.message}`);
    if (status?.synced && Number(status.chains[0]?.latestBlock?.number) >= block) return status;
    if (Date.now() > deadline) throw new Error(`the subgraph was not synced to block ${block} within ${SYNC_TIMEOUT_MS / 1000} s: ${JSON.stringify(status)}`);
    await sleep(250);
  }
}

/** `chaindeck graph-node start --json` in the foreground of this process; resolves with its URLs once it printed them. */
function startGraphNode(rpcUrl: string, dataDir: string): Promise<{ urls: NodeUrls; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, 'graph-node', 'start', '--rpc', rpcUrl, '--data', dataDir, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
    // Its progress (the gnd download, the steps), not gnd's log.
    if (line.startsWith('chaindeck graph-node:')) process.stderr.write(`  ${line}\n`);
  });
  // This process ending for any reason stops it (the CLI stops gnd, Postgres and the IPFS endpoint on SIGTERM).
  const guard = () => child.kill('SIGTERM');
  process.once('exit', guard);
  const stop = async () => {
    child.kill('SIGINT');
    const code = await exited;
    process.off('exit', guard);
    if (code !== 0) throw new Error(`chaindeck graph-node exited with ${code} on SIGINT:\n${tail.join('\n')}`);
  };
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ urls: JSON.parse(line) as NodeUrls, stop }));
    void exited.then((code) => reject(new Error(`chaindeck graph-node exited (${code}) before it was ready:\n${tail.join('\n')}`)));
  });
}

async function graph(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(GRAPH, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' } });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`graph ${args[0]} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

async function prepare(rpcUrl: string, workspace: string): Promise<void> {
  say('compiling the demo contracts with solc (the first run only)');
  const info = demoBuildInfo();
  say('deploying DemoToken (OpenZeppelin ERC-20, compiled with solc) with some transfers, approvals and an airdrop');
  const token = await setUpDemoChain(rpcUrl, AIRDROP);
  say(`DemoToken at ${token.address}: ${token.events.transfers} Transfer and ${token.events.approvals} Approval events up to block ${token.lastBlock}`);
  const points = await deployPoints(rpcUrl, info);
  say(`Points (OpenZeppelin 5 upgradeable ERC-20) behind the ERC-1967 proxy ${points.proxy}, implementation ${points.implementation}`);

  cpSync(DEMO_CONTRACTS, path.join(workspace, SOURCE_DIR), { recursive: true, filter: (from) => from === DEMO_CONTRACTS || from.endsWith('.sol') });
  const buildInfo = writeBuildInfo(workspace, info);
  const subgraph = path.join(workspace, 'subgraph');
  writeDemoSubgraph(subgraph, token);
  // graph build finds graph-ts up the folders; a workspace outside the repository gets a link to its packages.
  if (path.relative(REPO, workspace).startsWith('..') && !existsSync(path.join(workspace, 'node_modules')))
    symlinkSync(path.join(REPO, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');
  say('graph codegen and graph build');
  await graph(['codegen'], subgraph);
  await graph(['build'], subgraph);

  say('starting the local graph-node (chaindeck graph-node start)');
  const dataDir = path.join(workspace, '.graph-node');
  const node = await startGraphNode(rpcUrl, dataDir);
  let counted: { transfers: number; deployment: string; gnd: string };
  try {
    await graph(['create', '--node', node.urls.admin, DEMO_SUBGRAPH_NAME], subgraph);
    const deployed = await graph(['deploy', '--node', node.urls.admin, '--ipfs', node.urls.ipfs, DEMO_SUBGRAPH_NAME, '--version-label', 'v1'], subgraph);
    if (!/Deployed to/.test(deployed)) throw new Error(`graph deploy did not deploy:\n${deployed}`);
    const status = await untilSynced(node.urls.indexNode, DEMO_SUBGRAPH_NAME, token.lastBlock);
    const queryUrl = `${node.urls.graphql}/subgraphs/name/${DEMO_SUBGRAPH_NAME}`;
    const transfers = await countTransfers(queryUrl);
    if (transfers !== token.events.transfers) throw new Error(`the subgraph answered ${transfers} transfers, not ${token.events.transfers}`);
    const approvals = (await post<{ data?: { approvals: unknown[] } }>(queryUrl, { query: '{ approvals { id } }' })).data?.approvals.length;
    if (approvals !== token.events.approvals) throw new Error(`the subgraph answered ${approvals} approvals, not ${token.events.approvals}`);
    say(`${DEMO_SUBGRAPH_NAME} deployed (${status.subgraph}), synced to block ${token.lastBlock}, ${transfers} transfers answered`);
    counted = { transfers, deployment: status.subgraph, gnd: node.urls.gnd };
  } finally {
    await node.stop();
  }

  // A test of the subgraph, captured from the chain: every transfer of DemoToken replayed by gnd, the entities as the node wrote them.
  say(`capturing a gnd test of blocks ${token.startBlock}–${token.lastBlock} (chaindeck subgraph capture-test)`);
  const captured = await captureTest({
    manifest: path.join(subgraph, 'subgraph.yaml'),
    rpcUrl,
    from: token.startBlock,
    to: token.lastBlock,
    gnd: counted.gnd,
    progress: (message) => process.stderr.write(`  ${message}\n`),
  });
  say(`${path.relative(workspace, captured.file)}: ${captured.blocks} blocks, ${captured.events} events, ${captured.entities} entities`);

  const settings = {
    'chaindeck.nodes': [{ name: 'Local anvil', protocol: 'evm', url: rpcUrl }],
    'chaindeck.defaultNode': 'Local anvil',
    'chaindeck.localGraphNode.autoStart': true,
    'chaindeck.localGraphNode.chain': 'Local anvil',
    'chaindeck.localGraphNode.dataFolder': '.graph-node',
    // The gnd the CLI installed: the editor uses it instead of installing its own copy.
    'chaindeck.localGraphNode.gndPath': counted.gnd,
    // The node's data (gnd's own placeholder subgraph.yaml among it) and the link to the repository's packages are not the user's files.
    'files.exclude': { '.graph-node': true, node_modules: true },
  };
  writeFileSync(path.join(workspace, 'README.md'), workspaceReadme(rpcUrl, token.address, points, path.relative(workspace, captured.file)));
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  writeFileSync(path.join(workspace, 'demo.jsonrpc'), '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}\n');
  process.stdout.write(
    `${JSON.stringify({
      name: DEMO_SUBGRAPH_NAME,
      rpc: rpcUrl,
      ...counted,
      approvals: token.events.approvals,
      token: token.address,
      points: { proxy: points.proxy, implementation: points.implementation },
      buildInfo,
      queryFile: path.join(subgraph, 'transfers.graphql'),
      testFile: captured.file,
    })}\n`,
  );
}

/** The workspace's README.md: what was deployed where, and what to open first. */
function workspaceReadme(rpcUrl: string, token: string, points: DeployedPoints, testFile: string): string {
  return `# Chaindeck demo

Deployed on the local anvil (the **Local anvil** node in Chaindeck's Nodes view):

| contract | address |
| --- | --- |
| Points, an OpenZeppelin 5 upgradeable ERC-20, behind an ERC-1967 proxy | \`${points.proxy}\` |
| its implementation (Points) | \`${points.implementation}\` |
| DemoToken, an OpenZeppelin ERC-20 with a thousand airdrop holders | \`${token}\` |

Their compiler output is in \`artifacts/build-info/\` (storage layouts, ASTs, deployed code), so
Chaindeck knows each contract by its deployed code.

**First, the proxy's state.** Right-click **Local anvil** in the Nodes view, choose **Decode Contract
Storage…** and paste the proxy's address \`${points.proxy}\`. The Contract Storage view says
"ERC-1967 proxy → implementation 0x… (Points)" and shows the state kept at the proxy: the
\`erc7201:openzeppelin.storage.ERC20\` namespace with the balances and allowances, the contract's
own \`erc7201:example.points.main\` (season, scores, bonus, motto) and the
\`eip1967.proxy.implementation\` slot. The same from a terminal:

\`\`\`sh
node ${CLI} storage-decode --rpc ${rpcUrl} --address ${points.proxy} --layout artifacts/build-info/*.json
\`\`\`

**Then DemoToken** (\`${token}\`): its \`_allowances\` shows the two allowances its Approval events name,
found among a million pairs of holders. **Browse Storage…** on the same menu shows the raw slots,
each named by the variable it holds. The subgraph of DemoToken is in \`subgraph/\`, its query file open.

**The subgraph's test.** \`${testFile}\` was captured from this chain ("Capture Test from Blocks…"
on the deployment, or \`chaindeck subgraph capture-test\`): every block with a DemoToken event, its
transfers, and the entities the subgraph wrote, as assertions. Open the **Testing** view (the flask
in the activity bar): it lists the test under \`subgraph/subgraph.yaml\`, one item per assertion.
Press **Run Test**: gnd replays the blocks through the real mapping and checks every assertion.
Then break the handler (in \`subgraph/src/mapping.ts\`, write \`transfer.value = event.params.value.times(event.params.value)\`)
and run it again: the assertion fails and its peek shows expected against actual. The same from a terminal:

\`\`\`sh
node ${CLI} subgraph test --manifest subgraph/subgraph.yaml
\`\`\`
`;
}

async function stopLeftovers(dataDir: string): Promise<void> {
  const signal = (pids: number[], sig: NodeJS.Signals) =>
    pids.forEach((pid) => {
      try {
        process.kill(pid, sig);
      } catch {
        // gone meanwhile
      }
    });
  const left = processesUsing(dataDir);
  if (!left.length) return;
  const names = left.map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return String(pid);
    }
  });
  say(`stopping what was left running from ${dataDir}: ${names.join(', ')}`);
  signal(left, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (processesUsing(dataDir).length && Date.now() < deadline) await sleep(200);
  signal(processesUsing(dataDir), 'SIGKILL');
}

const [command, ...args] = process.argv.slice(2);
const usage = 'usage: workspace.ts prepare RPC_URL WORKSPACE | stop-leftovers DATA_DIR';
const work =
  command === 'prepare' && args.length === 2 ? prepare(args[0], path.resolve(args[1])) : command === 'stop-leftovers' && args.length === 1 ? stopLeftovers(path.resolve(args[0])) : undefined;
if (!work) {
  console.error(usage);
  process.exit(2);
}
work.then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`[demo] ${err.message}`);
    process.exit(1);
  },
);
