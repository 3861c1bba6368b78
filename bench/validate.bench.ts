/**
 * Full validation of a large subgraph in-process against `graph codegen` on the same project.
 *
 * The project: 200 data sources, each with its own ABI file (distinct events) and mapping file,
 * one schema.graphql with an entity per event. It is valid: the run checks it gives no finding.
 * Chaindeck validates it warm, many times (a fresh cache per run: parsed ABIs and the schema are
 * only shared within one run), reading the disk like the CLI does; the median is the figure, with
 * the CPU time beside it (a loaded machine inflates wall-clock times, not CPU times). Parsing the
 * manifest alone is timed the same way with the subset parser (fastYaml.ts) and with the `yaml`
 * package. Then the real `graph codegen --skip-migrations` runs on the same folder twice.
 *
 * Run alone with `node --import tsx bench/validate.bench.ts` (no node is needed; the anvil that
 * scripts/bench.mjs starts is not used).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getAddress, id } from 'ethers';
import { Parser } from 'yaml';
import { ValidationCache } from '../src/core/subgraph/rules/context';
import { memoryFileSource, nodeFileSource } from '../src/core/subgraph/fileSource';
import { parseManifest } from '../src/core/subgraph/manifest/manifestDoc';
import type { FileSource } from '../src/core/subgraph/types';
import { validateSubgraph } from '../src/core/subgraph/rules/validate';

const DATA_SOURCES = 200;
const WARMUP = 20;
const RUNS = 100;
const TARGET_MS = 30;
const root = path.resolve(__dirname, '..');

function abiFor(i: number): unknown[] {
  const event = (name: string, inputs: [string, string, boolean][]) => ({
    type: 'event',
    anonymous: false,
    name,
    inputs: inputs.map(([n, t, indexed]) => ({ name: n, type: t, internalType: t, indexed })),
  });
  const fn = (name: string, inputs: [string, string][], mutability: string) => ({
    type: 'function',
    name,
    stateMutability: mutability,
    inputs: inputs.map(([n, t]) => ({ name: n, type: t, internalType: t })),
    outputs: [{ name: '', type: 'bool', internalType: 'bool' }],
  });
  return [
    event('Approval', [
      ['owner', 'address', true],
      ['spender', 'address', true],
      ['value', 'uint256', false],
    ]),
    event('Transfer', [
      ['from', 'address', true],
      ['to', 'address', true],
      ['value', 'uint256', false],
    ]),
    event(`Settled${i}`, [
      ['account', 'address', true],
      ['amount', 'uint256', false],
      ['memo', 'string', false],
    ]),
    fn(
      'approve',
      [
        ['spender', 'address'],
        ['value', 'uint256'],
      ],
      'nonpayable',
    ),
    fn(
      'transfer',
      [
        ['to', 'address'],
        ['value', 'uint256'],
      ],
      'nonpayable',
    ),
    fn('balanceOf', [['account', 'address']], 'view'),
  ];
}

/** Writes the project; returns the manifest path. */
export function writeProject(dir: string): string {
  fs.mkdirSync(path.join(dir, 'abis'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  let manifest = 'specVersion: 0.0.5\nschema:\n  file: ./schema.graphql\ndataSources:\n';
  let schema = '';
  for (let i = 0; i < DATA_SOURCES; i++) {
    const name = `Token${i}`;
    const address = getAddress(id(`token ${i}`).slice(0, 42));
    fs.writeFileSync(path.join(dir, 'abis', `${name}.json`), JSON.stringify(abiFor(i), null, 2));
    fs.writeFileSync(
      path.join(dir, 'src', `${name}.ts`),
      `import { Approval, Transfer, Settled${i} } from "../generated/${name}/${name}";\n` +
        `import { ${name}Approval, ${name}Transfer, ${name}Settled } from "../generated/schema";\n\n` +
        `export function handleApproval(event: Approval): void {\n  new ${name}Approval(event.transaction.hash.concatI32(event.logIndex.toI32())).save();\n}\n\n` +
        `export function handleTransfer(event: Transfer): void {\n  new ${name}Transfer(event.transaction.hash.concatI32(event.logIndex.toI32())).save();\n}\n\n` +
        `export function handleSettled(event: Settled${i}): void {\n  new ${name}Settled(event.transaction.hash.concatI32(event.logIndex.toI32())).save();\n}\n`,
    );
    for (const kind of ['Approval', 'Transfer', 'Settled']) schema += `type ${name}${kind} @entity(immutable: true) {\n  id: Bytes!\n  account: Bytes!\n  value: BigInt!\n}\n\n`;
    manifest +=
      `  - kind: ethereum\n    name: ${name}\n    network: mainnet\n    source:\n      address: "${address}"\n      abi: ${name}\n      startBlock: ${6_000_000 + i}\n` +
      `    mapping:\n      kind: ethereum/events\n      apiVersion: 0.0.7\n      language: wasm/assemblyscript\n      entities:\n` +
      `        - ${name}Approval\n        - ${name}Transfer\n        - ${name}Settled\n      abis:\n        - name: ${name}\n          file: ./abis/${name}.json\n` +
      `      eventHandlers:\n        - event: Approval(indexed address,indexed address,uint256)\n          handler: handleApproval\n` +
      `        - event: Transfer(indexed address,indexed address,uint256)\n          handler: handleTransfer\n` +
      `        - event: Settled${i}(indexed address,uint256,string)\n          handler: handleSettled\n      file: ./src/${name}.ts\n`;
  }
  fs.writeFileSync(path.join(dir, 'schema.graphql'), schema);
  fs.writeFileSync(path.join(dir, 'subgraph.yaml'), manifest);
  // graph-cli looks for graph-ts in node_modules from the manifest's folder up.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return path.join(dir, 'subgraph.yaml');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Timing {
  /** Wall-clock milliseconds per validation: median, 95th percentile, best. */
  median: number;
  p95: number;
  min: number;
  /** CPU milliseconds (this process) per validation, median: what other processes cannot inflate. */
  cpu: number;
}

function timeRuns(run: () => void): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    run();
    const cpuUsed = process.cpuUsage(cpuStarted);
    const ms = performance.now() - started;
    if (i < WARMUP) continue;
    wall.push(ms);
    cpu.push((cpuUsed.user + cpuUsed.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  return { median: median(wall), p95: wall[Math.floor(wall.length * 0.95)], min: wall[0], cpu: median(cpu) };
}

/** `cache`: one kept across runs, as the editor keeps one (by default each run starts afresh). */
function timeValidation(manifest: string, files: FileSource, options: { yamlOnly?: boolean; cache?: ValidationCache } = {}): Timing {
  return timeRuns(() => {
    const { findings } = validateSubgraph(manifest, files, options);
    if (findings.length) throw new Error(`the bench project should be valid, but: ${findings[0].message}`);
  });
}

/** Every file of the project in memory: what an editor with all files open would supply. */
function inMemory(dir: string): FileSource {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files[p] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return memoryFileSource(files);
}

function codegen(dir: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      path.join(root, 'node_modules', '.bin', 'graph'),
      ['codegen', '--skip-migrations'],
      { cwd: dir, env: { ...process.env, FORCE_COLOR: '0' }, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err || !stdout.includes('Types generated successfully')) reject(new Error(`graph codegen failed (${err?.message ?? 'no success line'}):\n${stdout}\n${stderr}`));
        else resolve(performance.now() - started);
      },
    );
  });
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-validate-bench-'));
  try {
    const manifest = writeProject(dir);
    const size = fs.statSync(manifest).size;
    console.log(`project: ${DATA_SOURCES} data sources, ${DATA_SOURCES} ABIs, ${DATA_SOURCES} mappings, ${DATA_SOURCES * 3} entities; subgraph.yaml ${(size / 1024).toFixed(0)} KB`);
    // The very first run: nothing compiled yet, every EIP-55 checksum hashed (later runs reuse them).
    const coldStarted = performance.now();
    validateSubgraph(manifest, nodeFileSource());
    const cold = performance.now() - coldStarted;
    const disk = timeValidation(manifest, nodeFileSource());
    const memory = timeValidation(manifest, inMemory(dir));
    const editor = timeValidation(manifest, inMemory(dir), { cache: new ValidationCache() });
    const yamlOnly = timeValidation(manifest, nodeFileSource(), { yamlOnly: true });
    // Parsing alone: why the subset parser stays. The `yaml` package's Parser (its CST, before
    // any document is composed) is the least any path on the package costs.
    const text = fs.readFileSync(manifest, 'utf8');
    const parseSubset = timeRuns(() => void parseManifest(text));
    const parseYaml = timeRuns(() => void parseManifest(text, { yamlOnly: true }));
    const cstOnly = timeRuns(() => void [...new Parser().parse(text)]);
    const runs = [await codegen(dir), await codegen(dir)];
    const cli = Math.min(...runs);
    const row = (t: Timing) => [`${t.median.toFixed(1)} ms`, `p95 ${t.p95.toFixed(1)}, best ${t.min.toFixed(1)}, CPU ${t.cpu.toFixed(1)} ms`];
    const rows = [
      ['Chaindeck, files from disk', ...row(disk)],
      ['Chaindeck, files in memory (editor)', ...row(memory)],
      ['Chaindeck, in memory, cache kept', ...row(editor)],
      ['Chaindeck, yaml package only', ...row(yamlOnly)],
      ['Chaindeck, first run in the process', `${cold.toFixed(1)} ms`, 'cold: JIT, checksums'],
      ['parsing alone, subset parser', ...row(parseSubset)],
      ['parsing alone, yaml package', ...row(parseYaml)],
      ['yaml package, Parser (CST) only', ...row(cstOnly)],
      ['graph codegen --skip-migrations', `${(cli / 1000).toFixed(2)} s`, `runs ${runs.map((r) => (r / 1000).toFixed(2)).join(', ')} s`],
    ];
    console.log(`median of ${RUNS} warm runs (after ${WARMUP}); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs:`);
    for (const r of rows) console.log(`  ${r[0].padEnd(38)} ${r[1].padStart(10)}   ${r[2]}`);
    console.log(`graph codegen / Chaindeck (disk): ${(cli / disk.median).toFixed(0)}×`);
    console.log(`target < ${TARGET_MS} ms per full validation (wall-clock median, disk): ${disk.median < TARGET_MS ? 'met' : 'missed'}`);
    console.log(`parsing: yaml package / subset parser ${(parseYaml.cpu / parseSubset.cpu).toFixed(0)}× (CPU); the yaml package's CST alone ${cstOnly.cpu.toFixed(1)} ms of CPU`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
