/**
 * A subgraph without graph-cli inside the real extension host: a copy of the tutorial whose
 * node_modules holds only graph-ts and AssemblyScript 0.19.23 (what a project needs to build with
 * gnd). Codegen and the build task run through gnd (the pinned one from the runner's cache, named by the
 * gnd-path setting as the local graph-node's suite does, so nothing is downloaded) instead of
 * failing for want of the graph CLI; a handler missing from the WASM, as gnd reports it, lands as
 * a "graph" diagnostic on the handler's line of subgraph.yaml; chaindeck.subgraph.toolchain set to
 * graph-cli refuses in one line. Everything added is removed again.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SubgraphsFeature } from '../../../src/editor/subgraph/feature';
import { activateTestApi } from './helpers';

const FOLDER = 'eh-gnd-tutorial';
const CACHED_GND = path.join(process.env.CHAINDECK_TEST_GND_CACHE || path.join(os.userInfo().homedir, '.cache', 'chaindeck'), 'gnd', '0.45.0', 'gnd');

/** A graph-cli package in a node_modules at or above `dir` (the suites run from a transpiled copy: src is not importable here). */
function graphCliAbove(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'node_modules', '@graphprotocol', 'graph-cli'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

describe('subgraphToolchain', function () {
  // A gnd build compiles the mapping with asc: ~7-10 s.
  this.timeout(90_000);
  let f: SubgraphsFeature;
  let dir: string;
  let manifest: vscode.Uri;
  let pathBefore: string | undefined;
  const config = () => vscode.workspace.getConfiguration('chaindeck');
  const graphDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'graph');

  before(async () => {
    const { ext, api } = await activateTestApi('activate() returned no subgraphs in the test API', (a) => a.subgraphs);
    f = api.subgraphs;
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, FOLDER);
    fs.cpSync(path.join(ext.extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), dir, { recursive: true });
    // graph-ts and AssemblyScript only, linked from the extension's own node_modules.
    const from = path.join(ext.extensionPath, 'node_modules');
    fs.mkdirSync(path.join(dir, 'node_modules', '@graphprotocol'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'));
    fs.symlinkSync(path.join(from, '@graphprotocol', 'graph-ts'), path.join(dir, 'node_modules', '@graphprotocol', 'graph-ts'), 'dir');
    fs.symlinkSync(path.join(from, 'assemblyscript'), path.join(dir, 'node_modules', 'assemblyscript'), 'dir');
    fs.symlinkSync(path.join('..', 'assemblyscript', 'bin', 'asc'), path.join(dir, 'node_modules', '.bin', 'asc'));
    manifest = vscode.Uri.file(path.join(dir, 'subgraph.yaml'));
    // As for a user without graph-cli: no `graph` on this extension host's PATH (npm's scripts put node_modules/.bin there).
    pathBefore = process.env.PATH;
    process.env.PATH = (pathBefore ?? '')
      .split(path.delimiter)
      .filter((d) => d && !fs.existsSync(path.join(d, 'graph')))
      .join(path.delimiter);
    assert.equal(graphCliAbove(dir), undefined, 'the graph CLI is reachable from the copy: this suite tests a project without it');
    assert.ok(fs.existsSync(CACHED_GND), `no gnd at ${CACHED_GND} (scripts/setup.sh installs it)`);
    await config().update('localGraphNode.gndPath', CACHED_GND, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    if (pathBefore !== undefined) process.env.PATH = pathBefore;
    for (const key of ['localGraphNode.gndPath', 'subgraph.toolchain']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    if (dir) {
      // The links first, by themselves: the extension's node_modules is never walked by the removal.
      fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs codegen and the build through gnd when the project has no graph CLI', async () => {
    const codegen = await f.tasks.run('codegen', manifest);
    assert.equal(codegen?.error, undefined, codegen?.error);
    assert.equal(codegen?.run?.outcome.ok, true, codegen?.run?.output);
    assert.equal(codegen?.run?.command, 'gnd codegen --skip-migrations');
    assert.ok(fs.existsSync(path.join(dir, 'generated', 'schema.ts')));
    const finished = await f.tasks.run('build', manifest);
    assert.equal(finished?.error, undefined, finished?.error);
    assert.equal(finished?.run?.outcome.ok, true, finished?.run?.output);
    assert.equal(finished?.run?.command, 'gnd build --skip-migrations');
    assert.equal(finished?.run?.outcome.summary, 'Build completed: build/subgraph.yaml');
    assert.ok(fs.existsSync(path.join(dir, 'build', 'ERC20', 'ERC20.wasm')));
  });

  it("puts gnd's missing-handler error on the handler's line of subgraph.yaml, and a fixed build clears it", async () => {
    const original = fs.readFileSync(manifest.fsPath, 'utf8');
    fs.writeFileSync(manifest.fsPath, original.replace('handler: handleApproval', 'handler: handleApprovalX'));
    try {
      const finished = await f.tasks.run('build', manifest);
      assert.equal(finished?.run?.outcome.ok, false, 'the build should fail');
      const [problem, ...more] = graphDiagnostics(manifest);
      assert.ok(problem, `no graph diagnostic on subgraph.yaml; the run said: ${finished?.run?.outcome.summary}`);
      assert.equal(more.length, 0);
      const line = original.split('\n').findIndex((l) => l.includes('handler: handleApproval'));
      assert.equal(problem.range.start.line, line);
      assert.match(problem.message, /missing WASM handlers: handleApprovalX/);
    } finally {
      fs.writeFileSync(manifest.fsPath, original);
    }
    const fixed = await f.tasks.run('build', manifest);
    assert.equal(fixed?.run?.outcome.ok, true, fixed?.run?.output);
    assert.deepEqual(graphDiagnostics(manifest), []);
  });

  it('with chaindeck.subgraph.toolchain set to graph-cli, says in one line that it is missing instead of running', async () => {
    await config().update('subgraph.toolchain', 'graph-cli', vscode.ConfigurationTarget.Workspace);
    const finished = await f.tasks.run('codegen', manifest);
    assert.equal(finished?.run, undefined);
    assert.match(finished?.error ?? '', /^The graph CLI was not found from .*set the toolchain to gnd or auto\.$/);
  });
});
