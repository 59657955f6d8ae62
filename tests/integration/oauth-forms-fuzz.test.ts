// The fuzz suite of the OAuth endpoints and the pages' forms (the REST interface has its own,
// platform-fuzz.test.ts): property-based requests on a real server and database.
//
// Targets: authorize (query or form, and the resume step), token, revoke and register; the consent
// screen and its decision; the sign-in and create-key forms posted as server actions, in both shapes
// (without JavaScript, and as React sends them), sometimes with arguments no form sends; the request
// log's pages with the filters and cursors of their address. Each request
// starts from a valid one (a registered client, a live consent interaction, a signed-in admin with the
// CSRF token of the session) and is mostly mutated with hostile values: control characters, invisible
// characters (text-direction controls, zero-width and other format characters), broken
// percent-encoding, values at and beyond the length caps, unknown and renamed parameters, metadata with
// odd types and keys, JSON nested up to 20,000 deep, other content types, and odd headers (Origin,
// X-Forwarded-Host, Authorization, Cookie).
//
// The expected answer is worked out here from the request: a parameter or metadata value the input
// rules refuse is exactly a 400 in the OAuth error shape (the error page for authorize, JSON with
// invalid_request or invalid_client_metadata elsewhere); a form post whose Origin is not this server
// (X-Forwarded-Host stands for the host, as the server runs with TRUST_PROXY=1) is exactly the 403 of
// the origin check. Anything else may be any answer but a 5xx. Every answer must come within
// REQUEST_TIMEOUT_MS, the server must print no error, and no key may be made with a name the key form
// refuses.
//
// Reproduce a run: FUZZ_SEED=<seed> npx vitest run tests/integration/oauth-forms-fuzz.test.ts
// (the seed is printed by every run; a failure prints the command with its FUZZ_PATH as well).
import fc from 'fast-check';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { MAX_BODY_BYTES } from '@/lib/http/body';
import { OAUTH_INPUT_CAPS } from '@/lib/oauth/request-rules';
import { KEY_NAME_MAX } from '@/lib/settings/key-form';
import { csrfTokenFor } from '@/lib/session/tokens';
import { BROKEN_ENCODINGS, CONTROLS, DIRECTION_CONTROLS, encode, INVISIBLES, FUZZ_PATH as PATH, FUZZ_SEED as SEED, TEXTS } from '../support/fuzz-values';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { authorizationUrl, CookieJar, discover, register, sessionOf } from '../support/oauth-flow';
import { actionPost, pageAction, type MalformedCall, type PageAction, type PostShape } from '../support/page-actions';
import { newOrganisationAdmin } from './platform-support';
import { ERROR_IN_LOG } from '../support/log-lines';

const BATCH = 8;
/** Node's HTTP parser refuses request heads over 16 KiB (431) before the app sees them. */
const MAX_HEAD = 12_000;
const CONCURRENCY = 4;
/** A bound on every answer, not a speed target: a request that hangs fails the run. */
const REQUEST_TIMEOUT_MS = 15_000;
const REDIRECT = 'http://127.0.0.1:43117/callback';
const FORM_REFUSED = 'Cross-origin form submission refused: nothing was changed.';
const CONSENT_REFUSED = 'Cross-origin form submission refused.';
const PATH_REFUSED = 'The address could not be read: its percent-encoding is not valid UTF-8.';
const FORM_UNREADABLE = 'The form could not be read: nothing was changed.';

// ───────────── the rules, restated ─────────────

const CONTROL_OR_SURROGATE = /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u;
/** Invisible characters: format characters (text-direction controls among them) and line and paragraph separators; an emoji's joiner aside. */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}]/u;
const invisibleIn = (text: string) => INVISIBLE.test(text.replace(/(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu, ''));
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

const badText = (text: string) => CONTROL_OR_SURROGATE.test(text) || text.length > OAUTH_INPUT_CAPS.value;
const badParameters = (params: URLSearchParams) => [...params].some(([name, value]) => badText(name) || badText(value));
/**
 * The query as the app reads it. Next.js copies the query into a plain object before the routes see
 * it, so a parameter named `__proto__` is lost on the way (vercel/next.js#97435): nothing reads it.
 */
function queryOf(path: string): URLSearchParams {
  const params = new URL(`http://fuzz.invalid${path}`).searchParams;
  params.delete('__proto__');
  return params;
}

/** How deep a parsed JSON value nests (without recursion: it may be 20,000 deep). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Whether any string or object key inside `value` is refused. */
function holdsBadText(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && badText(item)) return true;
    if (typeof item !== 'object' || item === null) continue;
    if (!Array.isArray(item) && Object.keys(item).some(badText)) return true;
    stack.push(...Object.values(item));
  }
  return false;
}

const badClientName = (value: unknown) =>
  typeof value !== 'string' || CONTROL_OR_SURROGATE.test(value) || invisibleIn(value) || value.length > OAUTH_INPUT_CAPS.clientName;

/** Whether a registration body is refused as invalid_client_metadata before the provider sees it. */
function badRegistration(text: string): boolean {
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch {
    return true;
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || depthOf(metadata) > OAUTH_INPUT_CAPS.jsonDepth) return true;
  return Object.entries(metadata).some(([field, value]) =>
    badText(field) || (field === 'client_name' || field.startsWith('client_name#') ? badClientName(value) : holdsBadText(value)),
  );
}

/** Whether a path (without its query) decodes, as Next.js decodes a route's dynamic segments. */
function pathDecodes(path: string): boolean {
  try {
    decodeURIComponent(path.split('?')[0]!);
    return true;
  } catch {
    return false;
  }
}

/** Whether a request's Origin is this server, with X-Forwarded-Host standing for the host (TRUST_PROXY=1). */
function sameOrigin(headers: Record<string, string>): boolean {
  const origin = headers.origin?.trim();
  const forwarded = headers['x-forwarded-host']?.split(',')[0]!.trim();
  const host = (forwarded || new URL(server.origin).host).toLowerCase();
  return !!origin && origin !== 'null' && URL.parse(origin)?.host.toLowerCase() === host;
}

// ───────────── requests ─────────────

type Body =
  | { kind: 'text'; text: string; type?: string }
  /** A page form's fields, posted to its server action in `shape`; `type` replaces the content type. */
  | { kind: 'action'; form: 'signIn' | 'createKey'; fields: [string, string][]; shape: PostShape; type?: string; malformed?: MalformedCall };

interface FuzzRequest {
  method: 'GET' | 'POST';
  /** Path and raw query. */
  path: string;
  headers: Record<string, string>;
  body?: Body;
}

type Expected =
  | { refused: 'page' }
  | { refused: 'json'; error: string }
  | { refused: 'text'; status: 400 | 403; text: string }
  | { refused: false };

interface Case {
  request: FuzzRequest;
  expected: Expected;
}

// ───────────── hostile values ─────────────

/** Raw (encoded) hostile values for a query or form parameter whose raw value is `current`. */
function hostileRaw(current: string): fc.Arbitrary<string> {
  const cap = OAUTH_INPUT_CAPS.value;
  return fc.oneof(
    fc.tuple(fc.constantFrom(...CONTROLS), fc.constantFrom('prefix', 'suffix', 'alone')).map(([control, where]) => ({ prefix: control + current, suffix: current + control, alone: control })[where]!),
    fc.constantFrom(...BROKEN_ENCODINGS).map((broken) => current + broken),
    fc.constantFrom(...DIRECTION_CONTROLS, ...INVISIBLES).map((control) => current + encode(control)),
    fc.constantFrom(cap - 1, cap, cap + 1, 5_000).map((length) => 'x'.repeat(length)),
    fc.constantFrom(...TEXTS).map(encode),
    fc.string({ unit: 'binary', maxLength: 30 }).map(encode),
    fc.constant(''),
  );
}

/** Texts (not encoded) for form fields and names a person reads. */
const hostileText = fc.oneof(
  fc.tuple(fc.constantFrom('\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f'), fc.constantFrom('Fuzz ', '')).map(([control, text]) => `${text}${control}x`),
  fc.constantFrom(...DIRECTION_CONTROLS, ...INVISIBLES).map((control) => `Backup${control}txt.exe`),
  fc.constantFrom(...TEXTS),
  fc.tuple(fc.constantFrom(99, 100, 101, 255, 256, 1_000, 10_000), fc.constantFrom('k', 'é', '😀')).map(([length, char]) => char.repeat(length)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant(''),
);

/** Mostly the usual text, else a hostile one: a request with several fields is still often valid. */
const fieldText = (usual: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: hostileText });

type Piece = [name: string, value: string];

/** Zero to three changes to a list of raw pieces: a hostile value, a repeat, a drop, a renamed or unknown parameter. */
function mutatedPieces(pieces: Piece[]): fc.Arbitrary<Piece[]> {
  const at = fc.nat(pieces.length - 1);
  const change = fc.oneof(
    at.chain((index) => hostileRaw(pieces[index]![1]).map((value) => (list: Piece[]) => list.map((piece, i): Piece => (i === index ? [piece[0], value] : piece)))),
    at.map((index) => (list: Piece[]) => [...list, list[Math.min(index, list.length - 1)] ?? ['again', 'x']]),
    at.map((index) => (list: Piece[]) => list.filter((_, i) => i !== index)),
    fc.tuple(at, fc.constantFrom('%00', '%20', '%0A', '[]')).map(([index, suffix]) => (list: Piece[]) => list.map((piece, i): Piece => (i === index ? [piece[0] + suffix, piece[1]] : piece))),
    fc
      .tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'a[]', 'x.y', 'CLIENT_ID', 'request', 'claims', ''), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(encode)), hostileRaw('v'))
      .map(([name, value]) => (list: Piece[]) => [...list, [name, value] as Piece]),
  );
  return fc.oneof({ weight: 1, arbitrary: fc.constant(pieces) }, { weight: 3, arbitrary: fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) => changes.reduce((list, apply) => apply(list), pieces)) });
}

const joinPieces = (pieces: Piece[]) => pieces.map(([name, value]) => `${name}=${value}`).join('&');

const address = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`);

/** Headers a caller may add to anything: all of them optional, some of them odd. */
function oddHeaders(): fc.Arbitrary<Record<string, string>> {
  const self = server.origin;
  const selfHost = new URL(self).host;
  return fc.record(
    {
      origin: fc.constantFrom(self, self.toUpperCase(), `${self}/path`, 'https://evil.example', 'null', 'not a url', `https://${selfHost}`),
      'x-forwarded-host': fc.constantFrom(selfHost, selfHost.toUpperCase(), 'evil.example', `${selfHost}, evil.example`, 'evil.example, ' + selfHost, '', ' , ', 'h'.repeat(4_000)),
      'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher', ''),
      authorization: fc.constantFrom('Bearer x', 'Basic', 'Basic !!!', `Basic ${btoa('a%00b:x')}`, `Basic ${btoa('\u0000:\u0000')}`, `Basic ${btoa('client:secret')}`, 'Negotiate x'),
      cookie: fc.constantFrom('metrics_session=x', '_interaction=x; _interaction.sig=y', 'a=b; a=c', '=', 'x'.repeat(4_000)),
    },
    { requiredKeys: [] },
  );
}

/** For a form post: mostly what a browser on this site sends (its Origin), else odd headers. */
const browserHeaders = () => fc.oneof({ weight: 3, arbitrary: fc.constant({ origin: server.origin }) }, { weight: 2, arbitrary: oddHeaders() });

const CONTENT_TYPES = ['application/x-www-form-urlencoded; charset=UTF-8', 'APPLICATION/X-WWW-FORM-URLENCODED', 'application/json', 'text/plain', 'multipart/form-data; boundary=x'];

/** Mostly the expected content type, sometimes another. */
const contentType = (usual: string) => fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: fc.constant(undefined) });

/** The expectation of an OAuth request from its query and (form) body: which input rules refuse. */
function oauthExpected(path: string, body: Body | undefined, refusal: Expected): Expected {
  if (body?.kind === 'text' && Buffer.byteLength(body.text) > MAX_BODY_BYTES) return { refused: 'json', error: 'invalid_request' };
  const formBody = body?.kind === 'text' && FORM_TYPE.test(body.type ?? '') ? new URLSearchParams(body.text) : null;
  return badParameters(queryOf(path)) || (formBody && badParameters(formBody)) ? refusal : { refused: false };
}

// ───────────── the targets ─────────────

interface World {
  clientId: string;
  codeChallenge: string;
  /** A live consent interaction: its uid, and the cookies of the browser that started it. */
  interaction: { uid: string; cookie: string };
  owner: { orgId: string; clientId: string };
  sessionToken: string;
  signIn: PageAction;
  createKey: PageAction;
  /** A key of the owner's organisation with a request in the log: its page shows its own log. */
  keyId: string;
}

function authorizeCases(world: World): fc.Arbitrary<Case> {
  const base: Piece[] = [
    ['client_id', world.clientId],
    ['response_type', 'code'],
    ['redirect_uri', encode(REDIRECT)],
    ['scope', encode('ads:read social:read')],
    ['state', 'st4te'],
    ['code_challenge', world.codeChallenge],
    ['code_challenge_method', 'S256'],
  ];
  const extras = fc.subarray<Piece>([['resource', encode(`${server.origin}/api/mcp`)], ['login_hint', 'someone'], ['ui_locales', 'en'], ['prompt', 'consent'], ['nonce', 'n']]);
  // The resume step's path segment (an interaction uid), sometimes hostile; never empty or a dot segment.
  const resume = fc.oneof(fc.constant('r3sume'), hostileRaw('r3sume').filter((raw) => !['', '.', '..'].includes(raw)));
  return fc
    .record({
      pieces: fc.tuple(fc.constantFrom(world.clientId, 'unknown-client', encode(world.clientId.toUpperCase())), extras).chain(([clientId, extra]) => mutatedPieces([[base[0]![0], clientId], ...base.slice(1), ...extra])),
      how: fc.constantFrom('query', 'query', 'query', 'form', 'resume'),
      resume,
      type: contentType('application/x-www-form-urlencoded'),
      headers: oddHeaders(),
    })
    .map(({ pieces, how, resume: segment, type, headers }): Case => {
      const raw = joinPieces(pieces);
      const request: FuzzRequest =
        how === 'form'
          ? { method: 'POST', path: '/oauth/authorize', headers, body: { kind: 'text', text: raw, type } }
          : { method: 'GET', path: `${how === 'resume' ? `/oauth/authorize/${segment}` : '/oauth/authorize'}?${raw}`, headers };
      if (!pathDecodes(request.path)) return { request, expected: { refused: 'text', status: 400, text: PATH_REFUSED } };
      // Another path under /oauth is not an endpoint (404) whatever its query.
      const served = /^\/oauth\/authorize(\/[\w-]+)?(\?|$)/.test(request.path);
      return { request, expected: served ? oauthExpected(request.path, request.body, { refused: 'page' }) : { refused: false } };
    });
}

/** A form post to the token or revocation endpoint: `pieces` in the body, sometimes a hostile query too. */
function formEndpointCases(path: string, pieces: fc.Arbitrary<Piece[]>): fc.Arbitrary<Case> {
  return fc
    .record({
      body: pieces.chain(mutatedPieces),
      query: fc.oneof({ weight: 4, arbitrary: fc.constant<Piece[]>([]) }, { weight: 1, arbitrary: mutatedPieces([['x', 'y']]) }),
      type: contentType('application/x-www-form-urlencoded'),
      headers: oddHeaders(),
    })
    .map(({ body, query, type, headers }): Case => {
      const request: FuzzRequest = { method: 'POST', path: query.length ? `${path}?${joinPieces(query)}` : path, headers, body: { kind: 'text', text: joinPieces(body), type } };
      return { request, expected: oauthExpected(request.path, request.body, { refused: 'json', error: 'invalid_request' }) };
    });
}

function tokenCases(world: World): fc.Arbitrary<Case> {
  const client = fc.constantFrom(world.clientId, 'unknown-client');
  const token = fc.oneof(fc.constantFrom('x', 'a'.repeat(43)), fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map(encode));
  return formEndpointCases(
    '/oauth/token',
    fc.oneof(
      fc.tuple(client, token).map(([id, code]): Piece[] => [['grant_type', 'authorization_code'], ['client_id', id], ['code', code], ['code_verifier', 'v'.repeat(43)], ['redirect_uri', encode(REDIRECT)]]),
      fc.tuple(client, token).map(([id, refresh]): Piece[] => [['grant_type', 'refresh_token'], ['client_id', id], ['refresh_token', refresh], ['scope', 'ads%3Aread']]),
      fc.tuple(client, fc.constantFrom('client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:device_code', '')).map(([id, grant]): Piece[] => [['grant_type', encode(grant)], ['client_id', id]]),
    ),
  );
}

function revokeCases(world: World): fc.Arbitrary<Case> {
  return formEndpointCases(
    '/oauth/revoke',
    fc.tuple(fc.constantFrom(world.clientId, 'unknown-client'), fc.constantFrom('access_token', 'refresh_token', 'other')).map(([id, hint]): Piece[] => [['token', 'x'.repeat(43)], ['token_type_hint', hint], ['client_id', id]]),
  );
}

function registerCases(): fc.Arbitrary<Case> {
  const redirect = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(REDIRECT, 'https://app.example/cb', 'cursor://anysphere.cursor-mcp/oauth/callback', 'http://localhost:8787/callback') },
    { weight: 1, arbitrary: fc.constantFrom('http://evil.example/cb', 'javascript:alert(1)', 'https://app.example/cb#x', '') },
    { weight: 1, arbitrary: hostileText.map((text) => `https://app.example/${text}`) },
  );
  const metadata = fc.record(
    {
      redirect_uris: fc.oneof({ weight: 5, arbitrary: fc.array(redirect, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
      client_name: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('Claude', 'Cursor', 'VS Code', 'تقارير') }, { weight: 2, arbitrary: hostileText }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
      'client_name#fr': fieldText(fc.constant('Rapports')),
      token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_basic', 'private_key_jwt', 'bogus'),
      grant_types: fc.constantFrom(['authorization_code', 'refresh_token'], ['urn:ietf:params:oauth:grant-type:device_code'], 'authorization_code', []),
      application_type: fc.constantFrom('web', 'native', 'other'),
      scope: fc.constantFrom('', 'ads:read', 'openid'),
      jwks: fc.record({ keys: fc.array(fc.dictionary(fieldText(fc.constantFrom('kty', 'crv', 'x', 'y')), fc.jsonValue({ maxDepth: 1, stringUnit: 'binary' }), { maxKeys: 3 }), { maxLength: 2 }) }),
    },
    { requiredKeys: ['redirect_uris'] },
  );
  const extraFields = fc.dictionary(fieldText(fc.constantFrom('__proto__', 'client_uri', 'contacts', 'software_id')), fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }), { maxKeys: 3 });
  const nested = (depth: number) => `{"redirect_uris":["${REDIRECT}"],"extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  // What real clients register (Claude, Cursor, VS Code, the Inspector): most of these are accepted.
  const plausible = fc.record(
    {
      redirect_uris: fc.array(redirect, { minLength: 1, maxLength: 3 }),
      client_name: fieldText(fc.constantFrom('Claude', 'Cursor', 'VS Code', 'MCP Inspector', 'تقارير')),
      token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_post'),
      grant_types: fc.constant(['authorization_code', 'refresh_token']),
      scope: fc.constantFrom('', 'ads:read social:read'),
    },
    { requiredKeys: ['redirect_uris'] },
  );
  const text = fc.oneof(
    { weight: 3, arbitrary: plausible.map((fields) => JSON.stringify(fields)) },
    { weight: 4, arbitrary: fc.tuple(metadata, extraFields).map(([fields, extra]) => JSON.stringify({ ...extra, ...fields })) },
    { weight: 1, arbitrary: fc.constantFrom(19, 20, 21, 25, 1_000, 20_000).map(nested) },
    { weight: 1, arbitrary: fc.constantFrom('', 'not json', '[]', 'null', '1', '"text"', '{"a":', `{"redirect_uris":["${REDIRECT}"]}}`, '{"client_name":"a\\u0000b"}', '{"\\u0000":1}', '{"client_name":"\\ud800"}') },
  );
  return fc
    .record({
      text,
      query: fc.oneof({ weight: 4, arbitrary: fc.constant<Piece[]>([]) }, { weight: 1, arbitrary: mutatedPieces([['x', 'y']]) }),
      type: contentType('application/json'),
      headers: oddHeaders(),
      forwardedFor: address,
    })
    .map(({ text, query, type, headers, forwardedFor }): Case => {
      // Each from an address of its own: registrations are limited to 60 a minute per address.
      const request: FuzzRequest = {
        method: 'POST',
        path: query.length ? `/oauth/register?${joinPieces(query)}` : '/oauth/register',
        headers: { ...headers, 'x-forwarded-for': forwardedFor },
        body: { kind: 'text', text, type },
      };
      const refused = oauthExpected(request.path, request.body, { refused: 'json', error: 'invalid_client_metadata' });
      return { request, expected: refused.refused || !badRegistration(text) ? refused : { refused: 'json', error: 'invalid_client_metadata' } };
    });
}

function consentCases(world: World): fc.Arbitrary<Case> {
  // A segment of its own: not empty or a dot segment, which lead elsewhere.
  const uid = fc.oneof({ weight: 3, arbitrary: fc.constant(world.interaction.uid) }, { weight: 2, arbitrary: hostileRaw(world.interaction.uid).filter((raw) => !['', '.', '..'].includes(raw)) });
  const cookie = fc.constantFrom(world.interaction.cookie, `metrics_session=${world.sessionToken}`, 'metrics_session=x', '');
  const field = (usual: string) => fc.oneof({ weight: 3, arbitrary: fc.constant(encode(usual)) }, { weight: 1, arbitrary: hostileRaw(encode(usual)) });
  const body = fc
    .tuple(field(csrfTokenFor(world.sessionToken)), field('deny'), field(world.owner.orgId))
    .chain(([csrf, decision, orgId]) => mutatedPieces([['csrf_token', csrf], ['decision', decision], ['orgId', orgId]]));
  return fc
    .record({ uid, cookie, decide: fc.boolean(), body, type: contentType('application/x-www-form-urlencoded'), headers: browserHeaders() })
    .map(({ uid: rawUid, cookie: jar, decide, body: pieces, type, headers }): Case => {
      const withCookie = jar ? { ...headers, cookie: jar } : headers;
      const request: FuzzRequest = decide
        ? { method: 'POST', path: `/consent/${rawUid}/decision`, headers: withCookie, body: { kind: 'text', text: joinPieces(pieces), type } }
        : { method: 'GET', path: `/consent/${rawUid}`, headers: withCookie };
      if (!pathDecodes(request.path)) return { request, expected: { refused: 'text', status: 400, text: PATH_REFUSED } };
      return { request, expected: !decide || sameOrigin(withCookie) ? { refused: false } : { refused: 'text', status: 403, text: CONSENT_REFUSED } };
    });
}


/** Argument lists no form sends (a script's call by the action's id), lists and not. */
const ARGUMENT_LISTS = ['[]', '[{}]', '[{},{}]', '[null,"$K1"]', '["x","$K1"]', '[{},"$K1",1]', '[{"a":"$$x"},"$K1"]', '[', '"x"', '{}', 'null', '3', '', '[{},"$Q1"]', '[{},"$@2"]', '[{"a":"$h1"},"$K1"]'];

/** Whether a call's argument list is one proxy.ts lets through: a JSON list whose `$` strings are only form data, escapes and JSON's missing values. */
function isOwnList(text: string): boolean {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return false;
  }
  const strings = JSON.stringify(list).match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  return Array.isArray(list) && strings.every((quoted) => !/^"\$(?!\$|K\d+"|undefined"|NaN"|Infinity"|-Infinity"|-0")/.test(quoted));
}

/** A page form posted with `fields` as a server action, with odd headers, sometimes another content type or arguments no form sends. */
function actionCases(form: 'signIn' | 'createKey', fields: fc.Arbitrary<[string, string][]>, cookie: fc.Arbitrary<string>): fc.Arbitrary<Case> {
  const path = form === 'signIn' ? '/login' : '/settings/api-keys';
  return fc
    .record({
      fields,
      shape: fc.constantFrom<PostShape>('form', 'fetch'),
      type: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=nope') }),
      headers: browserHeaders(),
      cookie,
      forwardedFor: address,
      malformed: fc.oneof(
        { weight: 6, arbitrary: fc.constant<MalformedCall>({}) },
        { weight: 2, arbitrary: fc.constantFrom(...ARGUMENT_LISTS).map((argumentList): MalformedCall => ({ argumentList })) },
        { weight: 1, arbitrary: fc.constant<MalformedCall>({ namedAlone: true }) },
      ),
    })
    .map(({ fields: values, shape, type, headers, cookie: jar, forwardedFor, malformed }): Case => {
      // Sign-in failures are counted per address: each post from an address of its own.
      const all: Record<string, string> = { ...headers, 'x-forwarded-for': forwardedFor, ...(jar ? { cookie: jar } : {}) };
      const request: FuzzRequest = { method: 'POST', path, headers: all, body: { kind: 'action', form, fields: values, shape, type, malformed } };
      if ('origin' in all && !sameOrigin(all)) return { request, expected: { refused: 'text', status: 403, text: FORM_REFUSED } };
      // An argument list Next.js could not decode, in the form data React sends: refused before the action runs.
      const unreadable = shape === 'fetch' && type === undefined && malformed.argumentList !== undefined && !isOwnList(malformed.argumentList);
      return { request, expected: unreadable ? { refused: 'text', status: 400, text: FORM_UNREADABLE } : { refused: false } };
    });
}

function signInCases(): fc.Arbitrary<Case> {
  // Never a seeded person's address: failures would lock their account for the other test files.
  const email = fieldText(fc.nat(10_000).map((n) => `fuzz-${n}@example.test`));
  const password = fieldText(fc.constantFrom('demo-password', 'wrong', 'p'.repeat(1_024), 'p'.repeat(1_025)));
  const fields = fc
    .tuple(email, password, fc.option(fieldText(fc.constant('/consent/abc')), { nil: undefined }))
    .map(([address, secret, returnTo]): [string, string][] => [['email', address], ['password', secret], ...(returnTo === undefined ? [] : [['returnTo', returnTo] as [string, string]])]);
  return actionCases('signIn', fields, fc.constant(''));
}

function createKeyCases(world: World): fc.Arbitrary<Case> {
  const csrf = fieldText(fc.constant(csrfTokenFor(world.sessionToken)));
  const name = fieldText(fc.nat(10_000).map((n) => `Fuzz key ${n}`));
  const scopes = fc.array(fieldText(fc.constantFrom('ads:read', 'social:read', 'web:read', 'store:read')), { minLength: 1, maxLength: 3 });
  const access = fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, string][]>([['clientAccess', 'all']]) },
    {
      weight: 2,
      arbitrary: fc
        .array(fieldText(fc.constantFrom(world.owner.clientId, '00000000-0000-4000-8000-000000000000')), { maxLength: 2 })
        .map((ids): [string, string][] => [['clientAccess', 'selected'], ...ids.map((id): [string, string] => ['clients', id])]),
    },
    { weight: 1, arbitrary: hostileText.map((value): [string, string][] => [['clientAccess', value]]) },
  );
  const expiry = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('never', '30', '90', '365').map((choice): [string, string][] => [['expiry', choice]]) },
    { weight: 2, arbitrary: fieldText(fc.constantFrom('2099-12-31', '2000-01-01', '2026-02-30', '9999-12-31')).map((day): [string, string][] => [['expiry', 'date'], ['expiresOn', day]]) },
    { weight: 1, arbitrary: hostileText.map((value): [string, string][] => [['expiry', value]]) },
  );
  const fields = fc
    .tuple(csrf, name, scopes, access, expiry)
    .map(([token, keyName, chosen, clients, expires]): [string, string][] => [['csrf_token', token], ['name', keyName], ...chosen.map((scope): [string, string] => ['scopes', scope]), ...clients, ...expires]);
  const cookie = fc.oneof({ weight: 6, arbitrary: fc.constant(`metrics_session=${world.sessionToken}`) }, { weight: 1, arbitrary: fc.constantFrom('', 'metrics_session=x') });
  return actionCases('createKey', fields, cookie);
}

/**
 * The request log's pages as the organisation's admin opens them (the organisation's, and one key's),
 * with the filters and the paging cursor of the address mutated: anyone can write an address. Any
 * answer but a 5xx; a cursor the page did not make reads the first page (request-log-pages.test.ts).
 */
function requestLogCases(world: World): fc.Arbitrary<Case> {
  const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const cursor = fc.oneof(
    fc.tuple(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n })).map(([ms, id]) => base64url(`${new Date(ms).toISOString()}|${id}`)),
    fc.tuple(fc.constantFrom('-004714-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00.000Z', 'now'), fc.constantFrom('1', '0', '-1', '9223372036854775807', '9223372036854775808', '1e3', '')).map(([day, id]) => base64url(`${day}|${id}`)),
    hostileText.map(base64url),
    fc.constant(''),
  );
  const pieces = fc
    .tuple(fc.constantFrom('2xx', '4xx', '429', '5xx', ''), fieldText(fc.constantFrom('GET /api/v1/me', 'get_ads_overview', '')), fieldText(fc.constantFrom('0b7c2a9e-4f1d-4c3e-9a55-1c2d3e4f5a6b', '')), cursor)
    .map(([status, endpoint, id, before]): Piece[] => [['status', status], ['endpoint', encode(endpoint)], ['id', encode(id)], ['before', before]]);
  return fc
    .tuple(fc.constantFrom('/settings/usage', `/settings/api-keys/${world.keyId}`), pieces.chain(mutatedPieces))
    .map(([page, query]): Case => ({
      request: { method: 'GET', path: `${page}?${joinPieces(query)}`, headers: { cookie: `metrics_session=${world.sessionToken}` } },
      expected: { refused: false },
    }));
}

// ───────────── the run ─────────────

let server: TestServer;
let world: World;
let logStart = 0;
const statuses = new Map<string, number>();
let requests = 0;

beforeAll(async () => {
  console.log(`oauth and forms fuzz: seed ${SEED} (reproduce with FUZZ_SEED=${SEED})${PATH ? `, path ${PATH}` : ''}`);
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  const as = await discover(server.origin);
  const client = await register(as, { client_name: 'Fuzz client', redirect_uris: [REDIRECT] });
  const owner = await newOrganisationAdmin('fuzz');
  const sessionToken = await sessionOf(owner.userId);
  const jar = new CookieJar();
  jar.set('metrics_session', sessionToken);
  const start = await authorizationUrl(as, client.client_id, REDIRECT);
  const consent = (await jar.fetch(start.url.href)).headers.get('location') ?? '';
  const uid = /^\/consent\/([\w-]+)$/.exec(consent)?.[1];
  if (!uid) throw new Error(`authorize did not lead to consent: ${consent}`);
  const cookie = `metrics_session=${sessionToken}`;
  world = {
    clientId: client.client_id,
    codeChallenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    interaction: { uid, cookie: jar.header() },
    owner,
    sessionToken,
    signIn: await pageAction(server.origin, '/login'),
    createKey: await pageAction(server.origin, '/settings/api-keys', cookie),
    keyId: await keyWithARequest(owner.orgId),
  };
  logStart = server.logs().length;
}, 300_000);

afterAll(async () => {
  const counts = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${n}`);
  console.log(`oauth and forms fuzz: ${requests} requests — ${counts.join(', ')} (seed ${SEED})`);
  await server?.stop();
});

/** A key of the organisation that has made one request, so that the log pages have a row to show. */
async function keyWithARequest(orgId: string): Promise<string> {
  const key = await mintKey({ orgId, name: 'fuzz log key' });
  expect((await server.request('/api/v1/me', { key })).status).toBe(200);
  const [row] = await sql<{ id: string }>("SELECT id FROM api_keys WHERE org_id = $1 AND name = 'fuzz log key'", [orgId]);
  return row!.id;
}

const fitsInHead = ({ request }: Case) => request.path.length + Object.values(request.headers).reduce((sum, value) => sum + value.length, 0) <= MAX_HEAD;

const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

function requestInit({ method, headers, body }: FuzzRequest): RequestInit {
  if (!body) return { method, headers, redirect: 'manual' };
  if (body.kind === 'text') return { method, headers: { ...headers, ...(body.type ? { 'content-type': body.type } : {}) }, body: body.text, redirect: 'manual' };
  const post = actionPost(body.form === 'signIn' ? world.signIn : world.createKey, body.fields, body.shape, body.malformed);
  return { method, headers: { ...headers, ...post.headers, ...(body.type ? { 'content-type': body.type } : {}) }, body: post.body, redirect: 'manual' };
}

async function send(request: FuzzRequest): Promise<Response> {
  try {
    return await fetch(new URL(request.path, server.origin), { ...requestInit(request), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      count('timeout');
      throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${request.method} ${request.path.slice(0, 200)}`);
    }
    throw error;
  }
}

async function checkAnswer({ request, expected }: Case, response: Response): Promise<void> {
  const status = response.status;
  count(String(status));
  const where = `${request.method} ${JSON.stringify(request).slice(0, 1_500)} → ${status}; expected ${JSON.stringify(expected)}`;
  const type = response.headers.get('content-type');
  const text = await response.text();
  expect(status < 500, `${where}: ${text.slice(0, 300)}`).toBe(true);
  if (expected.refused === 'page') {
    expect([status, type], where).toEqual([400, 'text/html; charset=utf-8']);
    expect(text, where).toContain('<code id="error">invalid_request</code>');
  } else if (expected.refused === 'json') {
    expect([status, type], where).toEqual([400, 'application/json']);
    expect(JSON.parse(text), where).toMatchObject({ error: expected.error, error_description: expect.any(String) });
  } else if (expected.refused === 'text') {
    expect([status, type, text], where).toEqual([expected.status, 'text/plain; charset=utf-8', expected.text]);
  } else if (status >= 400 && type?.startsWith('application/json')) {
    // The provider's own refusals keep the OAuth error shape.
    expect(JSON.parse(text), where).toMatchObject({ error: expect.any(String) });
  }
}

async function runBatch(batch: Case[]): Promise<void> {
  const queue = [...batch];
  const outcomes = await Promise.allSettled(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        requests += 1;
        await checkAnswer(item, await send(item.request));
      }
    }),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

const TARGETS: { name: string; requests: number; cases: (world: World) => fc.Arbitrary<Case> }[] = [
  { name: 'authorize', requests: 200, cases: authorizeCases },
  { name: 'token', requests: 96, cases: tokenCases },
  { name: 'revoke', requests: 48, cases: revokeCases },
  { name: 'register', requests: 160, cases: registerCases },
  { name: 'consent', requests: 96, cases: consentCases },
  { name: 'sign-in form', requests: 96, cases: signInCases },
  { name: 'create-key form', requests: 120, cases: createKeyCases },
  { name: 'request-log pages', requests: 96, cases: requestLogCases },
];

describe.each(TARGETS.map((target) => [target.name, target] as const))('%s under generated and hostile requests', (name, { requests: planned, cases }) => {
  it('answers as expected, never 5xx, always in time', async () => {
    const details = await fc.check(
      fc.asyncProperty(fc.array(cases(world).filter(fitsInHead), { minLength: BATCH, maxLength: BATCH }), runBatch),
      { seed: SEED, endOnFailure: true, ...(PATH ? { path: PATH, numRuns: 1 } : { numRuns: planned / BATCH }) },
    );
    if (details.failed) {
      const reproduce = `FUZZ_SEED=${SEED} FUZZ_PATH=${details.counterexamplePath} npx vitest run tests/integration/oauth-forms-fuzz.test.ts -t '${name} under'`;
      throw new Error(`fuzz failure on ${name} (seed ${SEED}, path ${details.counterexamplePath}); reproduce with:\n  ${reproduce}\n${String(details.errorInstance)}`);
    }
  }, 300_000);
});

describe('the run as a whole', () => {
  it('left the server live, printed no error, and made no key with a name the form refuses', async () => {
    const health = await fetch(new URL('/api/health', server.origin));
    expect(health.status).toBe(200);
    expect(server.logs().slice(logStart)).not.toMatch(ERROR_IN_LOG);
    const names = (await sql<{ name: string }>('SELECT name FROM api_keys WHERE org_id = $1', [world.owner.orgId])).map((row) => row.name);
    for (const keyName of names) {
      expect(CONTROL_OR_SURROGATE.test(keyName) || invisibleIn(keyName), JSON.stringify(keyName)).toBe(false);
      expect(keyName.trim().length, JSON.stringify(keyName)).toBeGreaterThan(0);
      // Characters as the form counts them (code points: an emoji is one), not UTF-16 units.
      expect([...keyName].length, JSON.stringify(keyName)).toBeLessThanOrEqual(KEY_NAME_MAX);
    }
    // A replay of one FUZZ_PATH sends a batch or two, which may make no key.
    if (!PATH) expect(names.length, 'keys made by the create-key form').toBeGreaterThan(0);
  });
});
