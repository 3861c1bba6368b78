/**
 * The quick rebuild when only a mapping changed: each AssemblyScript mapping compiled by the
 * project's own `asc`, with the arguments graph-cli's build gives it (explicit start, exported
 * runtime, the stub runtime, graph-ts's global.ts, every node_modules above as a library), into
 * the wasm files build/subgraph.yaml already names. Without `--optimize`: binaryen's optimiser
 * is most of the compile's time, and a debug replay does not need it (same code, larger file).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { findAscBin } from '../../subgraph/graphcli/toolchain';

const COMPILE_TIMEOUT_MS = 120_000;

/** A compile that failed: `output` is what asc printed (its errors name file, line and column). */
export class CompileError extends Error {
  constructor(readonly output: string) {
    super(
      `The mapping did not compile: ${
        output
          .split('\n')
          .find((l) => /ERROR/.test(l))
          ?.trim() ??
        output.trim().split('\n')[0] ??
        'asc failed'
      }`,
    );
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Pairs of (mapping source relative to the project, wasm relative to build/), by data source and template order. */
export function mappingTargets(sourceManifest: string, builtManifest: string): { source: string; wasm: string }[] {
  const src = obj(parse(sourceManifest));
  const built = obj(parse(builtManifest));
  const pairs: { source: string; wasm: string }[] = [];
  for (const key of ['dataSources', 'templates']) {
    list(src[key]).forEach((ds, i) => {
      const source = obj(obj(ds).mapping).file;
      const wasm = obj(obj(list(built[key])[i]).mapping).file;
      if (typeof source === 'string' && typeof wasm === 'string' && /\.ts$/.test(source)) pairs.push({ source, wasm });
    });
  }
  return pairs;
}

/** Every node_modules from `dir` up: where graph-cli looks for libraries. */
function libraryDirs(dir: string): string[] {
  const dirs: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules'))) dirs.push(path.join(d, 'node_modules'));
    if (path.dirname(d) === d) return dirs;
  }
}

function run(file: string, args: readonly string[], cwd: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { cwd, timeout: COMPILE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, signal, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } }, (err, stdout, stderr) => {
      if (err) reject((err as { name?: string }).name === 'AbortError' ? err : new CompileError(`${stdout}${stderr}` || err.message));
      else resolve();
    });
  });
}

/** Runs asc with these arguments in the project's folder (a warm AscWorker, or the project's asc as a process). */
export type AscRun = (args: readonly string[], signal?: AbortSignal) => Promise<void>;

/** Compiles each mapping of the project into build/; rejects with CompileError (asc's errors) or an Error saying what is missing. */
export async function compileMappings(projectDir: string, sourceManifest: string, builtManifest: string, signal?: AbortSignal, asc?: AscRun): Promise<void> {
  const bin = findAscBin(projectDir);
  if (!bin) throw new Error(`No AssemblyScript compiler (node_modules/.bin/asc) at or above ${projectDir}: install the project's dependencies.`);
  const libs = libraryDirs(projectDir);
  const globalLib = libs.find((l) => existsSync(path.join(l, '@graphprotocol', 'graph-ts', 'global', 'global.ts')));
  if (!globalLib) throw new Error(`@graphprotocol/graph-ts was not found at or above ${projectDir}: install the project's dependencies.`);
  const global = path.join(globalLib, '@graphprotocol', 'graph-ts', 'global', 'global.ts');
  const buildDir = path.join(projectDir, 'build');
  const bySource = new Map<string, string[]>();
  for (const { source, wasm } of mappingTargets(sourceManifest, builtManifest)) bySource.set(source, [...(bySource.get(source) ?? []), path.resolve(buildDir, wasm)]);
  for (const [source, [first, ...rest]] of bySource) {
    await mkdir(path.dirname(first), { recursive: true });
    const args = [
      '--explicitStart',
      '--exportRuntime',
      '--runtime',
      'stub',
      path.relative(projectDir, path.resolve(projectDir, source)),
      path.relative(projectDir, global),
      '--baseDir',
      projectDir,
      '--lib',
      libs.join(','),
      '--outFile',
      first,
      '--debug',
    ];
    await (asc ? asc(args, signal) : run(path.join(bin, process.platform === 'win32' ? 'asc.cmd' : 'asc'), args, projectDir, signal));
    for (const other of rest) await copyFile(first, other);
  }
}
