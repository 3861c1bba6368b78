/**
 * Installing gnd where it cannot run for real here: through the user's npm against a loopback
 * registry (a tarball whose digest is not the pinned one is refused), and the release asset each
 * platform gets, from a loopback release server.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { cachedGndPath, GND_VERSION, GndInstallError, installGnd, integrityOf, resolveGnd } from '../../../../src/core/localnode/gnd';
import { serve, type Served } from '../../../support/httpRoutes';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

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
