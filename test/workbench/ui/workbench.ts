/**
 * Helpers for UI tests against a real code-server workbench in headless Chromium. The runner
 * (scripts/workbench/run.mjs) starts code-server with the packaged extension and passes the
 * workbench URL (with ?folder=) in CHAINDECK_TEST_WORKBENCH_URL.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';

const root = path.resolve(__dirname, '..', '..', '..');
export const resultsDir = path.join(root, 'test-results');

// Without the background-networking flags Chromium floods the closed network with retries.
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A variable the runner sets; fails, naming it, when the test is run some other way. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run through scripts/workbench/run.mjs`);
  return value;
}

export function workbenchUrl(): string {
  return env('CHAINDECK_TEST_WORKBENCH_URL');
}

/** One JSON-RPC call to the runner's anvil; its result, or an error naming the method. */
export async function anvil(method: string, params: unknown[]): Promise<unknown> {
  const reply = await fetch(env('CHAINDECK_TEST_ANVIL_URL'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await reply.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** `ownSignals`: leave SIGINT/SIGTERM to the caller (Playwright would otherwise exit first). */
export function launchBrowser(ownSignals = false): Promise<Browser> {
  const signals = ownSignals ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {};
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS, ...signals });
}

/** Opens the workbench and waits until the extension's activity-bar entry is there. */
export async function openWorkbench(browser: Browser, url = workbenchUrl()): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await activityItem(page, 'Chaindeck').waitFor({ timeout: 60_000 });
  return page;
}

/** Launches the browser and opens the workbench in it; should opening fail, the browser is closed again. */
export async function startWorkbench(): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  try {
    return { browser, page: await openWorkbench(browser) };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

export function activityItem(page: Page, title: string): Locator {
  return page.locator(`.part.activitybar .action-item [aria-label^="${title}"]`).first();
}

/** Opens a view container from the activity bar (no-op if it is already open). */
export async function openContainer(page: Page, title = 'Chaindeck'): Promise<Locator> {
  const sidebar = page.locator('.part.sidebar');
  const header = sidebar.locator('.composite.title', { hasText: new RegExp(title, 'i') });
  if (!(await header.isVisible())) await activityItem(page, title).click();
  await header.waitFor();
  return sidebar;
}

/** The header of a view (pane) in the side bar, by its name. */
export function viewHeader(page: Page, name: string): Locator {
  return page.locator('.part.sidebar .pane-header', { has: page.locator('h3.title', { hasText: new RegExp(`^${name}$`) }) });
}

/** Runs a command from the palette by its title, e.g. 'Chaindeck: Show Log'. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // A quick pick that is still closing (or an editor taking focus) can swallow F1, leaving the
  // old, hidden input: press it again until the palette is really open.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    try {
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
  // Click the row labelled exactly so: Enter runs whichever row the palette focused, which is
  // not always this one while the list still filters. (The widget may stay open: many commands
  // ask their next question in it.)
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.getByText(title, { exact: true }) });
  await row.first().click();
}

/** The content frame of the active webview (webviews are two nested iframes). */
export function webviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Saves a screenshot to test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Runs `fn`; if it throws, saves test-results/<name>-failure.png first (for diagnosis). */
export async function screenshotOnFailure<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await screenshot(page, `${name}-failure`).catch(() => undefined);
    throw err;
  }
}
