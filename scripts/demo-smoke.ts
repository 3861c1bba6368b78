/**
 * `npm run demo -- --smoke`, the browser half: opens the demo's workbench in Debian's Chromium
 * and waits until Chaindeck is active: its Nodes view shows the demo's "Local anvil" node with a
 * latest block read from anvil, and its Subgraphs view the Local Graph Node (started by the
 * extension on the demo's data folder) ready, with the deployment the demo made synced. (That the
 * deployment answers every transfer was checked over HTTP before, by scripts/demo/workspace.ts.)
 * Before the browser: the workspace carries the compiler output (a Hardhat build-info) whose
 * deployed code is what anvil runs at DemoToken and at Points' implementation, and the Points
 * proxy's ERC-1967 implementation slot names that implementation. Then the Testing view lists the
 * gnd test captured from the demo chain under the subgraph.
 * Exits 0, or 1 with what was missing (and a screenshot in test-results/demo-smoke-failure.png).
 *   node --import tsx scripts/demo-smoke.ts WORKBENCH_URL PREPARED_JSON
 */
import { readFileSync } from 'node:fs';
import { matchLayouts } from '../src/core/storage/deployedCode';
import { parseHardhatBuildInfo } from '../src/core/storage/layout';
import { activityItem, launchBrowser, openContainer, openWorkbench, screenshotOnFailure } from '../test/workbench/ui/workbench';

const TIMEOUT_MS = 240_000;
const [url, preparedFile] = process.argv.slice(2);
if (!url || !preparedFile || process.argv.length > 4) {
  console.error('usage: node --import tsx scripts/demo-smoke.ts WORKBENCH_URL PREPARED_JSON');
  process.exit(2);
}
/** What scripts/demo/workspace.ts deployed. */
const prepared = JSON.parse(readFileSync(preparedFile, 'utf8')) as {
  name: string;
  deployment: string;
  transfers: number;
  rpc: string;
  token: string;
  points: { proxy: string; implementation: string };
  buildInfo: string;
  testFile: string;
};

/** ERC-1967's implementation slot: bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1). */
const IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(prepared.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error || body.result === undefined) throw new Error(`${method} failed: ${body.error?.message ?? 'no result'}`);
  return body.result;
}

/** The compiler output in the workspace names what anvil runs, and the proxy points at Points. */
async function contracts(): Promise<string> {
  const layouts = parseHardhatBuildInfo(JSON.parse(readFileSync(prepared.buildInfo, 'utf8')), prepared.buildInfo);
  const names = async (address: string) => matchLayouts(layouts, await rpc<string>('eth_getCode', [address, 'latest'])).map((l) => l.contractName);
  const token = await names(prepared.token);
  if (!token.includes('DemoToken')) throw new Error(`the build-info has no DemoToken whose deployed code is at ${prepared.token} (matched: ${token.join(', ') || 'none'})`);
  const slot = await rpc<string>('eth_getStorageAt', [prepared.points.proxy, IMPLEMENTATION_SLOT, 'latest']);
  if (BigInt(slot) !== BigInt(prepared.points.implementation)) throw new Error(`the proxy ${prepared.points.proxy} names implementation ${slot}, not ${prepared.points.implementation}`);
  const points = await names(prepared.points.implementation);
  if (!points.includes('Points')) throw new Error(`the build-info has no Points whose deployed code is at ${prepared.points.implementation} (matched: ${points.join(', ') || 'none'})`);
  return `the build-info names DemoToken at ${prepared.token} and Points at ${prepared.points.implementation}, behind the proxy ${prepared.points.proxy}`;
}

async function smoke(): Promise<string> {
  const browser = await launchBrowser();
  try {
    const page = await openWorkbench(browser, url);
    return await screenshotOnFailure(page, 'demo-smoke', async () => {
      await openContainer(page, 'Chaindeck');
      const row = (text: string) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text }).first();
      await row('Local anvil').waitFor({ timeout: 60_000 });
      await row('Local anvil').click();
      const block = row('Latest block');
      await block.waitFor({ timeout: 60_000 });
      const latest = ((await block.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (!/\d/.test(latest)) throw new Error(`the Local anvil node shows no block number: "${latest}"`);

      // The extension started the local graph-node on open (autoStart) with the demo's deployment back.
      await row('Local Graph Node').filter({ hasText: 'ready' }).waitFor({ timeout: 120_000 });
      // It has children once the index node named the deployment; made before that, it stays collapsed.
      const expandable = page.locator('.part.sidebar [role="treeitem"][aria-expanded]', { hasText: 'Local Graph Node' }).first();
      await expandable.waitFor({ timeout: 60_000 });
      if ((await expandable.getAttribute('aria-expanded')) === 'false') await expandable.click();
      // Its row: its names (unnamed: its whole id) and "synced · #N · K entities" (a deployment not healthy says "failed" or "unhealthy" in place of synced).
      const deployment = page
        .locator('.part.sidebar [role="treeitem"]')
        .filter({ hasText: new RegExp(`${prepared.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|${prepared.deployment}`) })
        .filter({ hasText: /synced · #\d+/ })
        .first();
      await deployment.waitFor({ timeout: 60_000 });
      const shown = ((await deployment.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      const named = shown.includes(prepared.name) ? `named ${prepared.name}` : `not named ${prepared.name} in the tree`;

      // The Testing view lists the test captured from the demo chain, by its name, under the subgraph.
      const test = JSON.parse(readFileSync(prepared.testFile, 'utf8')) as { name: string };
      await activityItem(page, 'Testing').click();
      const testRow = (text: string) => page.locator('.part.sidebar .test-explorer [role="treeitem"]', { hasText: text }).first();
      const manifest = testRow('subgraph/subgraph.yaml');
      await manifest.waitFor({ timeout: 60_000 });
      if ((await manifest.getAttribute('aria-expanded')) === 'false') await manifest.click();
      await testRow(test.name).waitFor({ timeout: 30_000 });
      return `Local anvil shows "${latest}"; Local Graph Node ready with ${prepared.deployment} (${named}): "${shown}"; the Testing view lists "${test.name}"`;
    });
  } finally {
    await browser.close();
  }
}

let timer: NodeJS.Timeout | undefined;
const timeout = new Promise<never>((_, reject) => {
  timer = setTimeout(() => reject(new Error(`Chaindeck did not show the Local anvil node and the Local Graph Node with the deployment within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
});
Promise.race([contracts().then(async (deployed) => [deployed, await smoke()]), timeout]).then(
  ([deployed, seen]) => {
    clearTimeout(timer);
    console.log(`[demo] smoke: ${deployed}; ${prepared.transfers} transfers answered by ${prepared.name}; Chaindeck is active: ${seen}`);
  },
  (err: Error) => {
    console.error(`[demo] smoke FAILED: ${err.message}`);
    process.exit(1);
  },
);
