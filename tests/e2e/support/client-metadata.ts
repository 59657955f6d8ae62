// A client identified by a Client ID Metadata Document, for the browser tests: a local https server
// (the run's self-signed certificate, which the app trusts) serving one document.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface MetadataServer {
  clientId: string;
  fetches: () => number;
  close: () => Promise<void>;
}

/** A local https server (the run's self-signed certificate) serving one client metadata document. */
export async function serveClientMetadata(document: (clientId: string) => Record<string, unknown>): Promise<MetadataServer> {
  const tls = process.env.E2E_TLS_DIR!;
  let fetches = 0;
  let clientId = '';
  const server: Server = createServer({ key: readFileSync(path.join(tls, 'key.pem')), cert: readFileSync(path.join(tls, 'cert.pem')) }, (request, response) => {
    fetches += 1;
    if (request.url !== '/oauth/client.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(document(clientId)));
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  clientId = `https://localhost:${(server.address() as AddressInfo).port}/oauth/client.json`;
  return { clientId, fetches: () => fetches, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
