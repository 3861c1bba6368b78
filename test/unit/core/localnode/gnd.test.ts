/**
 * The pure parts of the local graph-node, and the install paths that cannot run for real here:
 * the IPFS endpoint's CIDs (kubo's) and wire; gnd's install through the user's npm against a
 * loopback registry (a tarball whose digest is not the pinned one is refused); the release asset
 * each platform gets, from a loopback release server; the lock's cleanup of leftover processes;
 * finding Postgres; reading the index node's statuses.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { cachedGndPath, GND_VERSION, GndInstallError, installGnd, integrityOf, resolveGnd } from '../../../../src/core/localnode/gnd';
import { cidOfBytes, startIpfsEndpoint, type IpfsEndpoint } from '../../../../src/core/localnode/ipfs';
import { acquireLock, argumentsOf, cleanLeftovers, DataFolderBusy, isAlive, lockPath, processStart, readLock, writeLock, type ProcessControl } from '../../../../src/core/localnode/lock';
import { MARK_FILE } from '../../../../src/core/localnode/dataFolder';
import { findPostgres, removeStalePidFile } from '../../../../src/core/localnode/postgres';
import { fetchStatuses, parseStatuses, STATUSES_MAX_BYTES } from '../../../../src/core/localnode/status';
import { chainHead, LocalGraphNode } from '../../../../src/core/localnode/supervisor';
import { main } from '../../../../src/cli/main';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Served {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function serve(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void>): Promise<Served> {
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const route = routes[decodeURIComponent(req.url ?? '')];
    if (route) route(req, res, base);
    else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the IPFS endpoint', () => {
  let endpoint: IpfsEndpoint;
  let files: string;
  before(async () => {
    files = path.join(tmp, 'ipfs-files');
    endpoint = await startIpfsEndpoint({ blocksDir: path.join(tmp, 'ipfs-blocks'), filesDir: files });
  });
  after(() => endpoint.close());

  test('CIDs are kubo’s: `echo hello` and the empty folder', async () => {
    assert.equal(await cidOfBytes(Buffer.from('hello\n')), 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN');
    assert.equal(await cidOfBytes(new Uint8Array()), 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH');
  });

  test('add answers as kubo (the file first, then its folder) and writes the file under its CID: the bridge to gnd', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('hello\n')]), 'Token%2FToken.json');
    const res = await fetch(`${endpoint.url}/api/v0/add?stream-channels=true&progress=false`, { method: 'POST', body: form });
    assert.equal(res.status, 200);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { Name: string; Hash: string; Size: string });
    assert.deepEqual(lines[0], { Name: 'Token/Token.json', Hash: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN', Size: '14' });
    assert.equal(lines[1].Name, 'Token');
    assert.equal(readFileSync(path.join(files, 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'), 'utf8'), 'hello\n');
  });

  test('pin/add, cat, block/get, version and the gateway answer what graph deploy and graph-node ask', async () => {
    const post = (p: string) => fetch(`${endpoint.url}/api/v0/${p}`, { method: 'POST' });
    assert.deepEqual(await (await post('pin/add?recursive=true&stream=true&arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).json(), {
      Pins: ['QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN'],
    });
    assert.equal(await (await post('cat?arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).text(), 'hello\n');
    assert.equal(await (await post('cat?arg=/ipfs/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).text(), 'hello\n');
    const block = Buffer.from(await (await post('block/get?arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).arrayBuffer());
    assert.equal(block.length, 14);
    assert.equal((await post('version')).status, 200);
    assert.equal((await fetch(`${endpoint.url}/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn`, { method: 'HEAD' })).status, 200);
    assert.equal(await (await fetch(`${endpoint.url}/ipfs/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN`)).text(), 'hello\n');
    assert.equal((await post('cat?arg=QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH')).status, 404);
    assert.equal((await post('cat?arg=nonsense')).status, 400);
    assert.equal((await post('swarm/peers')).status, 404);
  });

  test('an add that declares more than the bound is refused (413) before its body is read', async () => {
    const { port } = new URL(endpoint.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/v0/add', headers: { 'content-type': 'multipart/form-data; boundary=zz', 'content-length': '999999999999' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('--zz\r\n');
    });
    assert.equal(status, 413);
  });

  test('malformed percent-encoding in a gateway path or an added file’s name is the client’s error (400)', async () => {
    const gateway = await fetch(`${endpoint.url}/ipfs/%E0%A4%A`);
    assert.equal(gateway.status, 400);
    assert.match(((await gateway.json()) as { Message: string }).Message, /^malformed percent-encoding/);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('x')]), 'a%ZZ');
    assert.equal((await fetch(`${endpoint.url}/api/v0/add`, { method: 'POST', body: form })).status, 400);
  });
});

describe('gnd through the user’s npm (a loopback registry)', () => {
  const NAME = '@graphprotocol/gnd-linux-x64';
  let registry: Served;
  let tarball: Buffer;
  const env = () => ({
    ...process.env,
    PATH: process.env.PATH,
    npm_config_registry: `${registry.url}/`,
    npm_config_cache: path.join(tmp, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  });

  before(async () => {
    const pkg = path.join(tmp, 'pkg', 'package');
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: NAME, version: GND_VERSION }));
    writeFileSync(path.join(pkg, 'bin', 'gnd'), '#!/bin/sh\necho gnd from the loopback registry\n');
    const { create } = await import('tar');
    const file = path.join(tmp, 'gnd.tgz');
    await create({ gzip: true, file, cwd: path.dirname(pkg), portable: true }, ['package']);
    tarball = readFileSync(file);
    registry = await serve({
      [`/${NAME}`]: (_req, res, base) => {
        const dist = { tarball: `${base}/gnd.tgz`, integrity: integrityOf(tarball) };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: NAME, 'dist-tags': { latest: GND_VERSION }, versions: { [GND_VERSION]: { name: NAME, version: GND_VERSION, dist } } }));
      },
      '/gnd.tgz': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(tarball);
      },
    });
  });
  after(() => registry.close());

  test('a tarball whose digest is not the pinned one is refused and nothing is installed', async () => {
    const cacheDir = path.join(tmp, 'cache-wrong');
    await assert.rejects(installGnd({ cacheDir, env: env(), platform: 'linux', arch: 'x64' }), (err: unknown) => {
      assert.ok(err instanceof GndInstallError);
      assert.match(err.message, /^The package @graphprotocol\/gnd-linux-x64@0\.45\.0 failed its integrity check \(expected sha512-SMmb5C6c.*, got sha512-.*\): it was not installed\./);
      return true;
    });
    assert.equal(existsSync(cachedGndPath(cacheDir, 'linux')), false);
    assert.ok(registry.requests.includes('GET /gnd.tgz'), 'the tarball was fetched through npm');
  });

  test('with its own digest pinned, bin/gnd is installed executable, then found in the cache', async () => {
    const cacheDir = path.join(tmp, 'cache-right');
    const pins = { 'linux-x64': { name: NAME, integrity: integrityOf(tarball) } };
    const phases: string[] = [];
    const installed = await installGnd({ cacheDir, env: env(), platform: 'linux', arch: 'x64', npmPackages: pins, onProgress: (p) => phases.push(p.phase) });
    assert.deepEqual(installed, { path: cachedGndPath(cacheDir, 'linux'), origin: 'npm' });
    assert.deepEqual(phases, ['download', 'verify', 'unpack']);
    assert.match(readFileSync(installed.path, 'utf8'), /loopback registry/);
    assert.equal(statSync(installed.path).mode & 0o111, 0o111);
    assert.deepEqual(await resolveGnd({ cacheDir, env: { PATH: '' }, platform: 'linux' }), { path: installed.path, origin: 'cache' });
  });

  test('the work folders of installs killed half-way are removed; one whose process runs is kept', async () => {
    const cacheDir = path.join(tmp, 'cache-abandoned');
    const dir = path.dirname(cachedGndPath(cacheDir, 'linux'));
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    for (const name of [`.install-${dead}-abc123`, `.install-${process.pid}-def456`, '.install-old789']) {
      mkdirSync(path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, 'gnd.tgz'), 'partial');
    }
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(path.join(dir, '.install-old789'), old, old);
    const pins = { 'linux-x64': { name: NAME, integrity: integrityOf(tarball) } };
    await installGnd({ cacheDir, env: env(), platform: 'linux', arch: 'x64', npmPackages: pins });
    assert.deepEqual(readdirSync(dir).sort(), [`.install-${process.pid}-def456`, 'gnd']);
  });

  test('a failed download says what to check', async () => {
    const cacheDir = path.join(tmp, 'cache-down');
    await assert.rejects(
      installGnd({ cacheDir, env: { ...env(), npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' }, platform: 'linux', arch: 'x64' }),
      /^Error: Downloading gnd \(@graphprotocol\/gnd-linux-x64@0\.45\.0\) through npm failed: .*Check that npm can reach your registry/,
    );
  });
});

describe('gnd from the graph-node release (a loopback release server)', () => {
  const binary = Buffer.from('#!/bin/sh\necho gnd from a release\n');
  const gz = gzipSync(binary);
  let releases: Served;
  before(async () => {
    const asset = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-length': String(gz.length) });
      res.end(gz);
    };
    releases = await serve({ [`/v${GND_VERSION}/gnd-macos-aarch64.gz`]: asset, [`/v${GND_VERSION}/gnd-macos-x86_64.gz`]: asset, [`/v${GND_VERSION}/gnd-linux-aarch64.gz`]: asset });
  });
  after(() => releases.close());

  const pinned = {
    'darwin-arm64': { asset: 'gnd-macos-aarch64.gz', integrity: integrityOf(gz) },
    'darwin-x64': { asset: 'gnd-macos-x86_64.gz', integrity: 'sha512-wrong' },
    'win32-x64': { asset: 'gnd-windows-x86_64.exe.zip', integrity: 'sha512-wrong' },
  };

  test('each platform asks for the asset graph-cli names: macOS arm64 installed, unpacked and executable', async () => {
    const cacheDir = path.join(tmp, 'release-ok');
    const progress: string[] = [];
    const installed = await installGnd({ cacheDir, platform: 'darwin', arch: 'arm64', releaseBase: releases.url, releaseAssets: pinned, onProgress: (p) => progress.push(p.phase) });
    assert.deepEqual(installed, { path: cachedGndPath(cacheDir, 'darwin'), origin: 'release' });
    assert.deepEqual(readFileSync(installed.path), binary);
    assert.equal(progress.at(-1), 'unpack');
    assert.ok(releases.requests.includes(`GET /v${GND_VERSION}/gnd-macos-aarch64.gz`));
  });

  test('a download that is not the pinned one is refused (macOS x64, Windows)', async () => {
    await assert.rejects(
      installGnd({ cacheDir: path.join(tmp, 'release-bad'), platform: 'darwin', arch: 'x64', releaseBase: releases.url, releaseAssets: pinned }),
      /failed its integrity check/,
    );
    assert.equal(existsSync(cachedGndPath(path.join(tmp, 'release-bad'), 'darwin')), false);
    await assert.rejects(installGnd({ cacheDir: path.join(tmp, 'release-win'), platform: 'win32', arch: 'x64', releaseBase: releases.url, releaseAssets: pinned }), /HTTP 404/);
    assert.ok(releases.requests.includes(`GET /v${GND_VERSION}/gnd-windows-x86_64.exe.zip`));
  });

  test('an asset without a verified digest is not downloaded; a platform without gnd says so', async () => {
    const before = releases.requests.length;
    await assert.rejects(
      installGnd({ cacheDir: path.join(tmp, 'release-unpinned'), platform: 'linux', arch: 'arm64', releaseBase: releases.url }),
      /gnd 0\.45\.0 for this platform \(gnd-linux-aarch64\.gz\) has no verified digest .*graph node install --tag v0\.45\.0/,
    );
    assert.equal(releases.requests.length, before);
    await assert.rejects(installGnd({ cacheDir: path.join(tmp, 'release-none'), platform: 'freebsd', arch: 'x64' }), /^Error: There is no gnd 0\.45\.0 for freebsd x64/);
  });

  test('the user’s gnd is used as is: a given path, else gnd on PATH', async () => {
    const bin = path.join(tmp, 'user-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'gnd'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'gnd'), 0o755);
    assert.deepEqual(await resolveGnd({ cacheDir: tmp, gndPath: path.join(bin, 'gnd') }), { path: path.join(bin, 'gnd'), origin: 'given' });
    assert.deepEqual(await resolveGnd({ cacheDir: tmp, env: { PATH: bin } }), { path: path.join(bin, 'gnd'), origin: 'path' });
    await assert.rejects(resolveGnd({ cacheDir: tmp, gndPath: path.join(bin, 'nothing') }), /gnd was not found at .*nothing/);
  });
});

describe('the lock: leftovers of a killed supervisor', () => {
  /** A real process whose command line names `dir`, as gnd's and Postgres's name the data folder. */
  function sleeper(dir: string) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', dir], { stdio: 'ignore' });
    return { pid: child.pid!, exited: new Promise<void>((resolve) => child.once('exit', () => resolve())), kill: () => child.kill('SIGKILL') };
  }
  const control = (stopped: number[]): ProcessControl => ({
    isAlive,
    argumentsOf,
    processStart,
    async stop(p) {
      stopped.push(p.pid);
      process.kill(p.pid, 'SIGKILL');
      while (isAlive(p.pid)) await new Promise((r) => setTimeout(r, 20));
    },
  });

  test('processes of the folder whose supervisor is gone are stopped (gnd first), others are left alone, the lock removed', async () => {
    const dir = mkdtempSync(path.join(tmp, 'lock-'));
    const [gnd, postgres, stranger] = [sleeper(dir), sleeper(dir), sleeper(path.join(tmp, 'elsewhere'))];
    try {
      const gone = sleeper(dir);
      gone.kill();
      await gone.exited;
      writeLock(dir, {
        owner: gone.pid,
        started: new Date().toISOString(),
        processes: [
          { role: 'postgres', pid: postgres.pid },
          { role: 'gnd', pid: gnd.pid },
          { role: 'gnd', pid: stranger.pid },
        ],
      });
      const stopped: number[] = [];
      const result = await cleanLeftovers(dir, control(stopped));
      assert.deepEqual(stopped, [gnd.pid, postgres.pid]);
      assert.deepEqual(
        result.map((p) => p.role),
        ['gnd', 'postgres'],
      );
      assert.equal(isAlive(stranger.pid), true, 'a pid that no longer names the folder is not touched');
      assert.equal(readLock(dir), undefined);
      assert.deepEqual(await cleanLeftovers(dir, control([])), [], 'no lock, nothing to do');
    } finally {
      for (const p of [gnd, postgres, stranger]) p.kill();
    }
  });

  test('a folder whose supervisor still runs is refused', async () => {
    const dir = mkdtempSync(path.join(tmp, 'busy-'));
    const [owner, gnd] = [sleeper(dir), sleeper(dir)];
    try {
      writeLock(dir, { owner: owner.pid, started: new Date().toISOString(), processes: [{ role: 'gnd', pid: gnd.pid }] });
      await assert.rejects(
        cleanLeftovers(dir, control([])),
        (err: unknown) => err instanceof DataFolderBusy && err.message.startsWith(`A local graph-node already runs from ${dir} (supervised by process ${owner.pid})`),
      );
      assert.equal(isAlive(gnd.pid), true);
    } finally {
      owner.kill();
      gnd.kill();
    }
  });

  test('two starts on the same new folder: the lock is taken by exactly one, the other is refused before it starts anything', async () => {
    const dir = mkdtempSync(path.join(tmp, 'race-'));
    const other = sleeper(dir);
    try {
      const results = await Promise.allSettled([acquireLock(dir, control([])), acquireLock(dir, control([]), other.pid)]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected'],
      );
      const refused = (results[1] as PromiseRejectedResult).reason as Error;
      assert.ok(refused instanceof DataFolderBusy, String(refused));
      assert.match(refused.message, new RegExp(`^A local graph-node already runs from ${dir} \\(supervised by process ${process.pid}\\)`));
      assert.deepEqual(readLock(dir), { ...(results[0] as PromiseFulfilledResult<{ record: object }>).value.record });
      assert.equal(readLock(dir)?.ownerSince, processStart(process.pid));
    } finally {
      other.kill();
    }
  });

  test('a lock whose owner pid now belongs to another program is a leftover, not a running node', async () => {
    const dir = mkdtempSync(path.join(tmp, 'reused-'));
    const stranger = sleeper(path.join(tmp, 'elsewhere'));
    try {
      writeLock(dir, { owner: stranger.pid, ownerSince: '1', started: new Date().toISOString(), processes: [] });
      const { record } = await acquireLock(dir, control([]));
      assert.equal(record.owner, process.pid);
      assert.equal(readLock(dir)?.owner, process.pid);
    } finally {
      stranger.kill();
    }
  });

  test('a process is ours only by exact identity: a folder whose name starts the same, or the same pid started again, is not', async () => {
    const dir = mkdtempSync(path.join(tmp, 'gn-'));
    const [sibling, restarted] = [sleeper(`${dir}1`), sleeper(dir)];
    try {
      const gone = sleeper(dir);
      gone.kill();
      await gone.exited;
      writeLock(dir, {
        owner: gone.pid,
        started: new Date().toISOString(),
        processes: [
          { role: 'postgres', pid: sibling.pid, since: processStart(sibling.pid) },
          { role: 'gnd', pid: restarted.pid, since: String(Number(processStart(restarted.pid)) - 1) },
        ],
      });
      const stopped: number[] = [];
      assert.deepEqual(await cleanLeftovers(dir, control(stopped)), []);
      assert.deepEqual(stopped, [], 'nothing of another folder, nor a pid started after the lock named it, is stopped');
      assert.ok(isAlive(sibling.pid) && isAlive(restarted.pid));
    } finally {
      sibling.kill();
      restarted.kill();
    }
  });

  test('the lock holds pids, roles and start times, never a command line; only its user reads it', async () => {
    const dir = mkdtempSync(path.join(tmp, 'private-'));
    const { record } = await acquireLock(dir, control([]));
    const text = readFileSync(lockPath(dir), 'utf8');
    assert.deepEqual(Object.keys(JSON.parse(text) as object).sort(), ['owner', 'ownerSince', 'processes', 'started']);
    assert.ok(!text.includes(process.argv[1]) && !text.includes(process.execPath), text);
    assert.equal(statSync(lockPath(dir)).mode & 0o777, 0o600);
    assert.equal(record.owner, process.pid);
  });

  test('a second start on a folder whose node runs is refused and leaves that node’s lock in place', async () => {
    const dir = mkdtempSync(path.join(tmp, 'second-'));
    writeFileSync(path.join(dir, MARK_FILE), '{}');
    const [owner, gnd] = [sleeper(dir), sleeper(dir)];
    try {
      writeLock(dir, { owner: owner.pid, started: new Date().toISOString(), processes: [{ role: 'gnd', pid: gnd.pid }] });
      const node = new LocalGraphNode({ rpcUrl: 'http://127.0.0.1:1', dataDir: dir, cacheDir: path.join(tmp, 'cache'), postgresDirs: [], env: { PATH: '' } });
      await assert.rejects(node.start(), DataFolderBusy);
      assert.equal(readLock(dir)?.owner, owner.pid);
      assert.equal(isAlive(gnd.pid), true);
    } finally {
      owner.kill();
      gnd.kill();
    }
  });
});

test('a data folder that is a file is refused saying so, and the file is left as it was', async () => {
  const file = path.join(tmp, 'not-a-folder');
  writeFileSync(file, 'mine');
  const node = new LocalGraphNode({ rpcUrl: 'http://127.0.0.1:1', dataDir: file, cacheDir: path.join(tmp, 'cache'), postgresDirs: [], env: { PATH: '' } });
  await assert.rejects(node.start(), { message: `The data folder ${file} is not a folder: choose a folder (a missing one is created).` });
  assert.equal(readFileSync(file, 'utf8'), 'mine');
  assert.equal(node.state.kind, 'failed');
});

test('the chain head of an RPC URL with user:password is asked with HTTP Basic, the password never printed', async () => {
  const rpc = await serve({
    '/v1': (req, res) => {
      res.writeHead(req.headers.authorization === `Basic ${Buffer.from('me:p@ss').toString('base64')}` ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2a' }));
    },
  });
  try {
    const withCredentials = rpc.url.replace('http://', 'http://me:p%40ss@');
    assert.equal(await chainHead(`${withCredentials}/v1`), 42);
    await assert.rejects(
      chainHead(`${withCredentials.replace('p%40ss', 'wrong')}/v2`),
      (err: Error) => err.message.startsWith('The chain at the RPC URL did not answer eth_blockNumber') && !err.message.includes('wrong'),
    );
  } finally {
    await rpc.close();
  }
});

test('Postgres is looked for on PATH, then in the usual folders; none: undefined', () => {
  assert.equal(findPostgres({ PATH: '' }, []), undefined);
  const bin = path.join(tmp, 'pg-bin');
  mkdirSync(bin, { recursive: true });
  for (const name of ['initdb', 'pg_ctl', 'createdb']) writeFileSync(path.join(bin, name), '');
  assert.deepEqual(findPostgres({ PATH: '' }, [bin]), { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl'), createdb: path.join(bin, 'createdb') });
  assert.equal(findPostgres({ PATH: bin }, [])?.pgCtl, path.join(bin, 'pg_ctl'));
});

test('index-node statuses: chain head, indexed block, synced, health, a fatal error with handler and block', () => {
  const statuses = parseStatuses({
    data: {
      indexingStatuses: [
        {
          subgraph: 'QmA',
          synced: true,
          health: 'healthy',
          entityCount: '5',
          fatalError: null,
          chains: [{ network: 'mainnet', chainHeadBlock: { number: '12' }, latestBlock: { number: '12' } }],
        },
        {
          subgraph: 'QmB',
          synced: false,
          health: 'failed',
          entityCount: '0',
          fatalError: { message: 'boom', handler: 'handleTransfer', deterministic: true, block: { number: '7' } },
          chains: [{ network: 'mainnet', chainHeadBlock: { number: '12' }, latestBlock: { number: '6' } }],
        },
      ],
    },
  });
  assert.deepEqual(statuses, [
    { deployment: 'QmA', synced: true, health: 'healthy', network: 'mainnet', chainHead: 12, indexed: 12, entityCount: 5, fatalError: undefined },
    {
      deployment: 'QmB',
      synced: false,
      health: 'failed',
      network: 'mainnet',
      chainHead: 12,
      indexed: 6,
      entityCount: 0,
      fatalError: { message: 'boom', handler: 'handleTransfer', block: 7, deterministic: true },
    },
  ]);
  assert.throws(() => parseStatuses({ errors: [{ message: 'no' }] }), /the index node answered no statuses: no/);
});

test('the statuses are read bounded: an endless body is cut at the cap, a silent port at the timeout', async () => {
  let endless = true;
  const server = http.createServer((_req, res) => {
    if (!endless) return; // never answers
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  try {
    await assert.rejects(fetchStatuses(url), (err: Error) => err.message.includes(`larger than the ${STATUSES_MAX_BYTES / 1024 / 1024} MiB response cap`));
    endless = false;
    const began = Date.now();
    await assert.rejects(fetchStatuses(url), /5000 ms|5 s/);
    assert.ok(Date.now() - began < 8000, 'bounded by its timeout');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('chaindeck graph-node: usage errors (exit 2) before anything starts', () => {
  const io = () => {
    const seen = { out: '', err: '' };
    return { seen, io: { out: (t: string) => void (seen.out += t), err: (t: string) => void (seen.err += t), env: {} } };
  };
  for (const [args, message] of [
    [['graph-node'], 'name the action: start'],
    [['graph-node', 'stop'], "unknown action 'stop': the action is start"],
    [['graph-node', 'start'], '--rpc URL is required: the JSON-RPC URL of the chain to index'],
    [['graph-node', 'start', '--rpc', 'ws://127.0.0.1:8545'], "--rpc takes an http or https URL, not 'ws://127.0.0.1:8545'"],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--network', 'main net'], "--network takes a network name such as mainnet, not 'main net'"],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--http-port', '70000'], "--http-port takes a port number from 1 to 65535, not '70000'"],
    [['graph-node', 'start', '--rpc', '127.0.0.1:8545/k3ySecret'], "--rpc takes an http or https URL, not '127.0.0.1:8545/***'"],
    [['graph-node', 'start', '--rpc', 'ftp://node.example/k3ySecret?token=t0kSecret'], "--rpc takes an http or https URL, not 'ftp://node.example/***?***'"],
    [['graph-node', 'start', '--rpc', 'http://me:pa55Secret@127.0.0.1:8545/'], 'put the username in --user and the password in the environment variable CHAINDECK_PASSWORD, not in the URL'],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--http-port', '18000', '--admin-port', '18000'], 'port 18000 is given twice: pick a different port for each'],
    [['graph-node', 'start', '--rpc', 'http://127.0.0.1:8545', '--data', ''], "--data takes a folder, not ''"],
  ] as const) {
    test(args.join(' '), async () => {
      const { seen, io: cliIo } = io();
      assert.equal(await main([...args], cliIo), 2);
      assert.equal(seen.out, '');
      assert.ok(seen.err.startsWith(`chaindeck graph-node: ${message}\n\nUsage: chaindeck graph-node start --rpc URL`), seen.err);
      for (const secret of ['k3ySecret', 't0kSecret', 'pa55Secret']) assert.ok(!seen.err.includes(secret), seen.err);
    });
  }
});

test('a postmaster.pid whose postmaster is gone is removed before Postgres starts; a live one is kept', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-pidfile-'));
  try {
    const file = path.join(dir, 'postmaster.pid');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(file, `${gone}\n${dir}\n`);
    removeStalePidFile(dir);
    assert.equal(existsSync(file), false, 'the stale pid file is still there');
    writeFileSync(file, `${process.pid}\n${dir}\n`);
    removeStalePidFile(dir);
    assert.equal(existsSync(file), false, 'a pid now of a program that does not run on the folder is stale');
    const postmaster = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '-D', dir], { stdio: 'ignore' });
    writeFileSync(file, `${postmaster.pid}\n${dir}\n`);
    removeStalePidFile(dir);
    postmaster.kill('SIGKILL');
    assert.equal(existsSync(file), true, 'the pid file of a running postmaster was removed');
    removeStalePidFile(path.join(dir, 'none')); // no data folder: nothing to do
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
