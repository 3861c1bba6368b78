/**
 * Subgraph tests in the real extension host, on the real gnd, Postgres and graph CLI: a copy of the
 * tutorial subgraph with three gnd test files (one passing, one with a wrong expectation, one whose
 * event the handler refuses) found under their manifest, each labelled by its name with an item per
 * assertion at the assertion; files created, changed and deleted followed; a run of all, of one file
 * and of one assertion through the Run profile, with passed, failed (a diff of expected against
 * actual, placed at the assertion) and errored (the handler's error) where gnd says so, and the
 * run's output in CRLF lines; a cancelled run leaving no gnd running; runOnSave and a continuous
 * run running the tests again when the mapping is saved, and no more once cancelled.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SubgraphTests } from '../../../src/editor/subgraph/tests';
import { REFUSED_VALUE, TEST_FILES, writeTestedSubgraph } from '../../support/subgraphTests';
import { processesIn } from '../../support/processes';
import { activateTestApi, until as poll } from './helpers';

const FOLDER = 'st-tutorial';
const CACHED_GND = path.join(os.userInfo().homedir, '.cache', 'chaindeck', 'gnd', '0.45.0', 'gnd');
/** A run builds (graph codegen + build, ~15 s) and runs gnd (~6 s a file). */
const RUN_MS = 240_000;
const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000) => poll(what, probe, ms);

type State = 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
interface SeenRun {
  states: Map<string, { state: State; messages: vscode.TestMessage[] }>;
  output: string;
  ended: boolean;
}

describe('subgraphTests', function () {
  this.timeout(900_000);
  let t: SubgraphTests;
  let dir: string;
  let manifest: vscode.Uri;
  const runs: SeenRun[] = [];
  const fileUri = (name: string) => vscode.Uri.file(path.join(dir, 'tests', name));
  const manifestItem = () => t.tree.controller.items.get(manifest.toString());
  const fileItem = (name: string) => manifestItem()?.children.get(fileUri(name).toString());
  const children = (item: vscode.TestItem | undefined) => (item ? [...item.children].map(([, c]) => c) : []);
  const stateOf = (run: SeenRun, item: vscode.TestItem | undefined) => (item ? run.states.get(item.id)?.state : undefined);
  const runAndWait = async (include?: vscode.TestItem[]) => {
    const seen = runs.length;
    const source = new vscode.CancellationTokenSource();
    await t.runner.run(new vscode.TestRunRequest(include, undefined, t.runner.profile), source.token);
    source.dispose();
    assert.equal(runs.length, seen + 1, 'one TestRun per request');
    return runs[seen];
  };
  const config = () => vscode.workspace.getConfiguration('chaindeck');

  before(async function () {
    const { ext, api } = await activateTestApi('activate() returned no subgraph tests in the test API', (a) => a.subgraphs?.tests);
    t = api.subgraphs.tests;
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = path.join(ws, FOLDER);
    writeTestedSubgraph(ext.extensionPath, dir);
    manifest = vscode.Uri.file(path.join(dir, 'subgraph.yaml'));
    if (fs.existsSync(CACHED_GND)) await config().update('localGraphNode.gndPath', CACHED_GND, vscode.ConfigurationTarget.Workspace);
    // Every TestRun the runner makes, recorded as it reports (the API has no reader of results).
    const controller = t.tree.controller;
    const create = controller.createTestRun.bind(controller);
    controller.createTestRun = (request, name, persist) => {
      const run = create(request, name, persist);
      const seen: SeenRun = { states: new Map(), output: '', ended: false };
      runs.push(seen);
      const record = (state: State) => (item: vscode.TestItem, message?: vscode.TestMessage | readonly vscode.TestMessage[]) =>
        seen.states.set(item.id, { state, messages: message === undefined ? [] : Array.isArray(message) ? [...(message as vscode.TestMessage[])] : [message as vscode.TestMessage] });
      return new Proxy(run, {
        get(target, prop: keyof vscode.TestRun) {
          if (['enqueued', 'started', 'passed', 'failed', 'errored', 'skipped'].includes(prop as string))
            return (item: vscode.TestItem, ...rest: unknown[]) => {
              record(prop as State)(item, rest[0] as vscode.TestMessage | undefined);
              return (target[prop] as (...a: unknown[]) => unknown).call(target, item, ...rest);
            };
          if (prop === 'appendOutput')
            return (text: string, ...rest: unknown[]) => {
              seen.output += text;
              return (target.appendOutput as (...a: unknown[]) => unknown).call(target, text, ...rest);
            };
          if (prop === 'end')
            return () => {
              seen.ended = true;
              target.end();
            };
          const value = target[prop];
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    };
  });

  after(async () => {
    // The tests' Postgres, stopped; its folder goes with the workbench's, or (as root) from the temporary folder.
    await t?.database.stop();
    if (t && path.basename(path.dirname(t.database.dataDir)).startsWith('chaindeck-gnd-test-')) fs.rmSync(path.dirname(t.database.dataDir), { recursive: true, force: true });
    await config().update('localGraphNode.gndPath', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('subgraph.tests.runOnSave', undefined, vscode.ConfigurationTarget.Workspace);
    if (dir) {
      fs.rmSync(path.join(dir, 'node_modules'), { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lists each test file under its manifest, labelled by its name, with an item per assertion at the assertion's line", async () => {
    await t.tree.discover();
    const top = await until('the manifest in the Test Explorer', manifestItem);
    assert.equal(top.uri?.toString(), manifest.toString());
    assert.deepEqual(
      children(top)
        .map((c) => c.label)
        .sort(),
      Object.values(TEST_FILES)
        .map((f) => f.name)
        .sort(),
    );
    const wrong = fileItem(TEST_FILES.failing.file)!;
    assert.equal(wrong.description, TEST_FILES.failing.file);
    const text = fs.readFileSync(fileUri(TEST_FILES.failing.file).fsPath, 'utf8').split('\n');
    assert.match(text[wrong.range!.start.line], /"name": "the value is recorded as sent"/);
    const assertions = children(wrong);
    assert.deepEqual(
      assertions.map((a) => a.label),
      ['{ approvalQueries { id owner spender } }', '{ approvalQueries { value } }'],
    );
    // Each at its own object in "assertions": the line of its "query" is inside its range.
    for (const a of assertions) {
      const lines = text.slice(a.range!.start.line, a.range!.end.line + 1).join('\n');
      assert.match(lines, /"query"/);
      assert.match(lines, /"expected"/);
    }
    assert.ok(assertions[0].range!.end.line < assertions[1].range!.start.line, 'the assertions overlap');
  });

  it('follows test files created, changed, broken and deleted', async () => {
    const extra = fileUri('extra.json');
    try {
      fs.writeFileSync(extra.fsPath, JSON.stringify({ name: 'first name', blocks: [], assertions: [] }));
      await until('the new file in the tree', () => (fileItem('extra.json')?.label === 'first name' ? true : undefined));
      fs.writeFileSync(extra.fsPath, JSON.stringify({ name: 'second name', blocks: [], assertions: [{ query: '{ a }', expected: {} }] }));
      await until('the changed name', () => (fileItem('extra.json')?.label === 'second name' && fileItem('extra.json')?.children.size === 1 ? true : undefined));
      fs.writeFileSync(extra.fsPath, '{ "name": ');
      const broken = await until('the broken file marked', () => (fileItem('extra.json')?.error ? fileItem('extra.json') : undefined));
      assert.match(String(broken.error), /extra\.json is not valid JSON/);
    } finally {
      // Gone again whatever happens: the runs below run every file of tests/.
      fs.rmSync(extra.fsPath, { force: true });
    }
    await until('the deleted file gone', () => (fileItem('extra.json') ? undefined : true));
  });

  it('runs all: passed, failed with the diff at the failing assertion, and the handler error on its test', async () => {
    const run = await runAndWait();
    assert.ok(run.ended);
    const ok = fileItem(TEST_FILES.passing.file)!;
    assert.equal(stateOf(run, ok), 'passed', run.output);
    for (const a of children(ok)) assert.equal(stateOf(run, a), 'passed');

    const wrong = fileItem(TEST_FILES.failing.file)!;
    const said = (item: vscode.TestItem) => `${JSON.stringify(run.states.get(item.id)?.messages.map((m) => m.message))}\n${run.output}`;
    assert.equal(stateOf(run, wrong), 'failed', said(wrong));
    const [first, second] = children(wrong);
    assert.equal(stateOf(run, first), 'passed');
    assert.equal(stateOf(run, second), 'failed');
    const [message] = run.states.get(second.id)!.messages;
    assert.match(String(message.expectedOutput), /"value": "6"/);
    assert.match(String(message.actualOutput), /"value": "5"/);
    assert.equal(message.location?.uri.toString(), second.uri?.toString());
    assert.equal(message.location?.range.start.line, second.range?.start.line);

    const refused = fileItem(TEST_FILES.refused.file)!;
    assert.equal(stateOf(run, refused), 'errored');
    assert.match(String(run.states.get(refused.id)!.messages[0].message), new RegExp(`refusing the value ${REFUSED_VALUE}`));

    // The terminal gets CRLF lines only, gnd's summary among them.
    assert.ok(!/[^\r]\n/.test(run.output), 'a bare LF in the output');
    assert.match(run.output, /Tests: 1 passed, 2 failed \(\d+\.\d s\)/);
  });

  it('runs one file, or the file of one assertion, and nothing else', async () => {
    const wrong = fileItem(TEST_FILES.failing.file)!;
    const run = await runAndWait([wrong]);
    assert.equal(stateOf(run, wrong), 'failed');
    assert.equal(stateOf(run, fileItem(TEST_FILES.passing.file)), undefined);
    assert.equal(stateOf(run, fileItem(TEST_FILES.refused.file)), undefined);

    const ok = fileItem(TEST_FILES.passing.file)!;
    const byAssertion = await runAndWait([children(ok)[1]]);
    assert.equal(stateOf(byAssertion, ok), 'passed');
    assert.equal(stateOf(byAssertion, wrong), undefined);
  });

  it('cancel stops gnd: the run ends at once, its tests skipped, nothing left running', async () => {
    const source = new vscode.CancellationTokenSource();
    const seen = runs.length;
    const done = t.runner.run(new vscode.TestRunRequest(undefined, undefined, t.runner.profile), source.token);
    const gndRunning = () => processesIn(dir).filter((pid) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'gnd');
    await until('gnd running the tests', () => (gndRunning().length ? true : undefined), RUN_MS);
    const cancelledAt = Date.now();
    source.cancel();
    await done;
    assert.ok(Date.now() - cancelledAt < 10_000, `the run took ${Date.now() - cancelledAt} ms to end after Cancel`);
    await until('no gnd left', () => (gndRunning().length ? undefined : true));
    const run = runs[seen];
    for (const f of children(manifestItem())) assert.equal(stateOf(run, f), 'skipped', `${f.label}: ${stateOf(run, f)}`);
    source.dispose();
  });

  it('runOnSave: saving the mapping runs the tests again', async () => {
    await config().update('subgraph.tests.runOnSave', true, vscode.ConfigurationTarget.Workspace);
    const seen = runs.length;
    const doc = await vscode.workspace.openTextDocument(path.join(dir, 'src', 'mapping.ts'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// saved\n');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    const run = await until('a run after the save', () => (runs[seen]?.ended ? runs[seen] : undefined), RUN_MS);
    assert.equal(stateOf(run, fileItem(TEST_FILES.passing.file)), 'passed', run.output);
    await config().update('subgraph.tests.runOnSave', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('a continuous run runs again on a save until it is cancelled', async () => {
    const source = new vscode.CancellationTokenSource();
    const ok = fileItem(TEST_FILES.passing.file)!;
    const request = new vscode.TestRunRequest([ok], undefined, t.runner.profile, true);
    const seen = runs.length;
    await t.runner.profile.runHandler(request, source.token);
    assert.equal(stateOf(runs[seen], ok), 'passed');
    const save = async (line: string) => {
      const doc = await vscode.workspace.openTextDocument(path.join(dir, 'schema.graphql'));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(0, 0), `# ${line}\n`);
      await vscode.workspace.applyEdit(edit);
      await doc.save();
    };
    await save('continuous');
    const again = await until('the continuous run again', () => (runs[seen + 1]?.ended ? runs[seen + 1] : undefined), RUN_MS);
    assert.equal(stateOf(again, ok), 'passed');
    assert.equal(stateOf(again, fileItem(TEST_FILES.failing.file)), undefined, 'ran more than the request');
    source.cancel();
    await save('after cancel');
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(runs.length, seen + 2, 'ran again after the continuous run was cancelled');
    source.dispose();
  });
});
