// A native app's loopback callback (RFC 8252): a little server on a free port of 127.0.0.1 that answers
// the browser's redirect after the consent screen, as the app's own would. A route in the page cannot
// stand in for it: Playwright does not route the requests a redirect makes, so the navigation would
// fail (and a full Chromium would still show the callback's URL, hiding that it failed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackApp {
  /** The redirect URI on this server's port. */
  redirect: string;
  close: () => Promise<void>;
}

export async function loopbackApp(): Promise<LoopbackApp> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    redirect: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
