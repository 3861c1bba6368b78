// Renders the Marketplace icon media/icon.png (128×128 PNG: the Marketplace takes no SVG) from
// the activity-bar icon media/chaindeck.svg, drawn white on a rounded tile. Uses the Chromium
// and playwright-core the workbench tests already need.   node scripts/icon.mjs
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const svg = readFileSync(`${root}/media/chaindeck.svg`, 'utf8').replaceAll('currentColor', '#ffffff');
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:128px;height:128px;border-radius:24px;background:linear-gradient(135deg,#0f766e,#1e3a8a);display:flex;align-items:center;justify-content:center">
<div style="width:96px;height:96px">${svg.replace('width="24" height="24"', 'width="96" height="96"')}</div></div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: `${root}/media/icon.png`, omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png');
