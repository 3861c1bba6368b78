/**
 * The subgraph workflow as a user meets it, with the real graph CLI: Build from the lens above
 * subgraph.yaml with a planted compile error (listed in Problems at its line), a subgraph added
 * through the palette with keyed URLs and a deploy key, Deploy from the lens (the keys in no
 * terminal text and not in the log), then a query run from its lens into the results table, paged.
 * The subgraph indexes a real ERC-20 on the runner's anvil that approved 130 spenders, on a real
 * local graph-node (gnd, Postgres, the IPFS endpoint) started by this process behind gateways
 * (test/support/proxy) that demand the access key in their paths and the deploy key as a bearer
 * token, as a host does. Two real CLI runs in the workbench (one build, one deploy); codegen runs
 * before the page opens, through core. Nothing of the graph-node is left running after.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { findGraphCli, runGraph } from '../../../src/core/subgraph/graphcli/launch';
import { graphCodegenCommand } from '../../../src/core/subgraph/graphcli/commands';
import { makeApprovals, pointManifest, type Approvals } from '../../support/approvals';
import { localProvider } from '../../support/contracts';
import { graphCli, startLocalGraph, type LocalGraph } from '../../support/localGraph';
import { startProxy, type Proxy } from '../../support/proxy';
import { env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader, webviewFrame } from './workbench';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FOLDER = `subgraphs-ui-${process.pid}`;
const NAME = 'ui/erc20-approvals';
const ACCESS_KEY = '9c1e3a5f7b2d4c6e8a0f1b3d5e7c9a2b';
const DEPLOY_KEY = 'dk7e9b1d3f5a7c9e2b4d6f8a0c1e3b5d7f';
/** What the planted error adds to the mapping's 4th line. */
const PLANTED = ['import { ApprovalQuery } from', 'import { ApprovalQuery, NoSuchEntity } from'] as const;

let browser: Browser;
let page: Page;
let workspace: string;
let folder: string;
let settingsBefore: string;
let approvals: Approvals;
let graph: LocalGraph;
// The host's gateways in front of graph-node's ports: what the subgraph's URLs name.
let ipfs: Proxy;
let admin: Proxy;
let graphql: Proxy;

const settingsFile = () => path.join(workspace, '.vscode', 'settings.json');
const mappingFile = () => path.join(folder, 'src', 'mapping.ts');
const quickInput = () => page.locator('.quick-input-widget');
const lens = (text: string) => page.locator('.editor-group-container .monaco-editor .codelens-decoration a', { hasText: text }).first();
const terminalRows = () => page.locator('.part.panel .terminal-wrapper.active .xterm-rows');
/** The JSON body of a request a gateway passed on. */
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as { method?: string; params?: Record<string, unknown>; variables?: unknown };
const deployCall = () => admin.requests.find((r) => bodyOf(r).method === 'subgraph_deploy');

before(async () => {
  workspace = env('CHAINDECK_TEST_WORKSPACE');
  folder = path.join(workspace, FOLDER);
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'subgraphs', 'tutorial'), folder, { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  const rpcUrl = env('CHAINDECK_TEST_ANVIL_URL');
  approvals = await makeApprovals(rpcUrl, ROOT, 130);
  pointManifest(path.join(folder, 'subgraph.yaml'), approvals);
  // Types first (core, outside the workbench), so the one build in the workbench compiles the mapping.
  const codegen = await runGraph(graphCodegenCommand(), { cli: findGraphCli(folder)!, cwd: folder, node: process.execPath });
  assert.equal(codegen.outcome.ok, true, codegen.output);
  fs.writeFileSync(mappingFile(), fs.readFileSync(mappingFile(), 'utf8').replace(...PLANTED));

  graph = await startLocalGraph(rpcUrl);
  // The name exists on the host before the first deploy, as after `graph create`.
  await graphCli(['create', '--node', graph.urls.admin, NAME], folder);
  graphql = await startProxy({ target: graph.urls.graphql, key: ACCESS_KEY, service: {} });
  ipfs = await startProxy({ target: graph.urls.ipfs, key: ACCESS_KEY, service: {} });
  admin = await startProxy({ target: graph.urls.admin, key: ACCESS_KEY, bearer: DEPLOY_KEY, service: { paths: { '/deploy': '/' } } });

  // The DOM renderer puts the terminal's text in the page, where it can be read.
  settingsBefore = fs.readFileSync(settingsFile(), 'utf8');
  fs.writeFileSync(settingsFile(), JSON.stringify({ ...JSON.parse(settingsBefore), 'terminal.integrated.gpuAcceleration': 'off', 'terminal.integrated.fontSize': 10 }, null, 2));

  ({ browser, page } = await startWorkbench());
});

after(async () => {
  if (page) await runCommand(page, 'View: Close All Editors').catch(() => undefined);
  await browser?.close();
  await Promise.all([ipfs?.close(), admin?.close(), graphql?.close()]);
  // Throws when anything of the graph-node is left running (and kills it).
  await graph?.stop();
  // The record the test added goes with the settings as they were.
  if (settingsBefore) fs.writeFileSync(settingsFile(), settingsBefore);
  if (folder) {
    fs.rmSync(path.join(folder, 'node_modules'), { force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

/** Waits for the quick input to show `prompt`, types `text` (if any) and presses Enter. */
async function answer(prompt: string | RegExp, text?: string): Promise<void> {
  await quickInput().filter({ hasText: prompt }).waitFor({ timeout: 15_000 });
  const input = quickInput().locator('input');
  if (text !== undefined) await input.fill(text);
  await input.press('Enter');
}

async function openFile(relative: string, expectLine: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = quickInput().locator('input');
  await input.waitFor();
  await input.fill(relative);
  await quickInput()
    .locator('.monaco-list-row', { hasText: path.basename(relative) })
    .first()
    .waitFor({ timeout: 30_000 });
  await input.press('Enter');
  await page.locator('.editor-group-container .monaco-editor .view-line', { hasText: expectLine }).first().waitFor({ timeout: 30_000 });
}

/**
 * The text of the task terminal once it shows `done` (its last line). The panel is maximized
 * while reading, so every line of the run is in view (the DOM renderer draws only what is).
 */
async function terminalText(done: string | RegExp, shot: string): Promise<string> {
  await terminalRows().filter({ hasText: done }).waitFor({ timeout: 90_000 });
  await runCommand(page, 'View: Toggle Maximized Panel');
  try {
    await page.waitForTimeout(500); // the terminal re-lays out its rows for the new height
    await screenshot(page, shot);
    return (await terminalRows().innerText()).replace(/\u00a0/g, ' ');
  } finally {
    await runCommand(page, 'View: Toggle Maximized Panel');
  }
}

/** Every Chaindeck log file code-server wrote for this run's UI phase (the runner keeps them beside the workspace). */
function logFiles(): string[] {
  const logs = path.join(path.dirname(workspace), 'ui', 'user-data', 'logs');
  if (!fs.existsSync(logs)) return [];
  return (fs.readdirSync(logs, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'Chaindeck.log').map((f) => path.join(logs, f));
}

test('Build from the lens lists the planted compile error in Problems, at its line', () =>
  screenshotOnFailure(page, 'subgraphs-build', async () => {
    await openFile(`${FOLDER}/subgraph.yaml`, 'specVersion');
    await lens('Build').waitFor({ timeout: 30_000 });
    await lens('Build').click();

    const text = await terminalText('graph build failed', 'subgraphs-build-terminal');
    // The visible rows: the compiler's error and the verdict (the command line at the top may have
    // scrolled away under the stack trace; the shown command is unit-tested in graph.cli.test.ts).
    assert.match(text, /TS2305/);
    // The problem as file:line:col, and none of the CLI's stack traces or "compiler crashed" text.
    assert.match(text, /src\/mapping\.ts:4:25 error TS2305: Module 'generated\/schema' has no exported member 'NoSuchEntity'\./);
    assert.doesNotMatch(text, /^\s+at \S/m, 'a stack frame is in the terminal');
    assert.doesNotMatch(text, /EEXIT|compiler crashed|Discord/);

    await page.keyboard.press('Control+Shift+M');
    // Chaindeck's own mapping check may list the same mistake; this is the compiler's, from the build.
    const problem = page.locator('.part.panel .monaco-list-row', { hasText: "has no exported member 'NoSuchEntity'" }).first();
    // Focus can stay in the terminal, which then keeps the key: open Problems from the status bar.
    await problem.waitFor({ timeout: 3_000 }).catch(() => page.locator('[id="status.problems"]').click());
    await problem.waitFor({ timeout: 15_000 });
    const row = (await problem.textContent()) ?? '';
    assert.match(row, /graph.*TS2305/);
    // The marker's position as the Problems panel shows it: line 4 of the mapping.
    assert.match(row, /\[Ln 4, Col \d+\]/);
    assert.match((await page.locator('.part.panel .monaco-list-row', { hasText: 'mapping.ts' }).first().textContent()) ?? '', /mapping\.ts/);
    await screenshot(page, 'subgraphs-problems');
  }));

test('adds a subgraph with keyed URLs and a deploy key, and deploys from the lens: no key in the terminal or the log', () =>
  screenshotOnFailure(page, 'subgraphs-deploy', async () => {
    fs.writeFileSync(mappingFile(), fs.readFileSync(mappingFile(), 'utf8').replace(PLANTED[1], PLANTED[0]));

    await runCommand(page, 'Chaindeck: Add Subgraph');
    await answer("The subgraph's name on the graph-node host", NAME);
    await answer('The project the subgraph belongs to', 'UI project');
    // Quick picks: waited for by an item (their placeholder is no text); Enter takes the one preselected.
    await answer('Ethereum and EVM-compatible chains');
    await answer('mainnet');
    await answer('Indexed on shared infrastructure');
    await answer('The deploy URL', `${admin.url}/deploy`);
    await answer('The IPFS URL', `${ipfs.url}/api/v0`);
    await answer('The query URL', `${graphql.url}/subgraphs/name/${NAME}`);
    await answer('The browser GraphQL UI URL', '');
    await answer('The deploy key', DEPLOY_KEY);
    await page.locator('.notifications-toasts', { hasText: `Added ${NAME}` }).waitFor({ timeout: 15_000 });
    const saved = fs.readFileSync(settingsFile(), 'utf8');
    assert.match(saved, /"deployUrl": "http:\/\/127\.0\.0\.1:\d+\/\{key\}\/deploy"/);
    assert.ok(!saved.includes(ACCESS_KEY) && !saved.includes(DEPLOY_KEY), 'a key is in .vscode/settings.json');

    await openFile(`${FOLDER}/subgraph.yaml`, 'specVersion');
    await lens('Deploy').click();
    await answer(NAME);
    await answer('A free-text label for this deployment', 'v0.0.1');

    // Rows wrap at the terminal's width: joined, a key split over two rows is still found.
    const text = (await terminalText('Deployed: queries at', 'subgraphs-deploy-terminal')).replace(/\n/g, '');
    assert.match(
      text,
      /> graph deploy --node http:\/\/127\.0\.0\.1:\d+\/\{key\}\/deploy --ipfs http:\/\/127\.0\.0\.1:\d+\/\{key\}\/api\/v0 ui\/erc20-approvals --version-label v0\.0\.1 --skip-migrations --deploy-key \{deployKey\}/,
    );
    assert.ok(!text.includes(ACCESS_KEY), 'the access key is in the terminal');
    assert.ok(!text.includes(DEPLOY_KEY), 'the deploy key is in the terminal');
    // The gateway passed the deploy only with the deploy key, and graph-node indexes it to the approvals' block.
    assert.equal(deployCall()?.authorization, `Bearer ${DEPLOY_KEY}`);
    await graph.waitSynced(String(bodyOf(deployCall()!).params?.ipfs_hash), approvals.block);
    await page.locator('.notifications-toasts', { hasText: `Deployed ${NAME} v0.0.1` }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'subgraphs-deployed');

    // The Output log as the user sees it, and every log file of this run.
    await runCommand(page, 'Chaindeck: Show Log');
    const output = page.locator('.part.panel .monaco-editor .view-lines', { hasText: `Deployed ${NAME} v0.0.1` }).first();
    await output.waitFor({ timeout: 15_000 });
    const shown = (await output.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(!shown.includes(ACCESS_KEY) && !shown.includes(DEPLOY_KEY), 'a key is in the Output log');
    const files = logFiles();
    assert.ok(
      files.some((f) => fs.readFileSync(f, 'utf8').includes(`Deployed ${NAME}`)),
      `no log file with the deploy among ${files.length}`,
    );
    for (const file of files) {
      const log = fs.readFileSync(file, 'utf8');
      assert.ok(!log.includes(ACCESS_KEY) && !log.includes(DEPLOY_KEY), `a key is in ${file}`);
    }
    await screenshot(page, 'subgraphs-log');
  }));

test('New Query writes the list query; Run sends it and the results table shows the rows', () =>
  screenshotOnFailure(page, 'subgraphs-query', async () => {
    await openContainer(page, 'Chaindeck');
    const header = viewHeader(page, 'Subgraphs');
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    // Synced to the chain head, which nothing moves while this file runs.
    const chain = localProvider(env('CHAINDECK_TEST_ANVIL_URL'));
    const head = await chain.getBlockNumber().finally(() => chain.destroy());
    await graph.waitSynced(String(bodyOf(deployCall()!).params?.ipfs_hash), head);
    const health = page.locator('.part.sidebar [role="treeitem"]', { hasText: NAME });
    await health.filter({ hasText: `block ${head} · healthy` }).waitFor({ timeout: 20_000 });

    await runCommand(page, 'Chaindeck: New Subgraph Query');
    await answer(NAME);
    await page.locator('.editor-group-container .monaco-editor .view-line', { hasText: 'approvalQueries(first: $first, skip: $skip)' }).first().waitFor({ timeout: 15_000 });
    // The tab says which query it is, not "# @subgraph …" from the first line.
    const tab = (await page.locator('.tabs-container .tab.active').textContent()) ?? '';
    assert.match(tab, /^\s*ApprovalQueries\.graphql/, `the tab reads "${tab}"`);
    assert.doesNotMatch(tab, /@subgraph/);
    await screenshot(page, 'subgraphs-query-tab');
    await lens('Run').waitFor({ timeout: 15_000 });
    await lens('Run').click();

    const frame = webviewFrame(page);
    const cells = frame.locator('[role="gridcell"]');
    await cells.first().waitFor({ timeout: 20_000 });
    const headers = await frame.locator('[role="columnheader"]').allTextContents();
    assert.deepEqual(headers, ['id', 'owner', 'spender', 'value']);
    const firstRow = await frame.locator('.dt-rows .dt-row').first().locator('[role="gridcell"]').allTextContents();
    // The first approval by id, as graph-node indexed it from the chain.
    const first = approvals.records[0];
    assert.deepEqual(firstRow, [first.id, first.owner, first.spender, first.value]);
    assert.equal(firstRow[3], (2n ** 256n - 1n).toString(), 'the BigInt value is whole');
    const summary = frame.locator('.summary');
    assert.match((await summary.textContent()) ?? '', /100 rows/);
    assert.ok(!((await summary.textContent()) ?? '').includes(ACCESS_KEY), 'the key is in the panel');
    await screenshot(page, 'subgraphs-results');

    // The default query pages with $first/$skip: the next page holds the other 30 records.
    await frame.locator('button', { hasText: 'Next' }).click();
    await frame.locator('.page-label', { hasText: 'Page 2' }).waitFor({ timeout: 15_000 });
    await summary.filter({ hasText: '30 rows' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(bodyOf(graphql.requests.at(-1)!).variables, { first: 100, skip: 100 });
    assert.ok(await frame.locator('button', { hasText: 'Next' }).isDisabled(), 'a short page is the last');
    await frame.locator('button', { hasText: 'Previous' }).click();
    await frame.locator('.page-label', { hasText: 'Page 1' }).waitFor({ timeout: 15_000 });
  }));
