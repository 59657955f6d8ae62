// What the browser tests share: the seeded people, direct database reads for expectations, sign-in,
// screenshots saved as artifacts, and the hidden fields that address a server action.
import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export const DEMO_PASSWORD = 'demo-password';
export const ADMIN = { email: 'admin@demo.agency' };
export const MEMBER = { email: 'member@demo.agency' };
export const OTHER_ORG_ADMIN = { email: 'admin@other.agency' };

const SCREENSHOT_DIR = 'test-results/screenshots';

/** One query on the test database (an independent view of what the app did). */
export async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function userOrg(email: string): Promise<{ userId: string; userName: string; orgId: string; role: string }> {
  const [row] = await query<{ userId: string; userName: string; orgId: string; role: string }>(
    `SELECT u.id AS "userId", u.name AS "userName", m.org_id AS "orgId", m.role::text AS role
       FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE u.email = $1 ORDER BY m.created_at LIMIT 1`,
    [email],
  );
  if (!row) throw new Error(`No seeded user ${email}`);
  return row;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
}

/**
 * Axe over the page as it is now, reporting its violations only: the tests read nothing else. By default
 * axe also works out a selector for every node that passes each rule, and runs frame by frame before
 * merging the results in a blank page of its own; on the API reference with every operation rendered
 * (12,000 elements) that took 66 s instead of 17 s. The site's pages have no frames to walk into.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

/** Axe finds nothing on the page as it is now (a dynamic page's title streams in after its shell: checked once it has arrived). */
export async function expectAxeClean(page: Page): Promise<void> {
  await expect(page).toHaveTitle(/\S/);
  const results = await axe(page).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Ends the browser's dashboard session in the database, as its expiry would: the cookie stays, the session is gone. */
export async function endSessionInDatabase(context: BrowserContext): Promise<void> {
  const [cookie] = (await context.cookies()).filter((c) => c.name === 'metrics_session');
  expect(cookie, 'a session cookie').toBeDefined();
  const hash = createHash('sha256').update(cookie!.value).digest('hex');
  expect(await query('DELETE FROM dashboard_sessions WHERE token_hash = $1 RETURNING 1', [hash])).toHaveLength(1);
}

export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/**
 * The hidden fields with which a form addresses its server action (`$ACTION_…`), as the server renders
 * them for submission without JavaScript. Read from the page's HTML as any visitor (or attacker) can:
 * action ids are public, which is why they are no protection.
 */
export async function serverActionFields(page: Page, formSelector: string): Promise<[string, string][]> {
  const fields = await page.evaluate(async (selector) => {
    const html = await (await fetch(location.href)).text();
    const form = new DOMParser().parseFromString(html, 'text/html').querySelector<HTMLFormElement>(selector);
    if (!form) return [];
    return [...new FormData(form).entries()].filter(([name]) => name.startsWith('$ACTION')).map(([name, value]) => [name, String(value)] as [string, string]);
  }, formSelector);
  expect(fields.length, `server action fields of ${formSelector}`).toBeGreaterThan(0);
  return fields;
}

/**
 * Everything `selector` matches (by default every link and button inside a table) is wholly in view
 * sideways: inside the window, and inside every box around it that clips (a table wider than its
 * scrolling box hides what is past the box's edge: a Revoke button shown as a sliver); and the page
 * itself does not scroll sideways. Hidden elements (the buttons of a closed dialog) are left out.
 * Returns how many elements were checked.
 */
export async function expectInViewSideways(page: Page, what: string, selector = 'table :is(a[href], button)'): Promise<number> {
  const { problems, checked } = await page.evaluate((selector) => {
    const problems: string[] = [];
    const elements = [...document.querySelectorAll<HTMLElement>(selector)].filter((element) => element.checkVisibility());
    for (const element of elements) {
      const at = element.getBoundingClientRect();
      const name = `${element.tagName.toLowerCase()} “${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60)}”`;
      if (at.left < 0 || at.right > innerWidth) problems.push(`${name}: ${Math.round(at.left)} to ${Math.round(at.right)} in a window ${innerWidth} px wide`);
      for (let box = element.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX === 'visible') continue;
        const left = box.getBoundingClientRect().left + box.clientLeft;
        if (at.left < left - 0.5 || at.right > left + box.clientWidth + 0.5) problems.push(`${name}: cut off by its box .${box.className}`);
      }
    }
    const pageWidth = document.scrollingElement!.scrollWidth;
    if (pageWidth > innerWidth) problems.push(`the page scrolls sideways: ${pageWidth} px in a window ${innerWidth} px wide`);
    return { problems, checked: elements.length };
  }, selector);
  expect(problems, what).toEqual([]);
  return checked;
}
