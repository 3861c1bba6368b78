/**
 * Stand-ins for gnd and Postgres's programs (small node scripts) so the unit layer can drive the
 * local graph-node's supervisor in seconds; the real programs run in test/integration.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LocalNodeOptions } from '../../src/core/localnode/supervisor';

/**
 * The stand-in gnd: serves the index node, GraphQL and admin ports (or, by STANDIN, panics, stays
 * silent, exits once ready, echoes its endpoints); exits when the Postgres port of POSTGRES_URL stops
 * accepting (as gnd does when its database goes; not with STANDIN_DEAF_TO_POSTGRES), and on
 * SIGINT with status 134 (as gnd does; after STANDIN_STOP_MS; noting it in STANDIN_SIGINT_FILE).
 */
const GND = `
const http = require('http'), net = require('net');
const arg = (name) => Number(process.argv[process.argv.indexOf(name) + 1]);
const mode = process.env.STANDIN || 'serve';
const rpc = (process.env.ETHEREUM_RPC || '').replace(/^[^:]+:/, '');
console.log('Nov 28 17:52:16.339 INFO Starting Graph Node Dev');
if (mode === 'echo') {
  const u = new URL(rpc);
  const basic = Buffer.from(decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password)).toString('base64');
  console.log('Nov 28 17:52:16.340 INFO Creating transport, url: ' + u.host + u.pathname + u.search + ', auth: Basic ' + basic + ', user: ' + decodeURIComponent(u.username));
  console.log('Nov 28 17:52:16.341 INFO Connecting to Postgres, url: ' + process.env.POSTGRES_URL);
}
if (mode === 'panic') {
  console.error("thread 'tokio-rt-worker' (18838) panicked at store/postgres/src/pool/foreign_server.rs:63:23:");
  console.error('failed to parse Postgres connection string \`garbage\`: invalid connection string');
  console.error('stack backtrace:');
  for (let i = 0; i < 5; i++) console.error('   ' + i + ': graph_store_postgres::frame' + i);
  setInterval(() => {}, 1000);
  return;
}
if (mode === 'silent') { setInterval(() => {}, 1000); return; }
// exit:N ends STANDIN_AFTER ms after the admin port (the supervisor's last readiness probe) first answered: a ready node, however slow the machine.
let ending;
for (const port of [arg('--http-port'), arg('--admin-port'), arg('--index-node-port')])
  http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"indexingStatuses":[]}}');
    if (port === arg('--admin-port') && mode.startsWith('exit:') && !ending)
      ending = setTimeout(() => { console.error('Error: the stand-in ends by itself'); process.exit(Number(mode.slice(5))); }, Number(process.env.STANDIN_AFTER || 300));
  }).listen(port, '0.0.0.0');
const pg = process.env.POSTGRES_URL ? new URL(process.env.POSTGRES_URL) : undefined;
if (pg && !process.env.STANDIN_DEAF_TO_POSTGRES) setInterval(() => {
  const s = net.connect(Number(pg.port), pg.hostname);
  s.once('connect', () => s.destroy());
  s.once('error', () => { console.log('Nov 28 17:52:17.000 ERRO Postgres connection lost'); process.exit(1); });
}, 50);
process.on('SIGINT', () => {
  if (process.env.STANDIN_SIGINT_FILE) require('fs').writeFileSync(process.env.STANDIN_SIGINT_FILE, 'SIGINT');
  setTimeout(() => process.exit(134), Number(process.env.STANDIN_STOP_MS || 0));
});
`;

/** The stand-in postmaster: listens on its -p port, writes postmaster.pid into its -D folder, ends on SIGINT. */
const POSTMASTER = `
const fs = require('fs'), net = require('net'), path = require('path');
const dir = process.argv[process.argv.indexOf('-D') + 1];
const port = Number(/-p (\\d+)/.exec(process.argv.join(' '))[1]);
net.createServer((s) => s.end()).listen(port, '127.0.0.1', () => fs.writeFileSync(path.join(dir, 'postmaster.pid'), process.pid + '\\n' + dir + '\\n'));
process.on('SIGINT', () => { fs.rmSync(path.join(dir, 'postmaster.pid'), { force: true }); process.exit(0); });
`;

/** pg_ctl: `start` starts the postmaster detached and waits for its pid file; `stop` sends it SIGINT and waits for its end. */
const PG_CTL = `
const fs = require('fs'), path = require('path'), { spawn } = require('child_process');
const argv = process.argv.slice(2);
const dir = argv[argv.indexOf('-D') + 1];
const pidFile = path.join(dir, 'postmaster.pid');
const wait = (done) => { const t = setInterval(() => { if (done()) { clearInterval(t); process.exit(0); } }, 20); };
if (argv.includes('start')) {
  spawn(process.execPath, [${JSON.stringify(path.join('BIN', 'postmaster.js'))}.replace('BIN', __dirname), '-D', dir, argv[argv.indexOf('-o') + 1]], { detached: true, stdio: 'ignore' }).unref();
  wait(() => fs.existsSync(pidFile));
} else {
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\\n')[0]);
  try { process.kill(pid, 'SIGINT'); } catch {}
  wait(() => { try { process.kill(pid, 0); return false; } catch { return true; } });
}
`;

function script(file: string, body: string): string {
  writeFileSync(file, `#!${process.execPath}\n${body}`);
  chmodSync(file, 0o755);
  return file;
}

export interface Standins {
  /** The stand-in gnd program. */
  gnd: string;
  /** The folder of the stand-in initdb, createdb and pg_ctl (for `postgresDirs`). */
  pgBin: string;
}

/** Writes the stand-ins into `dir` (which, as root, must be traversable for the postgres user). */
export function writeStandins(dir: string): Standins {
  const gnd = script(path.join(dir, 'gnd'), GND);
  const pgBin = path.join(dir, 'pgbin');
  mkdirSync(pgBin);
  chmodSync(pgBin, 0o755);
  script(path.join(pgBin, 'initdb'), `require('fs').writeFileSync(require('path').join(process.argv[process.argv.indexOf('-D') + 1], 'PG_VERSION'), '15\\n');`);
  script(path.join(pgBin, 'createdb'), '');
  script(path.join(pgBin, 'postmaster.js'), POSTMASTER);
  script(path.join(pgBin, 'pg_ctl'), PG_CTL);
  return { gnd, pgBin };
}

/** A supervisor's options on the stand-ins: only they are found (PATH is empty); `standin` picks gnd's behaviour. */
export function standinOptions(standins: Standins, rpcUrl: string, cacheDir: string, standin = 'serve'): LocalNodeOptions {
  return {
    rpcUrl,
    cacheDir,
    gndPath: standins.gnd,
    postgresDirs: [standins.pgBin],
    env: { PATH: '', STANDIN: standin, STANDIN_AFTER: '300' },
    readyTimeoutMs: 20_000,
  };
}
