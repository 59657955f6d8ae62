// The sign-in form refuses control characters and over-long values with a message on the field: in
// the browser, and for a hand-made post of the form (no browser checks in the way), never a 500.
// A post over the server-action body limit (1 MiB) never reaches the action: proxy.ts answers it 413
// before Next.js's own limit would answer it with a 500.
import { expect, test } from './support/fixtures';
import { DEMO_PASSWORD, serverActionFields } from './support/app';
import { ERROR_IN_LOG, loggedDuring } from './support/server-log';

test('a control character in the email is answered on the field, and nobody is signed in', async ({ page, context }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('admin\u0001@demo.agency');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('#email-error')).toHaveText('The email address must not contain control characters.');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).filter((c) => c.name === 'metrics_session')).toHaveLength(0);
});

test('a posted form with a NUL byte, a 512 KB email, a 2,000-character password or a tab gets the page with its messages', async ({ page }) => {
  await page.goto('/login');
  const fields = await serverActionFields(page, 'form');
  const answers = await page.evaluate(
    async ({ fields, password }) => {
      const post = async (email: string, pass: string) => {
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, value);
        form.append('email', email);
        form.append('password', pass);
        const response = await fetch('/login', { method: 'POST', body: form });
        return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
      };
      return [
        await post('admin\u0000@demo.agency', password),
        await post(`${'a'.repeat(512 * 1024)}@demo.agency`, password),
        await post('admin@demo.agency', 'p'.repeat(2000)),
        await post('admin@demo.agency', `demo\tpassword`),
      ];
    },
    { fields, password: DEMO_PASSWORD },
  );
  const expected = [
    'The email address must not contain control characters.',
    'An email address has at most 254 characters.',
    'A password has at most 1,024 characters.',
    'The password must not contain control characters.',
  ];
  answers.forEach((answer, i) => {
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('text/html; charset=utf-8');
    expect(answer.html).toContain(expected[i]);
  });
});

test('a form post over 1 MiB is refused with 413 before any action runs, and nothing is logged', async ({ page }) => {
  await page.goto('/login');
  const fields = await serverActionFields(page, 'form');
  const { result: answer, log } = await loggedDuring(() =>
    page.evaluate(async (fields) => {
      const form = new FormData();
      for (const [name, value] of fields) form.append(name, value);
      form.append('email', `${'a'.repeat(2 * 1024 * 1024)}@demo.agency`);
      form.append('password', 'x');
      const response = await fetch('/login', { method: 'POST', body: form });
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    }, fields),
  );
  expect(answer).toEqual({
    status: 413,
    type: 'text/plain; charset=utf-8',
    text: 'A form post must be at most 1024 KiB, sent without pause: nothing was changed.',
  });
  expect(log).not.toMatch(ERROR_IN_LOG);
});
