/**
 * `chaindeck subgraph capture-test --rpc URL --from N --to M [--manifest PATH] [--out FILE] [--force]`:
 * writes a gnd test file for blocks N..M of a node (core/gndtest/capture), checked to pass on the
 * unchanged subgraph before it is written. An action of `chaindeck subgraph`.
 */
import * as path from 'node:path';
import { outProblem, rangeProblem } from '../../core/gndtest/capture/inputs';
import { inertLine } from '../../core/inert';
import { UsageError, type OptionTable } from '../args';
import { abortOnSignals, defineCommand, EXIT } from '../command';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, rpcFlag } from '../endpointFlags';
import { userCacheDir } from '../graphNode';
import { DEFAULT_MANIFEST, manifestPath } from '../validate';

const options = {
  ...nodeOptions('the node the blocks are read from (http or https)'),
  from: { type: 'string', value: 'N', help: 'the first block of the range' },
  to: { type: 'string', value: 'M', help: 'the last block of the range (at most 100,000 blocks from N)' },
  manifest: { type: 'string', value: 'PATH', help: 'the subgraph manifest, or its folder (default ./subgraph.yaml)' },
  out: { type: 'string', value: 'FILE', help: 'the test file to write (default tests/<first data source>-<N>-<M>.json beside the manifest)' },
  force: { type: 'boolean', help: 'replace FILE when it exists' },
  gnd: { type: 'string', value: 'PATH', help: 'a gnd binary to use (default: on PATH, else installed into the user cache)' },
} satisfies OptionTable;

function blockFlag(name: string, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (!/^\d{1,15}$/.test(value.trim())) throw new UsageError(`--${name} takes a block number (whole, from 0), not '${value}'`);
  return Number(value.trim());
}

export const subgraphCaptureCommand = defineCommand({
  name: 'subgraph capture-test',
  summary: 'Write a gnd test file from blocks of a chain',
  usage: ['--rpc URL [--user NAME] --from N --to M [--manifest PATH] [--out FILE] [--force]'],
  environment: ENDPOINT_ENV,
  description:
    "Indexes blocks N..M on a temporary local graph-node whose chain ends at M, recording the logs and the eth_calls the subgraph's handlers read, and writes them as a gnd test: every block with an event of the data sources (templates' instances too), each event with its real transaction hash and log index, the eth_calls with their answers, and, as assertions, every entity the subgraph holds at block M. The file is run once by gnd first: what is written passes on the unchanged subgraph.",
  options,
  notes: `Gaps in a block's log indexes (logs of contracts the subgraph does not watch) are filled with ChaindeckLogIndexFiller() events from the zero address, which no handler takes, so each captured event keeps its real log index. A range with no event, a block the node does not have, a subgraph that does not build, or a test that would not pass is one line on stderr, and nothing is written.`,
  exit: {
    done: 'the test file was written',
    failed: 'nothing was written: the line on stderr says why',
    usageExample: '--from after --to',
  },

  check({ values, positionals }, io) {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    const rpc = rpcFlag(values.rpc);
    // The node as the flags give it, --user's Basic credentials included (the URL may hold none).
    const endpoint = endpointFromFlags(rpc, values.user, io.env);
    // The capture's gateway forwards graph-node's calls over HTTP: a ws:// URL would be called as http://.
    if (endpoint.isWs) throw new UsageError("--rpc takes the node's http:// or https:// URL: capture-test does not read over WebSocket");
    const from = blockFlag('from', values.from);
    const to = blockFlag('to', values.to);
    if (from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
    // Said before gnd is resolved (maybe installed) or the node is asked anything.
    const problem = rangeProblem(from, to) ?? (values.out !== undefined ? outProblem(path.resolve(values.out), values.force === true) : undefined);
    if (problem) throw new UsageError(problem);
    return { rpc, endpoint, from, to, manifest: manifestPath(values.manifest ?? DEFAULT_MANIFEST, 'give --manifest'), out: values.out, force: values.force === true, gnd: values.gnd };
  },

  async work(args, io) {
    // Loaded here: only this action needs the capture and the local graph-node.
    const [{ captureTest, CaptureError }, { resolveGnd }] = await Promise.all([import('../../core/gndtest/capture/capture'), import('../../core/localnode/gnd')]);
    const cacheDir = userCacheDir(io.env);
    // Ctrl+C (or SIGTERM) cancels: the local graph-node, Postgres and gnd are stopped before the exit.
    const abort = new AbortController();
    const stopListening = abortOnSignals(abort);
    try {
      const gnd = await resolveGnd({ gndPath: args.gnd, cacheDir, env: io.env, signal: abort.signal });
      const result = await captureTest({
        manifest: args.manifest,
        rpcUrl: args.rpc,
        endpoint: args.endpoint,
        from: args.from,
        to: args.to,
        out: args.out,
        force: args.force,
        gnd: gnd.path,
        cacheDir,
        signal: abort.signal,
        progress: (message) => io.err(`${message}…\n`),
      });
      const shown = path.relative(process.cwd(), result.file) || result.file;
      io.out(`${inertLine(shown)}: ${result.blocks} blocks, ${result.events} events, ${result.ethCalls} eth_calls, ${result.entities} entities asserted\n`);
      return EXIT.done;
    } catch (err) {
      if (err instanceof CaptureError) {
        io.err(`chaindeck subgraph capture-test: ${inertLine(err.message)}\n`);
        return EXIT.failed;
      }
      throw err;
    } finally {
      stopListening();
    }
  },
});
