// Server actions called by id with arguments no form of ours sends, on a production server: every
// action of the build (read from its manifest, so a new action is covered without a change here), in
// every shape a probe used. A call Next.js could not decode (an argument list that is no JSON list,
// a reference to nothing) is refused by proxy.ts (400, plain text); a list whose arguments are not (state, form data) or (form data) by the action's own check
// (lib/session/action-arguments.ts: 403, or Next.js's 404 page for a post without JavaScript), with one
// log line naming the action. Never a 500, never a stack.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, TEST_DIST_DIR, type TestServer } from '../support/http-server';
import { formData } from '../support/page-actions';
import { ERROR_IN_LOG } from '../support/log-lines';

/** The actions that useActionState calls with (state, form data); the others take the form data alone. */
const STATEFUL = ['confirmPasswordAction', 'createKeyAction', 'editKeyAction', 'rotateKeyAction', 'signInAction'];
const STATELESS = ['revokeAllAppsAction', 'revokeAppAction', 'revokeAppFromDetailAction', 'revokeKeyAction', 'signOutAction'];
const UNREADABLE = 'The form could not be read: nothing was changed.';

let server: TestServer;
/** Every server action of the build, by name: its id and a page that serves it (Next.js finds an action through the page posted to). */
let actions: Map<string, { id: string; page: string }>;

/** A worker's page address (`app/(settings)/settings/api-keys/page` is `/settings/api-keys`), null for a dynamic one. */
function pageAddress(worker: string): string | null {
  const address = worker.replace(/^app/, '').replace(/\/page$/, '').replace(/\/\([^)]*\)/g, '');
  return address.includes('[') ? null : address || '/';
}

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../..', TEST_DIST_DIR, 'server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName: string; workers: Record<string, unknown> }>;
  };
  actions = new Map(
    Object.entries(manifest.node).map(([id, entry]) => [entry.exportedName, { id, page: Object.keys(entry.workers).map(pageAddress).find(Boolean)! }]),
  );
}, 600_000);

afterAll(async () => {
  expect(server?.logs()).not.toMatch(ERROR_IN_LOG);
  await server?.stop();
});

/** Posts to a page of `action` (no session: the arguments are checked before anything else). */
function post(action: string, body: BodyInit, headers: Record<string, string>): Promise<Response> {
  const { page } = actions.get(action)!;
  return fetch(new URL(page, server.origin), { method: 'POST', body, headers: { origin: server.origin, ...headers }, redirect: 'manual' });
}

/** The server's log lines printed while `send` ran. */
async function logged(send: () => Promise<Response>): Promise<{ response: Response; body: ArrayBuffer; lines: string[] }> {
  const before = server.logs().length;
  const response = await send();
  const body = await response.arrayBuffer();
  // The line is printed before the answer is written; give the pipe a moment to deliver it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { response, body, lines: server.logs().slice(before).split('\n').filter(Boolean) };
}

function refusalLine(name: string): RegExp {
  return new RegExp(`^\\[server action\\] ${name}: refused a malformed call \\(.+\\); nothing was changed\\.$`);
}

it('covers every server action of the build', () => {
  expect([...actions.keys()].sort()).toEqual([...STATEFUL, ...STATELESS].sort());
});

describe.each([...STATEFUL, ...STATELESS])('%s', (name) => {
  it.each(['[]', '[{}]', '[{},{}]', '[null,null]', '["x",{}]'])('called by a script with the argument list %s is refused 403, logged in one line', async (list) => {
    const { response, lines } = await logged(() => post(name, list, { 'next-action': actions.get(name)!.id, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' }));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/x-component');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(refusalLine(name));
  });

  it('called by a script with form data whose argument list holds no form is refused 403', async () => {
    const body = formData([['1_email', 'admin@demo.agency'], ['1_password', 'demo-password'], ['0', '[{}]']]);
    const { response, lines } = await logged(() => post(name, body, { 'next-action': actions.get(name)!.id, accept: 'text/x-component' }));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/x-component');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(refusalLine(name));
  });

  it.each(['[', '"x"', '{}', '3', 'null', '[{},"$Q5"]', '[{},"$@5"]', '[{},"$h1"]', '[{},"$n1x"]'])('called by a script with the argument list %s in form data is refused 400 before it runs', async (list) => {
    const { response, body, lines } = await logged(() => post(name, formData([['0', list]]), { 'next-action': actions.get(name)!.id }));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(new TextDecoder().decode(body)).toBe(UNREADABLE);
    expect(lines).toEqual([]);
  });

  it('called by a script with form data and no argument list is refused 400 before it runs', async () => {
    const { response, body, lines } = await logged(() => post(name, formData([['1_email', 'a@b.c']]), { 'next-action': actions.get(name)!.id }));
    expect([response.status, response.headers.get('content-type'), new TextDecoder().decode(body)]).toEqual([400, 'text/plain; charset=utf-8', UNREADABLE]);
    expect(lines).toEqual([]);
  });

  it.each([
    ['a head that does not parse', () => [['$ACTION_1:0', '{']]],
    ['bound arguments in a part that is not there', (id: string) => [['$ACTION_1:0', JSON.stringify({ id, bound: '$@9' })]]],
    ['bound arguments that do not parse', (id: string) => [['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '{']]],
  ] as [string, (id: string) => [string, string][]][])('posted without JavaScript with %s is refused 400 before it runs', async (_label, fields) => {
    const body = formData([['$ACTION_REF_1', ''], ...fields(actions.get(name)!.id), ['$ACTION_KEY', 'k1'], ['email', 'admin@demo.agency']]);
    const { response, body: answer, lines } = await logged(() => post(name, body, {}));
    expect([response.status, response.headers.get('content-type'), new TextDecoder().decode(answer)]).toEqual([400, 'text/plain; charset=utf-8', UNREADABLE]);
    expect(lines).toEqual([]);
  });

  it('posted without JavaScript with arguments it does not take is refused with the not-found page, logged in one line', async () => {
    const { id } = actions.get(name)!;
    // A stateful action named alone gets the form data as its state; a stateless one bound to a state gets that as its form data.
    const fields: [string, string][] = STATEFUL.includes(name)
      ? [[`$ACTION_ID_${id}`, '']]
      : [['$ACTION_REF_1', ''], ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })], ['$ACTION_1:1', '[{}]'], ['$ACTION_KEY', 'k1']];
    const { response, lines } = await logged(() => post(name, formData([...fields, ['email', 'admin@demo.agency'], ['password', 'demo-password']]), {}));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(refusalLine(name));
  });
});
