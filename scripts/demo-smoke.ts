/**
 * `npm run demo -- --smoke`, the browser half: opens the demo's workbench in Debian's Chromium
 * and waits until Chaindeck is active, i.e. its Nodes view shows the demo's "Local anvil" node
 * with a latest block read from anvil. Exits 0, or 1 with what was missing (and a screenshot in
 * test-results/demo-smoke-failure.png).   node --import tsx scripts/demo-smoke.ts WORKBENCH_URL
 */
import { launchBrowser, openContainer, openWorkbench, screenshotOnFailure } from '../test/workbench/ui/workbench';

const TIMEOUT_MS = 180_000;
const url = process.argv[2];
if (!url || process.argv.length > 3) {
  console.error('usage: node --import tsx scripts/demo-smoke.ts WORKBENCH_URL');
  process.exit(2);
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
      const text = ((await block.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      if (!/\d/.test(text)) throw new Error(`the Local anvil node shows no block number: "${text}"`);
      return text;
    });
  } finally {
    await browser.close();
  }
}

let timer: NodeJS.Timeout | undefined;
const timeout = new Promise<never>((_, reject) => {
  timer = setTimeout(() => reject(new Error(`Chaindeck did not show the Local anvil node within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
});
Promise.race([smoke(), timeout]).then(
  (block) => {
    clearTimeout(timer);
    console.log(`[demo] smoke: Chaindeck is active, Local anvil shows "${block}"`);
  },
  (err: Error) => {
    console.error(`[demo] smoke FAILED: ${err.message}`);
    process.exit(1);
  },
);
