// The sign-in form posted over HTTP as a browser without JavaScript posts it: the hidden fields that
// address its server action, read from the login page, plus the email and password, as multipart form
// data with this site's Origin. Sent with rawRequest so that a test can choose the source address.
import { rawRequest } from './raw-request';

/** The escapes React writes in attribute values, undone. */
function unescapeAttribute(value: string): string {
  return value.replace(/&(quot|#x27|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', '#x27': "'", lt: '<', gt: '>', amp: '&' })[name]!);
}

/** The login form's hidden `$ACTION_…` fields, as the login page serves them. */
export async function signInActionFields(origin: string): Promise<[string, string][]> {
  const page = await (await fetch(new URL('/login', origin))).text();
  const fields = [...page.matchAll(/<input type="hidden" name="(\$ACTION_[^"]*)"(?: value="([^"]*)")?\/>/g)].map(
    ([, name, value]) => [name!, unescapeAttribute(value ?? '')] as [string, string],
  );
  if (fields.length === 0) throw new Error('the login page has no server action fields');
  return fields;
}

export interface SignInPost {
  fields: [string, string][];
  email: string;
  password: string;
  localAddress: string;
  headers?: Record<string, string>;
}

/** Posts the sign-in form: 303 to the settings with a session cookie on success, else 200 and the page with its message. */
export async function postSignIn(origin: string, { fields, email, password, localAddress, headers = {} }: SignInPost): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of [...fields, ['email', email], ['password', password]]) form.append(name!, value!);
  const encoded = new Response(form);
  return rawRequest(new URL('/login', origin).toString(), {
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')!, origin, ...headers },
    pieces: [await encoded.text()],
    localAddress,
  });
}

/** The message of the form's alert in a sign-in answer (null: none). */
export function signInAlert(html: string): string | null {
  return html.match(/<p class="form-error" role="alert">([^<]*)<\/p>/)?.[1] ?? null;
}
