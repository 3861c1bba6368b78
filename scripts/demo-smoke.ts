/**
 * `npm run demo -- --smoke`, the browser half: opens the demo's workbench in Debian's Chromium
 * and waits until Chaindeck is active: its Nodes view shows the demo's "Local anvil" node with a
 * latest block read from anvil, and its Subgraphs view the Local Graph Node (started by the
 * extension on the demo's data folder) ready, with the deployment the demo made synced. (That the
 * deployment answers every transfer was checked over HTTP before, by scripts/demo/workspace.ts.)
 * Exits 0, or 1 with what was missing (and a screenshot in test-results/demo-smoke-failure.png).
 *   node --import tsx scripts/demo-smoke.ts WORKBENCH_URL PREPARED_JSON
 */
import { readFileSync } from 'node:fs';
import { launchBrowser, openContainer, openWorkbench, screenshotOnFailure } from '../test/workbench/ui/workbench';

const TIMEOUT_MS = 240_000;
const [url, preparedFile] = process.argv.slice(2);
if (!url || !preparedFile || process.argv.length > 4) {
  console.error('usage: node --import tsx scripts/demo-smoke.ts WORKBENCH_URL PREPARED_JSON');
  process.exit(2);
}
/** What scripts/demo/workspace.ts deployed. */
const prepared = JSON.parse(readFileSync(preparedFile, 'utf8')) as { name: string; deployment: string; transfers: number };

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
      return `Local anvil shows "${latest}"; Local Graph Node ready with ${prepared.deployment} (${named}): "${shown}"`;
    });
  } finally {
    await browser.close();
  }
}

let timer: NodeJS.Timeout | undefined;
const timeout = new Promise<never>((_, reject) => {
  timer = setTimeout(() => reject(new Error(`Chaindeck did not show the Local anvil node and the Local Graph Node with the deployment within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
});
Promise.race([smoke(), timeout]).then(
  (seen) => {
    clearTimeout(timer);
    console.log(`[demo] smoke: ${prepared.transfers} transfers answered by ${prepared.name}; Chaindeck is active: ${seen}`);
  },
  (err: Error) => {
    console.error(`[demo] smoke FAILED: ${err.message}`);
    process.exit(1);
  },
);
