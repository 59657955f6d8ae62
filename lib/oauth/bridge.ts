// Route handlers speak Web Request/Response; oidc-provider (a Koa app) wants Node's req/res. The
// bridge builds a Node request from the Web one (raw body untouched, so a repeated `resource` is
// never collapsed; a socket that says whether the public address is https and who is calling) and
// collects the Node response, every Set-Cookie included, into a Web Response.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { appUrl } from '../app-url';

export interface NodeExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Resolves with the Web Response once the Node response has ended. */
  response: Promise<Response>;
}

/** A Node request/response pair for a Web request; `body` is its raw bytes. */
export function nodeExchange(request: Request, body: Uint8Array, remoteAddress: string | null): NodeExchange {
  const socket = new Socket();
  Object.defineProperties(socket, {
    // Whether the issuer is https decides, never a header a caller can set.
    encrypted: { value: appUrl().startsWith('https:') },
    remoteAddress: { value: remoteAddress ?? undefined },
  });
  const req = new IncomingMessage(socket);
  const url = new URL(request.url);
  req.method = request.method;
  req.url = `${url.pathname}${url.search}`;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Next has already decoded the body: the provider must read exactly these bytes.
  delete headers['transfer-encoding'];
  if (body.byteLength > 0 || request.method === 'POST') headers['content-length'] = String(body.byteLength);
  req.headers = headers;
  req.push(body.byteLength > 0 ? Buffer.from(body) : null);
  if (body.byteLength > 0) req.push(null);

  const res = new ServerResponse(req);
  const chunks: Buffer[] = [];
  const response = new Promise<Response>((resolve) => {
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    res.write = ((chunk: unknown, encoding?: unknown) => {
      collect(chunk, encoding);
      return true;
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      collect(chunk, encoding);
      resolve(webResponse(res, Buffer.concat(chunks)));
      return res;
    }) as ServerResponse['end'];
  });
  return { req, res, response };
}

function webResponse(res: ServerResponse, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [String(value)]) headers.append(name, item);
  }
  headers.delete('content-length');
  const status = res.statusCode;
  const empty = status === 204 || status === 304 || body.byteLength === 0;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
}
