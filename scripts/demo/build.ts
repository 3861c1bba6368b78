/**
 * The demo's contracts (demo/contracts/*.sol: DemoToken, and Points behind an ERC1967Proxy)
 * compiled together with solc from npm, once per source/compiler/settings, into a Hardhat 2
 * build-info: solc's standard-JSON input (every source, OpenZeppelin's included) and output with
 * the storage layouts, every source's AST (where ERC-7201 namespaces are declared), the ABIs and
 * the creation and deployed bytecode. The demo deploys this bytecode and writes this file into the
 * workspace's artifacts/build-info/, where the editor finds layouts, so the contracts it deployed
 * are recognised by their code.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { InterfaceAbi } from 'ethers';
import solc from 'solc';

/** The repository: found up from here, so this file also works bundled into the workbench tests' out/test/support. */
export const REPO = (() => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'demo', 'contracts'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '../..');
  }
})();
export const DEMO_CONTRACTS = path.join(REPO, 'demo/contracts');
/** Where compiled build-infos are kept, one file per (sources, compiler, settings) hash. */
const BUILD_DIR = path.join(REPO, 'demo/build');

/** Source names as a Hardhat project has them, so the layouts name the workspace's files. */
export const SOURCE_DIR = 'contracts';

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: {
    '*': {
      '': ['ast'],
      '*': ['abi', 'metadata', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences', 'evm.methodIdentifiers'],
    },
  },
};

interface SolcContract {
  abi: InterfaceAbi;
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
}

/** A Hardhat 2 build-info (`artifacts/build-info/<id>.json`). */
export interface BuildInfo {
  id: string;
  _format: 'hh-sol-build-info-1';
  solcVersion: string;
  solcLongVersion: string;
  input: { language: 'Solidity'; sources: Record<string, { content: string }>; settings: typeof SETTINGS };
  output: { contracts: Record<string, Record<string, SolcContract>>; sources: Record<string, unknown> };
}

/** An import's text from node_modules (`@openzeppelin/…`). */
function importText(importPath: string): string {
  return readFileSync(require.resolve(importPath, { paths: [REPO] }), 'utf8');
}

/** The demo's build-info, compiled on first use and then read from demo/build/. */
export function demoBuildInfo(buildDir = BUILD_DIR): BuildInfo {
  const files = readdirSync(DEMO_CONTRACTS)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const sources = Object.fromEntries(files.map((f) => [`${SOURCE_DIR}/${f}`, { content: readFileSync(path.join(DEMO_CONTRACTS, f), 'utf8') }]));
  const long = solc.version().replace(/\.Emscripten.*$/, '');
  const versions = ['@openzeppelin/contracts', '@openzeppelin/contracts-upgradeable'].map(
    (p) => (JSON.parse(readFileSync(require.resolve(`${p}/package.json`, { paths: [REPO] }), 'utf8')) as { version: string }).version,
  );
  const id = createHash('sha256')
    .update(JSON.stringify([sources, long, versions, SETTINGS]))
    .digest('hex')
    .slice(0, 32);
  const cached = path.join(buildDir, `build-info.${id}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as BuildInfo;

  const input = { language: 'Solidity' as const, sources, settings: SETTINGS };
  const imported: Record<string, { content: string }> = {};
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (p: string) => {
        try {
          const content = importText(p);
          imported[p] = { content };
          return { contents: content };
        } catch {
          return { error: `not found in node_modules: ${p}` };
        }
      },
    }),
  ) as BuildInfo['output'] & { errors?: { severity: string; formattedMessage: string }[] };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`the demo's contracts do not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  delete output.errors;
  // As Hardhat writes it: the input holds every source compiled, the imported ones too.
  const info: BuildInfo = {
    id,
    _format: 'hh-sol-build-info-1',
    solcVersion: long.replace(/\+.*$/, ''),
    solcLongVersion: long,
    input: { ...input, sources: { ...sources, ...imported } },
    output,
  };
  mkdirSync(buildDir, { recursive: true });
  // Written aside and renamed: a concurrent reader never sees half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(info));
  renameSync(partial, cached);
  return info;
}

/** Contract `name` of the build: its ABI and creation bytecode (0x-prefixed). */
export function demoContract(info: BuildInfo, name: string): { abi: InterfaceAbi; bytecode: string } {
  for (const byName of Object.values(info.output.contracts)) {
    const c = byName[name];
    if (c?.evm.bytecode.object) return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  }
  throw new Error(`the demo's build holds no contract ${name} with bytecode`);
}

/** Writes the build-info where Hardhat keeps it under `workspace`; returns its path. */
export function writeBuildInfo(workspace: string, info: BuildInfo): string {
  const dir = path.join(workspace, 'artifacts', 'build-info');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${info.id}.json`);
  writeFileSync(file, JSON.stringify(info));
  return file;
}
