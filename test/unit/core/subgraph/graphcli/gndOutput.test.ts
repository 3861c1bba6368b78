// gnd's output read back as problems and outcomes, from what the real gnd 0.45.0 printed for the
// mistakes of graph-cli's table (test/fixtures/graph/gnd-outputs/README.md says how each was made).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { extractProblems, judgeGraphRun, type GraphProblem } from '../../../../../src/core/subgraph/graphcli/output';
import { problemRange } from '../../../../../src/core/subgraph/graphcli/problemRange';
import { repoPath } from '../../../../support/paths';

const output = (name: string) => readFileSync(repoPath(`test/fixtures/graph/gnd-outputs/${name}.txt`), 'utf8');
const MANIFEST = readFileSync(repoPath('test/fixtures/subgraphs/tutorial/subgraph.yaml'), 'utf8');
const ctx = { manifest: 'subgraph.yaml', tool: 'gnd', schemaFile: './schema.graphql' };
const only = (problems: GraphProblem[]) => {
  assert.equal(problems.length, 1, JSON.stringify(problems));
  return problems[0];
};

test('gnd success: codegen and build are ok from their check-marked lines', () => {
  assert.deepEqual(judgeGraphRun('codegen', 0, output('codegen-ok'), ctx), { ok: true, summary: 'Types generated successfully.', problems: [] });
  const build = judgeGraphRun('build', 0, output('build-ok'), ctx);
  assert.equal(build.ok, true);
  assert.equal(build.buildOutput, 'build/subgraph.yaml');
});

test('gnd: a handler missing from the WASM is a problem on the manifest, at the handler name', () => {
  const run = judgeGraphRun('build', 1, output('build-missing-handler'), ctx);
  assert.equal(run.ok, false);
  const p = only(run.problems);
  assert.equal(p.file, 'subgraph.yaml');
  assert.equal(p.value, 'handleApprovalX');
  assert.match(p.message, /missing WASM handlers: handleApprovalX\. The mapping file does not export a function 'handleApprovalX'/);
  assert.match(run.summary, /^gnd build failed \(exit code 1\): 1 problem in the subgraph: data source 'ERC20': missing WASM handlers/);
});

test('gnd: an event not in the ABI is placed at the event signature in the manifest', () => {
  const p = only(extractProblems(output('build-event-not-in-abi'), 'subgraph.yaml'));
  assert.equal(p.value, 'Aproval(indexed address,indexed address,uint256)');
  const text = MANIFEST.replace('event: Approval(', 'event: Aproval(');
  const range = problemRange(p, text);
  const line = text.split('\n')[range.start.line];
  assert.equal(line.slice(range.start.character, range.end.character), p.value);
});

test('gnd: a missing ABI or mapping file is placed at the path in the manifest', () => {
  const abi = only(extractProblems(output('build-abi-missing'), 'subgraph.yaml'));
  assert.equal(abi.message, "ABI 'ERC20' for data source 'ERC20' not found: ./abis/ERC20.json");
  assert.equal(abi.value, './abis/ERC20.json');
  const range = problemRange(abi, MANIFEST);
  assert.equal(MANIFEST.split('\n')[range.start.line].trim(), 'file: ./abis/ERC20.json');
  const mapping = only(extractProblems(output('build-mapping-missing'), 'subgraph.yaml'));
  assert.equal(mapping.value, './src/nope.ts');
});

test('gnd: schema errors are problems on the schema file the manifest names, at the entity', () => {
  const problems = extractProblems(output('build-schema-id-type'), 'subgraph.yaml', './schema.graphql');
  assert.deepEqual(
    problems.map((p) => [p.file, p.value, p.message]),
    [
      ['./schema.graphql', 'Bad', 'Entity type Bad uses illegal type Foo for id column'],
      ['./schema.graphql', 'Bad', 'Type `Bad`, field `id`: type `Foo` is not defined'],
    ],
  );
  assert.match(judgeGraphRun('codegen', 1, output('build-schema-id-type'), ctx).summary, /^gnd codegen failed \(exit code 1\): 2 problems in the subgraph: Entity type Bad/);
});

test('gnd: a manifest it cannot parse is one problem on the manifest, saying gnd gives no line', () => {
  const yaml = only(extractProblems(output('build-yaml-indentation'), 'subgraph.yaml'));
  assert.equal(yaml.file, 'subgraph.yaml');
  assert.equal(yaml.line, undefined);
  assert.match(yaml.message, /^gnd could not read subgraph\.yaml: it is not valid YAML; gnd names no line/);
  const shape = only(extractProblems(output('build-invalid-address'), 'subgraph.yaml'));
  assert.match(shape.message, /does not have the shape of a subgraph manifest/);
});

test('gnd: AssemblyScript errors keep their file and position, as with graph-cli', () => {
  const p = only(extractProblems(output('build-ts2305'), 'subgraph.yaml'));
  assert.deepEqual([p.code, p.file, p.line, p.column], ['TS2305', 'src/mapping.ts', 3, 10]);
  const syntax = extractProblems(output('build-ts-syntax'), 'subgraph.yaml');
  assert.deepEqual(
    syntax.map((s) => [s.code, s.line, s.column]),
    [
      ['TS1003', 16, 23],
      ['TS1005', 16, 26],
    ],
  );
});

test('gnd: a failure without problems is summarised by its Error line', () => {
  const text = '→ Load subgraph from subgraph.yaml\nError: Could not locate `node_modules` in parent directories of subgraph manifest\n';
  assert.equal(judgeGraphRun('build', 1, text, ctx).summary, 'gnd build failed (exit code 1): Could not locate `node_modules` in parent directories of subgraph manifest');
});

test('remove: ok from the removed line; gnd’s failure says the name may be gone all the same', () => {
  assert.deepEqual(judgeGraphRun('remove', 0, 'Removing subgraph from Graph node: http://127.0.0.1:8020\n✔ Removed subgraph: me/sg\n', { ...ctx, subgraphName: 'me/sg' }), {
    ok: true,
    summary: 'Removed subgraph me/sg.',
    problems: [],
  });
  // What gnd 0.45.0 printed when a real graph-node had removed the name (test/integration/gnd.toolchain.test.ts).
  const text = 'Removing subgraph from Graph node: http://127.0.0.1:46553\nError: Failed to remove subgraph\n';
  assert.equal(
    judgeGraphRun('remove', 1, text, { ...ctx, subgraphName: 'me/sg' }).summary,
    'gnd remove failed: Failed to remove subgraph (gnd says this also when graph-node did remove it: check whether me/sg is still listed)',
  );
  assert.equal(
    judgeGraphRun('remove', 1, '✖ Error removing the subgraph: no such name\n', { manifest: 'subgraph.yaml' }).summary,
    'graph remove failed: Error removing the subgraph: no such name',
  );
});

test('gnd: a failure’s advice on the indented lines below its Error line is kept, up to the blank line', () => {
  const missing =
    '→ Compile data source: ERC20\nError: AssemblyScript compiler (asc) not found. Install it with:\n  npm install -g assemblyscript@0.19.23\n  or locally:\n  npm install --save-dev assemblyscript@0.19.23\n';
  assert.equal(
    judgeGraphRun('build', 1, missing, ctx).summary,
    'gnd build failed (exit code 1): AssemblyScript compiler (asc) not found. Install it with: npm install -g assemblyscript@0.19.23 or locally: npm install --save-dev assemblyscript@0.19.23',
  );
  const mismatch =
    'Error: AssemblyScript compiler version mismatch: found 0.27.31, required 0.19.23.\n  Please install the correct version with:\n  npm install -g assemblyscript@0.19.23\n\n  If you know what you’re doing, use --skip-asc-version-check.\n';
  assert.equal(
    judgeGraphRun('build', 1, mismatch, ctx).summary,
    'gnd build failed (exit code 1): AssemblyScript compiler version mismatch: found 0.27.31, required 0.19.23. Please install the correct version with: npm install -g assemblyscript@0.19.23',
  );
});
