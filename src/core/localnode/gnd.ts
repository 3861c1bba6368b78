/**
 * gnd, graph-node's single binary, at one pinned version: the user's own (a path they give, or
 * `gnd` on PATH, used as is), or installed on demand into a cache folder the caller names,
 * never shipped with Chaindeck. Where npm has a package for the platform, its tarball is fetched
 * through the user's own npm (their registry, proxy and credentials) and checked against the
 * digest pinned here; elsewhere the graph-node release asset that graph-cli's
 * `graph node install` downloads, checked the same way.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { GND_VERSION } from './gndVersion';
import { isAlive } from './lock';

export { GND_BINDS_ALL_INTERFACES, GND_VERSION } from './gndVersion';

/** The npm package of each platform that has one, with its tarball's digest (npm's dist.integrity). */
export const GND_NPM_PACKAGES: Readonly<Record<string, { name: string; integrity: string }>> = {
  'linux-x64': { name: '@graphprotocol/gnd-linux-x64', integrity: 'sha512-SMmb5C6cvTjPwH7uiEivajZXQMrzpnA9n/Ty0OYymhHn1gu6plih9IAtU21mMG/Ih80UmCKpCFBx7RG2JuP1Dg==' },
};

/** Where graph-cli's `graph node install` downloads graph-node's releases from. */
export const GND_RELEASE_BASE = 'https://github.com/graphprotocol/graph-node/releases/download';

/**
 * The release asset of each other platform (the names graph-cli's `graph node install` uses) and
 * its digest once it has been verified; an asset without one is never installed.
 */
export const GND_RELEASE_ASSETS: Readonly<Record<string, { asset: string; integrity?: string }>> = {
  'linux-arm64': { asset: 'gnd-linux-aarch64.gz' },
  'darwin-x64': { asset: 'gnd-macos-x86_64.gz' },
  'darwin-arm64': { asset: 'gnd-macos-aarch64.gz' },
  'win32-x64': { asset: 'gnd-windows-x86_64.exe.zip' },
};

/** A gnd that cannot be had: the message says what to do instead. */
export class GndInstallError extends Error {}

export type InstallProgress = { phase: 'download'; received: number; total?: number } | { phase: 'verify' } | { phase: 'unpack' };

export interface GndSource {
  /** A gnd the user named (a setting, a flag): used as is. */
  gndPath?: string;
  /** The folder gnd is installed into (the extension's global storage, or the CLI's user cache). */
  cacheDir: string;
  /** For PATH and for npm. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** The npm command (default `npm`, `npm.cmd` on Windows). */
  npm?: string;
  /** Where release assets are fetched from (default GND_RELEASE_BASE). */
  releaseBase?: string;
  /** The pins to check against (default: this file's). */
  npmPackages?: typeof GND_NPM_PACKAGES;
  releaseAssets?: typeof GND_RELEASE_ASSETS;
  signal?: AbortSignal;
  onProgress?(progress: InstallProgress): void;
}

export interface ResolvedGnd {
  path: string;
  /** Where it came from: the user's path, PATH, the cache, or installed now (npm or release). */
  origin: 'given' | 'path' | 'cache' | 'npm' | 'release';
}

const exe = (platform: NodeJS.Platform) => (platform === 'win32' ? 'gnd.exe' : 'gnd');

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `gnd` on PATH, if any. */
export function gndOnPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const candidate = path.join(dir, exe(platform));
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Where the pinned gnd lives inside the cache folder. */
export function cachedGndPath(cacheDir: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(cacheDir, 'gnd', GND_VERSION, exe(platform));
}

/** The sha512 digest of bytes, written as npm writes integrity. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

function checkIntegrity(bytes: Uint8Array, expected: string, what: string): void {
  const actual = integrityOf(bytes);
  if (actual !== expected) {
    throw new GndInstallError(
      `${what} failed its integrity check (expected ${expected}, got ${actual}): it was not installed. Try again; if it persists, your registry or a proxy serves a different file.`,
    );
  }
}

/** The gnd to run: the user's, else the cached pinned one, else installed now. */
export async function resolveGnd(source: GndSource): Promise<ResolvedGnd> {
  const platform = source.platform ?? process.platform;
  if (source.gndPath) {
    if (!isExecutableFile(source.gndPath))
      throw new GndInstallError(`gnd was not found at ${source.gndPath} (or is not executable): give the path of the gnd binary, or leave it unset to have gnd ${GND_VERSION} installed.`);
    return { path: source.gndPath, origin: 'given' };
  }
  const onPath = gndOnPath(source.env ?? process.env, platform);
  if (onPath) return { path: onPath, origin: 'path' };
  const cached = cachedGndPath(source.cacheDir, platform);
  if (isExecutableFile(cached)) return { path: cached, origin: 'cache' };
  return installGnd(source);
}

/** Installs the pinned gnd into the cache folder (replacing nothing until it is complete and verified). */
export async function installGnd(source: GndSource): Promise<ResolvedGnd> {
  const platform = source.platform ?? process.platform;
  const arch = source.arch ?? process.arch;
  const key = `${platform}-${arch}`;
  const target = cachedGndPath(source.cacheDir, platform);
  await mkdir(path.dirname(target), { recursive: true });
  await removeAbandonedInstalls(path.dirname(target));
  // Named by this process: an install killed half-way is told from one that runs.
  const work = await mkdtemp(path.join(path.dirname(target), `.install-${process.pid}-`));
  try {
    const npmPackage = (source.npmPackages ?? GND_NPM_PACKAGES)[key];
    const release = (source.releaseAssets ?? GND_RELEASE_ASSETS)[key];
    let binary: Uint8Array;
    let origin: ResolvedGnd['origin'];
    if (npmPackage) {
      binary = await fromNpm(npmPackage, work, source);
      origin = 'npm';
    } else if (release) {
      binary = await fromRelease(release, work, source, platform);
      origin = 'release';
    } else {
      throw new GndInstallError(
        `There is no gnd ${GND_VERSION} for ${platform} ${arch} (graph-node publishes it for Linux, macOS and Windows on x64, and macOS and Linux on arm64). Build graph-node's gnd yourself and give its path.`,
      );
    }
    const staged = path.join(work, exe(platform));
    await writeFile(staged, binary);
    await chmod(staged, 0o755);
    await rename(staged, target);
    return { path: target, origin };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** How old an unnamed install folder (of an earlier version) must be to count as abandoned. */
const UNNAMED_INSTALL_AGE_MS = 60 * 60 * 1000;

/** Removes the work folders of installs killed half-way (a download is tens of MB): their process is gone. */
async function removeAbandonedInstalls(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith('.install-')) continue;
    const owner = /^\.install-(\d+)-/.exec(name)?.[1];
    const folder = path.join(dir, name);
    const age = Date.now() - ((await stat(folder).catch(() => undefined))?.mtimeMs ?? Date.now());
    const abandoned = owner !== undefined ? !isAlive(Number(owner)) : age > UNNAMED_INSTALL_AGE_MS;
    if (abandoned) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The package's tarball, fetched by the user's npm, verified, and its bin/gnd taken out. */
async function fromNpm(pkg: { name: string; integrity: string }, work: string, source: GndSource): Promise<Uint8Array> {
  const spec = `${pkg.name}@${GND_VERSION}`;
  const npm = source.npm ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');
  source.onProgress?.({ phase: 'download', received: 0 });
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(npm, ['pack', spec, '--pack-destination', work, '--json', '--silent'], {
      env: source.env ?? process.env,
      cwd: work,
      signal: source.signal,
      maxBuffer: 16 * 1024 * 1024,
      shell: process.platform === 'win32',
    }));
  } catch (err) {
    if (source.signal?.aborted) throw err;
    const detail = err instanceof Error ? ((err as { stderr?: string }).stderr || err.message).trim().split('\n').slice(-3).join(' ') : String(err);
    throw new GndInstallError(`Downloading gnd (${spec}) through npm failed: ${detail}. Check that npm can reach your registry (npm ping), then try again.`);
  }
  const packed = (JSON.parse(stdout) as { filename?: string }[])[0]?.filename;
  const tarball = packed ? path.join(work, packed.replace(/^@/, '').replace(/\//g, '-')) : undefined;
  if (!tarball || !existsSync(tarball)) throw new GndInstallError(`npm pack ${spec} did not leave a tarball in ${work}.`);
  source.onProgress?.({ phase: 'verify' });
  checkIntegrity(await readFile(tarball), pkg.integrity, `The package ${spec}`);
  source.onProgress?.({ phase: 'unpack' });
  const { extract } = await import('tar');
  const unpacked = path.join(work, 'unpacked');
  await mkdir(unpacked);
  await extract({ file: tarball, cwd: unpacked, filter: (p) => p === 'package/bin/gnd' || p === 'package/bin/gnd.exe' });
  const bin = [path.join(unpacked, 'package/bin/gnd'), path.join(unpacked, 'package/bin/gnd.exe')].find((p) => existsSync(p));
  if (!bin) throw new GndInstallError(`The package ${spec} holds no bin/gnd.`);
  return readFile(bin);
}

/** The release asset, downloaded, verified against its pin, and unpacked (gzip, or a zip with gnd.exe). */
async function fromRelease(release: { asset: string; integrity?: string }, work: string, source: GndSource, platform: NodeJS.Platform): Promise<Uint8Array> {
  const url = `${(source.releaseBase ?? GND_RELEASE_BASE).replace(/\/+$/, '')}/v${GND_VERSION}/${release.asset}`;
  if (!release.integrity) {
    throw new GndInstallError(
      `gnd ${GND_VERSION} for this platform (${release.asset}) has no verified digest in this version of Chaindeck, so it is not downloaded. Install it with \`graph node install --tag v${GND_VERSION}\` (graph-cli) and give its path, or put it on PATH.`,
    );
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: source.signal, redirect: 'follow' });
  } catch (err) {
    if (source.signal?.aborted) throw err;
    throw new GndInstallError(
      `Downloading gnd from ${url} failed: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}. Check your connection (and proxy), then try again.`,
    );
  }
  if (!response.ok || !response.body) throw new GndInstallError(`Downloading gnd from ${url} failed: HTTP ${response.status}. Try again later, or install gnd yourself and give its path.`);
  const total = Number(response.headers.get('content-length')) || undefined;
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    received += chunk.length;
    source.onProgress?.({ phase: 'download', received, total });
  }
  const bytes = Buffer.concat(chunks);
  source.onProgress?.({ phase: 'verify' });
  checkIntegrity(bytes, release.integrity, `The download ${url}`);
  source.onProgress?.({ phase: 'unpack' });
  if (release.asset.endsWith('.gz')) return gunzipSync(bytes);
  if (release.asset.endsWith('.zip')) return unzipOne(bytes, exe(platform), work);
  throw new GndInstallError(`${release.asset}: unknown archive kind.`);
}

/** The executable inside a zip asset (Windows), unpacked by the system's own bsdtar (`tar`, in Windows 10 and later). */
async function unzipOne(bytes: Buffer, name: string, work: string): Promise<Uint8Array> {
  const zip = path.join(work, 'asset.zip');
  await writeFile(zip, bytes);
  const out = path.join(work, 'unzipped');
  await mkdir(out);
  try {
    await promisify(execFile)('tar', ['-xf', zip, '-C', out]);
  } catch (err) {
    throw new GndInstallError(`Unpacking ${zip} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const found = (await readdir(out, { recursive: true })).map(String).find((f) => path.basename(f) === name || f.toLowerCase().endsWith('.exe'));
  if (!found) throw new GndInstallError(`The archive holds no ${name}.`);
  return readFile(path.join(out, found));
}
