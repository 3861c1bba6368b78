/**
 * A hostile node's 300 MB reply against the response cap: time until the client refuses it and
 * the growth of this process's peak RSS, against a baseline of small replies from the same
 * server in the same process. The server runs in a child process, so its own buffers do not
 * count; it reports how many bytes it managed to send before the client hung up.
 *
 * Needs no node: `node --import tsx bench/body.bench.ts` (or through `npm run bench`).
 */
import { spawn } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ResolvedEndpoint } from '../src/core/rpc/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { setResponseLimitMB } from '../src/core/rpc/deadline';
import { RpcFailure } from '../src/core/rpc/failure';
import { closeIdleConnections } from '../src/core/rpc/http';

// The server: POST /small answers a 1 KB result; /stream streams 300 MB without Content-Length;
// /announce announces 300 MB and sends nothing more. It prints each connection's sent bytes.
const SERVER = `
const http = require('node:http');
const chunk = Buffer.alloc(64 * 1024, 'a');
const TOTAL = 300 * 1024 * 1024;
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.on('error', () => {});
    if (req.url === '/small') return res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'a'.repeat(1024) }));
    if (req.url === '/announce') { res.writeHead(200, { 'Content-Length': String(TOTAL) }); return res.write('{'); }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":1,"result":"');
    let sent = 0;
    res.on('close', () => process.stdout.write('sent ' + sent + '\\n'));
    const pump = () => {
      while (sent < TOTAL) { sent += chunk.length; if (!res.write(chunk)) return void res.once('drain', pump); }
      res.end('"}');
    };
    pump();
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write('port ' + this.address().port + '\\n'); });
`;

const MB = 2 ** 20;

// A collection before each run, so a run's peak is its own and not the garbage of the last one.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function startServer() {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sent: number[] = [];
  let onPort: (port: number) => void;
  const port = new Promise<number>((resolve) => (onPort = resolve));
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) {
      if (line.startsWith('port ')) onPort(Number(line.slice(5)));
      if (line.startsWith('sent ')) sent.push(Number(line.slice(5)));
    }
  });
  return { url: `http://127.0.0.1:${await port}`, sent, stop: () => child.kill() };
}

const endpoint = (url: string): ResolvedEndpoint => ({ httpUrl: url, wsUrl: url, headers: {}, auth: 'none', secrets: [] });

/** Runs `work` `times` times: median time, the largest peak RSS growth of one run, the outcome. */
async function measure(times: number, work: () => Promise<unknown>) {
  const ms: number[] = [];
  let growth = 0;
  let outcome: unknown;
  for (let i = 0; i < times; i++) {
    gc();
    const base = process.memoryUsage.rss();
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
    const started = performance.now();
    outcome = await work().catch((err: unknown) => err);
    ms.push(performance.now() - started);
    clearInterval(sampler);
    growth = Math.max(growth, Math.max(peak, process.memoryUsage.rss()) - base);
  }
  ms.sort((a, b) => a - b);
  return { ms: ms[Math.floor(ms.length / 2)], growthMB: growth / MB, outcome };
}

async function main() {
  const server = await startServer();
  try {
    const call = (path: string) => () => new RpcClient(endpoint(`${server.url}${path}`), { timeoutMs: 120_000 }).call('eth_blockNumber');
    const baseline = await measure(20, call('/small'));
    const rows: [string, Awaited<ReturnType<typeof measure>>, string][] = [];
    for (const cap of [64, 8]) {
      setResponseLimitMB(cap);
      server.sent.length = 0;
      const run = await measure(5, call('/stream'));
      await new Promise((r) => setTimeout(r, 200));
      const sentMB = Math.max(...server.sent) / MB;
      rows.push([`300 MB streamed, ${cap} MiB cap`, run, `${sentMB.toFixed(0)} MB`]);
    }
    setResponseLimitMB(64);
    rows.push(['300 MB announced (Content-Length)', await measure(5, call('/announce')), '1 byte']);

    console.log(`baseline: a 1 KB reply, median of 20: ${baseline.ms.toFixed(2)} ms, largest peak RSS growth of a run +${baseline.growthMB.toFixed(1)} MB`);
    console.log('\n| reply | refused | median time to refusal | × baseline | peak RSS growth (worst run) | server sent at most |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, run, sent] of rows) {
      const refused = run.outcome instanceof RpcFailure && run.outcome.kind === 'too-large';
      console.log(
        `| ${name} | ${refused ? 'yes' : `NO: ${String(run.outcome)}`} | ${run.ms.toFixed(1)} ms | ${(run.ms / baseline.ms).toFixed(0)}× | +${run.growthMB.toFixed(0)} MB | ${sent} |`,
      );
      if (!refused) process.exitCode = 1;
    }
  } finally {
    closeIdleConnections();
    server.stop();
  }
}

void main();
