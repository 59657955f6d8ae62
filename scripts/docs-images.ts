// `npx tsx scripts/docs-images.ts [base-url]`: the screenshots of docs/connect.md, taken with Playwright
// on Debian's Chromium from a running server (default http://localhost:3000, `npm run demo`'s): the
// front page's "Connect your client" section (Claude Code open at 390 px, Cursor at 1280 px) and the
// 404 page, at 390 and 1280 px, into docs/images/. Nothing is signed in, so the pages look as a
// newcomer first sees them.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from '@playwright/test';

const OUT = path.join(import.meta.dirname, '..', 'docs', 'images');
/** Each width, and the client whose guide is open in its screenshot. */
const SHOTS = [
  { width: 390, client: 'claude-code' },
  { width: 1280, client: 'cursor' },
] as const;

const base = process.argv[2] ?? 'http://localhost:3000';
await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const { width, client } of SHOTS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(new URL('/', base).href);
    await page.locator(`#connect-${client} summary`).click();
    // From the top of the whole page, so that the sticky header is not over the section.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await page.locator('#connect').boundingBox())!;
    const margin = 8;
    await page.screenshot({
      path: path.join(OUT, `connect-${width}.png`),
      fullPage: true,
      clip: { x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin, height: box.height + 2 * margin },
    });
    const missing = await page.goto(new URL('/no-such-page', base).href);
    if (missing?.status() !== 404) throw new Error(`/no-such-page answered ${missing?.status()}, not 404`);
    await page.screenshot({ path: path.join(OUT, `not-found-${width}.png`), fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`Screenshots of ${base} written to ${path.relative(process.cwd(), OUT)}/`);
