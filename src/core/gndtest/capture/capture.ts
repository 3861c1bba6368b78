/**
 * `captureTest`: a gnd test file for blocks from..to of a node. The range is indexed on a
 * temporary local graph-node whose chain is the recording gateway (the chain ends at `to`), by a
 * copy of the manifest whose data sources start at `from`; the test's blocks are what graph-node
 * read (the logs its filters matched, template instances included, and the eth_calls its
 * handlers made, with their answers), its assertions every entity as that node answers at `to`.
 * The file is run once by gnd before it is written: what is written passes on the unchanged
 * subgraph. Any failure is one line (CaptureError) and writes nothing.
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Interface } from 'ethers';
import { endpointFromUrl, type UrlEndpoint } from '../../nodes/endpoint';
import { RpcClient } from '../../rpc/client';
import { LocalGraphNode } from '../../localnode/supervisor';
import { fetchStatuses } from '../../localnode/status';
import type { GraphCommand } from '../../subgraph/graphcli/commands';
import { deployToLocalNode } from '../../subgraph/graphcli/localDeploy';
import { buildStep, chooseToolchain, runToolchain, ToolchainError, type Toolchain } from '../../subgraph/graphcli/toolchain';
import { DEFAULT_TEST_FOLDER } from '../testFile';
import { UnreplayableError } from './abiText';
import { captureAssertions, TooManyEntitiesError } from './assertions';
import { blockMocks, callBlock, capturedEvents, withFillers, type CapturedEvent, type GndBlock } from './blocks';
import { startRecordingGateway, type RecordedCall, type RecordingGateway } from './gateway';
import { CAPTURE_MANIFEST, ManifestError, type CaptureManifest, readCaptureManifest, writeCaptureManifest } from './manifest';
import { verifyCapturedTest } from './verify';
import { outProblem, rangeProblem } from './inputs';

export { MAX_RANGE, outProblem, rangeProblem } from './inputs';

/** A capture that cannot be made: one line that says why and what to do; nothing was written. */
export class CaptureError extends Error {}

/** The most blocks a test holds (every block of the range, with block handlers). */
export const MAX_BLOCKS = 2_000;
/** How long the range may take to index. */
const INDEX_TIMEOUT_MS = 300_000;
const DEPLOY_NAME = 'chaindeck-capture';

export interface CaptureOptions {
  manifest: string;
  rpcUrl: string;
  /** The node as already read from `rpcUrl` with its credentials apart (HTTP Basic); default: rpcUrl read alone. */
  endpoint?: UrlEndpoint;
  from: number;
  to: number;
  /** Default: tests/<first data source>-<from>-<to>.json beside the manifest. */
  out?: string;
  /** Overwrite an existing --out file. */
  force?: boolean;
  /** The gnd binary (runs the local graph-node and the check). */
  gnd: string;
  /** Where gnd would be installed (unused when `gnd` is given; the supervisor wants one). */
  cacheDir?: string;
  /** Which toolchain builds and deploys (default: the project's graph CLI, else gnd). */
  toolchain?: Toolchain;
  /** The toolchain's codegen+build of the manifest (default: the toolchain's own). */
  build?: (signal: AbortSignal, out: (line: string) => void) => Promise<void>;
  signal?: AbortSignal;
  progress?: (message: string) => void;
}

export interface CaptureResult {
  file: string;
  blocks: number;
  events: number;
  ethCalls: number;
  entities: number;
  /** JSON-RPC requests graph-node sent through the gateway. */
  roundTrips: number;
}

/** The default file: tests/<first data source>-<from>-<to>.json beside the manifest (the folder `subgraph test` runs by default). */
export function defaultOutFile(manifest: string, firstSource: string, from: number, to: number): string {
  // Starting with a letter or digit: gnd skips any other file of a tests folder.
  const safe = firstSource.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'subgraph';
  return path.join(path.dirname(manifest), DEFAULT_TEST_FOLDER, `${safe}-${from}-${to}.json`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

interface BlockHeader {
  hash: string;
  timestamp: number;
}

/** Block headers by number (and by hash), read in batches of 100. */
async function headers(client: RpcClient, numbers: readonly number[], signal?: AbortSignal): Promise<Map<number, BlockHeader>> {
  const out = new Map<number, BlockHeader>();
  for (let i = 0; i < numbers.length; i += 100) {
    const chunk = numbers.slice(i, i + 100);
    const items = await client.batch(
      chunk.map((n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })),
      { signal },
    );
    items.forEach((item, k) => {
      const block = 'result' in item ? (item.result as { hash?: string; timestamp?: string } | null) : undefined;
      if (!block?.hash || !block.timestamp) throw new CaptureError(`The node has no block ${chunk[k]}${'error' in item ? ` (${oneLine(item.error)})` : ''}.`);
      out.set(chunk[k], { hash: block.hash.toLowerCase(), timestamp: Number(BigInt(block.timestamp)) });
    });
  }
  return out;
}

const noEvents = (from: number, to: number) => `No event of the subgraph's data sources in blocks ${from}–${to}: nothing to capture (check the range and the manifest's addresses).`;

/**
 * Whether the range surely holds no event of the subgraph, asked of the node before a local
 * graph-node is started: when every data source has an address and none has block handlers, no
 * handler (so no template instance) can run without a log of theirs. Undefined (go on and see)
 * when that cannot be told or the node refuses the query (a range too wide for it).
 */
async function noEventsAtAll(client: RpcClient, sources: CaptureManifest['sources'], from: number, to: number, signal?: AbortSignal): Promise<boolean> {
  const own = sources.filter((s) => !s.template);
  if (own.some((s) => !s.address || s.blockHandlers)) return false;
  const hex = (n: number) => `0x${n.toString(16)}`;
  try {
    const logs = await client.call<unknown[]>(
      'eth_getLogs',
      [{ fromBlock: hex(from), toBlock: hex(to), address: own.map((s) => s.address), topics: [[...new Set(own.flatMap((s) => [...s.topics]))]] }],
      { signal },
    );
    return Array.isArray(logs) && logs.length === 0;
  } catch {
    return false;
  }
}

/** Waits until the capture's deployment has indexed `to`; a fatal error on the way is the capture's failure. */
async function waitIndexed(indexNode: string, deployment: string, to: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  for (;;) {
    if (signal?.aborted) throw new CaptureError('The capture was cancelled.');
    const status = (await fetchStatuses(indexNode, signal).catch(() => []))?.find((s) => s.deployment === deployment);
    if (status?.health === 'failed') {
      const at = status.fatalError?.block !== undefined ? ` at block ${status.fatalError.block}` : '';
      throw new CaptureError(`The subgraph failed${at} while the range was indexed: ${oneLine(status.fatalError?.message ?? 'no reason given')}`);
    }
    if (status && (status.indexed ?? -1) >= to) return;
    if (Date.now() > deadline)
      throw new CaptureError(`The local graph-node did not index up to block ${to} within ${INDEX_TIMEOUT_MS / 1000} s (indexed: ${status?.indexed ?? 'none'}): capture a shorter range.`);
    await sleep(200);
  }
}

/** The test's blocks: every block with a captured event (every block of the range when there are block handlers), with its mocks. */
async function testBlocks(
  client: RpcClient,
  events: readonly CapturedEvent[],
  records: readonly RecordedCall[],
  range: { from: number; to: number; everyBlock: boolean },
  abis: readonly Interface[],
  signal?: AbortSignal,
): Promise<GndBlock[]> {
  const numbers = new Set(events.map((e) => e.block));
  if (range.everyBlock) {
    if (range.to - range.from + 1 > MAX_BLOCKS)
      throw new CaptureError(`The subgraph has block handlers, so every block of the range is in the test: at most ${MAX_BLOCKS.toLocaleString('en-US')} blocks; capture a shorter range.`);
    for (let n = range.from; n <= range.to; n++) numbers.add(n);
  }
  const byNumber = await headers(
    client,
    [...numbers].sort((a, b) => a - b),
    signal,
  );
  const numberOfHash = new Map([...byNumber].map(([n, h]) => [h.hash, n]));
  for (const e of events)
    if (byNumber.get(e.block)?.hash !== e.blockHash)
      throw new CaptureError(`Block ${e.block} changed while it was captured (a reorganisation): capture again, or a range further from the head.`);
  const callsAt = new Map<number, RecordedCall[]>();
  for (const r of records) {
    if (r.method === 'eth_getLogs') continue;
    const ref = callBlock(r);
    const n = ref.number ?? (ref.hash ? numberOfHash.get(ref.hash) : undefined);
    if (n === undefined || !byNumber.has(n)) continue;
    callsAt.set(n, [...(callsAt.get(n) ?? []), r]);
  }
  return [...byNumber].map(([number, header]) => ({
    number,
    hash: header.hash,
    timestamp: header.timestamp,
    events: withFillers(events.filter((e) => e.block === number)),
    ...blockMocks(callsAt.get(number) ?? [], abis),
  }));
}

/**
 * gnd test starts a manifest whose lowest data-source startBlock S is above 0 at block S-1 (its
 * hash keccak256(S-1), gnd's default for a block without one) and skips the file's blocks up to
 * that one; a file without it loses its first block. So a captured file begins with it.
 */
export function startPointer(sources: readonly { template: boolean; startBlock: number }[]): { number: number }[] {
  const lowest = Math.min(...sources.filter((s) => !s.template).map((s) => s.startBlock));
  return lowest > 0 ? [{ number: lowest - 1 }] : [];
}

/** Captures blocks from..to of the node at `rpcUrl` as a gnd test file, checks it passes, and writes it. */
export async function captureTest(options: CaptureOptions): Promise<CaptureResult> {
  const { from, to, signal } = options;
  const progress = options.progress ?? (() => undefined);
  const problem = rangeProblem(from, to);
  if (problem) throw new CaptureError(problem);
  const manifestFile = path.resolve(options.manifest);
  let manifest;
  try {
    manifest = readCaptureManifest(manifestFile);
  } catch (err) {
    throw err instanceof ManifestError ? new CaptureError(err.message) : err;
  }
  const first = manifest.sources.find((s) => !s.template)!;
  const out = path.resolve(options.out ?? defaultOutFile(manifestFile, first.name, from, to));
  const outIssue = outProblem(out, options.force ?? false);
  if (outIssue) throw new CaptureError(outIssue);
  let toolchain: Toolchain;
  try {
    toolchain = options.toolchain ?? (await chooseToolchain({ fromDir: manifest.dir, gnd: async () => options.gnd }));
  } catch (err) {
    throw err instanceof ToolchainError ? new CaptureError(err.message) : err;
  }
  if (manifest.sources.some((s) => s.callHandlers)) throw new CaptureError('The subgraph has call handlers: gnd test feeds events and blocks only, so it cannot replay them.');

  let client: RpcClient;
  try {
    client = new RpcClient(options.endpoint ?? endpointFromUrl(options.rpcUrl), { timeoutMs: 30_000 });
  } catch (err) {
    throw new CaptureError(`The RPC URL cannot be used: ${oneLine(err)}`);
  }
  progress('reading the node');
  let head: number;
  try {
    head = Number(BigInt((await client.call<string>('eth_blockNumber', [], { signal })) ?? '0x0'));
  } catch (err) {
    throw new CaptureError(`The node did not answer eth_blockNumber: ${oneLine(err)}`);
  }
  if (to > head) throw new CaptureError(`The node has no block ${to}: its latest block is ${head}.`);

  if (await noEventsAtAll(client, manifest.sources, from, to, signal)) throw new CaptureError(noEvents(from, to));

  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const scratch = await mkdtemp(path.join(tmpdir(), 'chaindeck-capture-'));
  chmodSync(scratch, root ? 0o711 : 0o700);
  let gateway: RecordingGateway | undefined;
  let node: LocalGraphNode | undefined;
  const copy = path.join(manifest.dir, CAPTURE_MANIFEST);
  try {
    gateway = await startRecordingGateway(client, to, signal);
    // The manifest's own build first: one that does not build is told before a node starts, and gnd later runs this build.
    progress('building the subgraph');
    try {
      await (options.build ?? buildStep(manifestFile, toolchain))(signal ?? new AbortController().signal, () => undefined);
    } catch (err) {
      if (signal?.aborted) throw new CaptureError('The capture was cancelled.');
      throw new CaptureError(`The subgraph does not build: ${oneLine(err)}`);
    }
    progress('starting a local graph-node');
    node = new LocalGraphNode({ rpcUrl: gateway.url, gndPath: options.gnd, cacheDir: options.cacheDir ?? scratch, dataDir: path.join(scratch, 'node') });
    const urls = await node.start(signal);
    progress(`indexing blocks ${from}–${to}`);
    await writeCaptureManifest(manifestFile, from);
    // The copy is built into the scratch folder: the project's build/ stays the manifest's own.
    const buildDir = path.join(scratch, 'build');
    const intoScratch = (cmd: GraphCommand): GraphCommand => (cmd.subcommand === 'build' || cmd.subcommand === 'deploy' ? { ...cmd, args: [...cmd.args, '--output-dir', buildDir] } : cmd);
    const deployed = await deployToLocalNode({ manifest: CAPTURE_MANIFEST, name: DEPLOY_NAME, urls, run: (cmd) => runToolchain(toolchain, intoScratch(cmd), { cwd: manifest.dir, signal }) });
    if (!deployed.ok || !deployed.deployment) throw new CaptureError(deployed.summary.replaceAll(CAPTURE_MANIFEST, path.basename(manifestFile)));
    await waitIndexed(urls.indexNode, deployed.deployment, to, signal);
    progress('reading the entities');
    const { assertions, entities } = await captureAssertions(`${urls.graphql}/subgraphs/name/${DEPLOY_NAME}`, readFileSync(manifest.schemaFile, 'utf8'), to, signal);
    await node.stop();
    await gateway.close();
    if (gateway.overflowed) throw new CaptureError('graph-node read more from the node than a capture records (calls or bytes): capture a shorter range.');

    const watch = {
      sources: new Map(manifest.sources.filter((s) => !s.template && s.address).map((s) => [s.address!, s.topics])),
      templateTopics: new Set(manifest.sources.filter((s) => s.template || !s.address).flatMap((s) => [...s.topics])),
    };
    const events = capturedEvents(gateway.records, from, to, [...manifest.abis.values()], watch);
    if (events.length === 0) throw new CaptureError(noEvents(from, to));
    const everyBlock = manifest.sources.some((s) => s.blockHandlers);
    const blocks = await testBlocks(client, events, gateway.records, { from, to, everyBlock }, [...manifest.abis.values()], signal);
    const test = { name: `${first.name} blocks ${from}-${to}`, blocks: [...startPointer(manifest.sources), ...blocks], assertions };
    const draft = path.join(scratch, path.basename(out));
    await writeFile(draft, `${JSON.stringify(test, null, 2)}\n`);

    progress('running the captured test');
    let failed: string | undefined;
    try {
      failed = await verifyCapturedTest({ gnd: options.gnd, manifest: manifestFile, file: draft, signal });
    } catch (err) {
      throw new CaptureError(`The captured test could not be run: ${oneLine(err)}`);
    }
    if (failed) throw new CaptureError(`The captured test does not pass on the unchanged subgraph, so it was not written: ${failed}`);
    mkdirSync(path.dirname(out), { recursive: true });
    await writeFile(out, readFileSync(draft), { flag: options.force ? 'w' : 'wx' });
    return {
      file: out,
      blocks: blocks.length,
      events: events.length,
      ethCalls: blocks.reduce((n, b) => n + (b.ethCalls?.length ?? 0), 0),
      entities,
      roundTrips: gateway.requests,
    };
  } catch (err) {
    if (err instanceof UnreplayableError || err instanceof TooManyEntitiesError) throw new CaptureError(err.message);
    throw err;
  } finally {
    await node?.stop().catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    await rm(copy, { force: true }).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}
