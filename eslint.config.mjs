import * as fs from 'node:fs';
import * as path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

// The parts of src/, each a set of files no other part shares, and the arrows between them: a
// part may import its own files and the parts its arrows name, nothing else. Each arrow is stated
// once, with why it exists; an import along any other arrow is a lint error.
const parts = {
  coreFiles: ['src/core/*.ts', 'src/core/table/**'],
  rpc: ['src/core/rpc/**'],
  nodes: ['src/core/nodes/**'],
  storage: ['src/core/storage/**'],
  platform: ['src/core/platform/**'],
  subgraph: ['src/core/subgraph/**'],
  localnode: ['src/core/localnode/**'],
  gndtest: ['src/core/gndtest/**'],
  indexing: ['src/core/indexing/**'],
  cli: ['src/cli/**', 'src/cli.ts'],
  editor: ['src/editor/**', 'src/extension.ts'],
  webview: ['src/webview/**/!(protocol).ts'],
  webviewProtocol: ['src/webview/**/protocol.ts'],
};
const arrows = {
  // Redaction, inert JSON, depth limits, files and tables: the ground every other part stands on.
  coreFiles: [],
  // The wire: JSON-RPC over HTTP and WebSocket, failures, retries; it knows nothing of what is called.
  rpc: ['coreFiles'],
  // The node model calls its nodes (live facts) through the wire.
  nodes: ['rpc', 'coreFiles'],
  // Storage ranges are read through the wire.
  storage: ['rpc', 'coreFiles'],
  // The platform API is spoken over the wire's HTTP exchange; its nodes are imported as node configs.
  platform: ['rpc', 'nodes', 'coreFiles'],
  // Queries go over the wire's HTTP exchange; records keep their keys as nodes do (the key placeholder);
  // the proxy hint (rules/proxy.ts) reads a data source's EIP-1967 implementation slot, which storage defines.
  subgraph: ['rpc', 'nodes', 'storage', 'coreFiles'],
  // The local graph-node runs programs and talks to them over plain HTTP; the chain's URL becomes an endpoint as every node's does.
  localnode: ['rpc', 'nodes', 'coreFiles'],
  // Subgraph tests run by gnd: a subgraph (its manifest, build, ABIs) is indexed on a local graph-node and its tests run against a private Postgres.
  gndtest: ['subgraph', 'localnode', 'rpc', 'nodes', 'coreFiles'],
  // Seeing inside indexing: a deployment's logs, speed and handler profile, the replay of a failing block and two endpoints compared read a graph-node (local or not) and the chain it indexes.
  indexing: ['subgraph', 'localnode', 'gndtest', 'rpc', 'nodes', 'coreFiles'],
  // The command line is a thin shell over the core.
  cli: ['coreFiles', 'rpc', 'nodes', 'storage', 'platform', 'subgraph', 'localnode', 'gndtest', 'indexing'],
  // The editor adapts the core to VS Code and hosts the panels, whose messages it shares as types.
  editor: ['coreFiles', 'rpc', 'nodes', 'storage', 'platform', 'subgraph', 'localnode', 'gndtest', 'indexing', 'webviewProtocol'],
  // The panels' browser code renders what the host posts, in the messages both sides share.
  webview: ['webviewProtocol'],
  // The messages are plain types; the tables they carry are core's, taken as types only.
  webviewProtocol: ['coreFiles'],
};

// No import cycle anywhere in src/, type-only and dynamic imports included: a type shared both
// ways is a concept that wants a file of its own. (import-x/no-cycle skips type-only imports and
// has no option to count them.) Each file's imports are read with TypeScript's own pre-parser
// (import, export … from, import type, import('…') in types and code, import = require), the
// linted file's from the editor's text, the others' from disk, cached by modification time.
const importCache = new Map();

/** The project files a file's text imports (relative specifiers; a package cannot import back), with where each specifier sits. */
function importsIn(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((i) => i.fileName.startsWith('.'))
    .map((i) => ({ ...i, path: resolveSource(path.dirname(file), i.fileName) }))
    .filter((i) => i.path);
}

function resolveSource(dir, specifier) {
  const base = path.resolve(dir, specifier);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find(isFile);
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function importsOnDisk(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return [];
  const cached = importCache.get(file);
  if (cached?.mtimeMs === stat.mtimeMs) return cached.paths;
  const paths = importsIn(file, fs.readFileSync(file, 'utf8')).map((i) => i.path);
  importCache.set(file, { mtimeMs: stat.mtimeMs, paths });
  return paths;
}

/**
 * The shortest chain of imports from `start` back to `target` (both ends included), or undefined.
 * `noWayBack` holds files known not to lead to `target`: skipped, and grown by a search that
 * fails, so the imports of one file are searched through once in all rather than once each.
 */
function wayBack(start, target, noWayBack) {
  if (noWayBack.has(start)) return undefined;
  const cameFrom = new Map([[start, undefined]]);
  for (const queue = [start]; queue.length;) {
    const file = queue.shift();
    for (const next of importsOnDisk(file)) {
      if (cameFrom.has(next) || noWayBack.has(next)) continue;
      cameFrom.set(next, file);
      if (next === target) {
        const chain = [];
        for (let at = next; at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      queue.push(next);
    }
  }
  for (const file of cameFrom.keys()) noWayBack.add(file);
  return undefined;
}

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import that leads back to its own file, type-only imports included.' },
    messages: { cycle: 'Import cycle: {{chain}} (type-only imports count too: move what both sides need into a file of its own).' },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const source = context.sourceCode;
    return {
      Program() {
        const noWayBack = new Set();
        for (const imported of importsIn(file, source.text)) {
          const chain = imported.path === file ? undefined : wayBack(imported.path, file, noWayBack);
          if (!chain) continue;
          const shown = [file, ...chain].map((f) => path.relative(import.meta.dirname, f)).join(' → ');
          context.report({ loc: { start: source.getLocFromIndex(imported.pos), end: source.getLocFromIndex(imported.end) }, messageId: 'cycle', data: { chain: shown } });
        }
      },
    };
  },
};

/** One zone per part and each part it may not import (no-restricted-paths wants one kind of pattern per zone). */
function restrictedZones() {
  const zones = [];
  for (const [part, allowed] of Object.entries(arrows)) {
    for (const [other, files] of Object.entries(parts)) {
      if (other === part || allowed.includes(other)) continue;
      for (const from of files) zones.push({ target: parts[part], from, message: `${part} may not import ${other} (the arrows are in eslint.config.mjs).` });
    }
  }
  return zones;
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.demo/**', 'test-results/**', 'reports/**', '.stryker-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        AbortController: 'readonly',
        Buffer: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-imports': 'off',
    },
  },
  {
    // The arrows between the parts of src/, and no cycle of imports anywhere in it (type-only
    // imports count too: the build drops them, but a cycle of types is still two concepts in
    // one knot). The resolver finds the .ts behind an extensionless import; an import it cannot
    // resolve would escape the arrows.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX, chaindeck: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'chaindeck/no-import-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: restrictedZones() }],
      'import-x/no-unresolved': ['error', { ignore: ['^vscode$'] }],
    },
  },
  {
    // The core and the CLI run in plain Node (CLI, tests, benchmarks): they never reach for the editor.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/cli.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and src/cli must not import vscode' }] }] },
  },
  {
    // The editor shares only the panels' message types: no webview code reaches the extension host.
    files: ['src/editor/**/*.ts', 'src/extension.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)webview/(\\w+/)?protocol$', allowTypeImports: true, message: "the editor imports the panels' messages as types only (import type)" }] },
      ],
    },
  },
  {
    // Browser code: no Node, no vscode, no packages; only the webview's own files.
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', acquireVsCodeApi: 'readonly', requestAnimationFrame: 'readonly' } },
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^[^.]', message: "webview code imports only the webview's own files" }] }] },
  },
  {
    // The messages take the tables' shapes from core as types: nothing of core runs in the browser.
    files: ['src/webview/**/protocol.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)core/', allowTypeImports: true, message: "the panels' messages take only types from core (import type)" }] },
      ],
    },
  },
);
