// Third-party MCP tools that need Node 22 (MCP Inspector's CLI, the official conformance suite), kept
// in tests/interop with their own lockfile and run on the Node 22 binary of the npm package `node`,
// so that neither they nor that Node ever reach the app's own toolchain.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TOOLS_DIR = path.resolve(import.meta.dirname, '../interop');
const NODE_22 = path.join(TOOLS_DIR, 'node_modules/node/bin/node');
const BIN = (name: string) => path.join(TOOLS_DIR, 'node_modules/.bin', name);

/** Installs the pinned tools once (about 20 s); later runs find them in place. */
export function ensureInteropTools(): void {
  if (existsSync(NODE_22) && existsSync(BIN('mcp-inspector')) && existsSync(BIN('conformance'))) return;
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', TOOLS_DIR], { encoding: 'utf8', stdio: 'pipe' });
  if (npm.status !== 0) throw new Error(`installing the MCP interop tools failed:\n${npm.stdout}\n${npm.stderr}`);
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of the tools' commands on Node 22; never throws for a non-zero exit (the caller decides). */
export function runInteropTool(bin: 'mcp-inspector' | 'conformance', args: string[], timeoutMs = 240_000): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(
      NODE_22,
      [BIN(bin), ...args],
      // HOME in a scratch folder: the Inspector keeps a catalog and secrets under ~/.mcp-inspector.
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', HOME: path.join(TOOLS_DIR, '.home') } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

export interface Forwarder {
  origin: string;
  /** Where requests go; set once the server behind it has started (it must know the forwarder's origin). */
  target: string | null;
  close(): Promise<void>;
}

/**
 * A test-only forwarding proxy on loopback that adds a credential to every request and passes
 * everything else through unchanged, both ways (streamed, so server-sent events keep flowing). The
 * conformance suite cannot send a credential; this is how it reaches the real, authenticated door.
 * It takes the credentials in turn: the suite sends more requests in a minute than one key's limit.
 */
export async function startCredentialForwarder(authorizations: string[]): Promise<Forwarder> {
  let next = 0;
  const forwarder: Forwarder = { origin: '', target: null, close: async () => undefined };
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = new URL(forwarder.target!);
    const authorization = authorizations[next++ % authorizations.length];
    const headers = { ...incoming.headers, host: upstream.host, authorization };
    const forwarded = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  forwarder.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  forwarder.close = () => new Promise((resolve) => server.close(() => resolve()));
  return forwarder;
}
