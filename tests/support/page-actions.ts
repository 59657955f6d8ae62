// A page's form posted over plain HTTP, as the server action it is, in both shapes Next.js takes:
// 'form', what a browser sends without JavaScript (the page's hidden `$ACTION_…` fields and the form's
// own, multipart), and 'fetch', what React sends with JavaScript (a Next-Action header, the form's
// fields under `_1_` and then the argument list `[previous state, "$K1"]` as field `0`, in that order:
// the server reads the list as soon as it arrives). The forms posted here (sign-in, create key) use
// useActionState, so their actions take the previous state and the form data.

export type PostShape = 'form' | 'fetch';

export interface PageAction {
  /** The page's address, where its form posts to. */
  url: string;
  /** The server action's id. */
  id: string;
  /** The hidden fields that name the action in a post without JavaScript. */
  hiddenFields: [string, string][];
  /** The state the page was rendered with (the action's first argument). */
  initialState: unknown;
}

const HIDDEN_ACTION_FIELD = /<input type="hidden" name="(\$ACTION_[^"]*)"(?: value="([^"]*)")?\/?>/g;

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The one form of `path` whose action keeps state (useActionState), read from the page as served. */
export async function pageAction(origin: string, path: string, cookie?: string): Promise<PageAction> {
  const response = await fetch(new URL(path, origin), { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  const html = await response.text();
  const fields = [...html.matchAll(HIDDEN_ACTION_FIELD)].map(([, name, value]) => [name!, unescapeHtml(value ?? '')] as [string, string]);
  const reference = fields.find(([name]) => name.startsWith('$ACTION_REF_'))?.[0].slice('$ACTION_REF_'.length);
  if (!reference) throw new Error(`no stateful form action on ${path}`);
  const own = fields.filter(([name]) => name === `$ACTION_REF_${reference}` || name.startsWith(`$ACTION_${reference}:`) || name === '$ACTION_KEY');
  const bound = JSON.parse(own.find(([name]) => name === `$ACTION_${reference}:0`)![1]) as { id: string };
  const state = JSON.parse(own.find(([name]) => name === `$ACTION_${reference}:1`)![1]) as unknown[];
  return { url: new URL(path, origin).href, id: bound.id, hiddenFields: own, initialState: state[0] };
}

/** Form data holding `fields` in order, names repeated as given. */
export function formData(fields: [string, string][]): FormData {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return body;
}

/**
 * A call no form of ours sends: `argumentList` replaces the argument list of a 'fetch' post (field
 * `0`), and `namedAlone` names the action by `$ACTION_ID_<id>` alone in a 'form' post, so that it gets
 * the form data as its only argument.
 */
export interface MalformedCall {
  argumentList?: string;
  namedAlone?: boolean;
}

/** The body and headers of a post of `fields` to `action` in `shape` (headers such as Origin are the caller's). */
export function actionPost(action: PageAction, fields: [string, string][], shape: PostShape, malformed: MalformedCall = {}): { body: FormData; headers: Record<string, string> } {
  const body = new FormData();
  if (shape === 'form') {
    const hidden: [string, string][] = malformed.namedAlone ? [[`$ACTION_ID_${action.id}`, '']] : action.hiddenFields;
    for (const [name, value] of [...hidden, ...fields]) body.append(name, value);
    return { body, headers: {} };
  }
  for (const [name, value] of fields) body.append(`_1_${name}`, value);
  body.append('0', malformed.argumentList ?? JSON.stringify([action.initialState, '$K1']));
  return { body, headers: { 'next-action': action.id, accept: 'text/x-component' } };
}
