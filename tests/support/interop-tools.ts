// Third-party MCP tools (MCP Inspector's CLI, the official conformance suite), kept in tests/interop with
// their own lockfile so that their dependencies never reach the app's, and run on the project's own
// Node.js (the npm package `node`, the one running the tests: both want Node ≥ 22.19).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TOOLS_DIR = path.resolve(import.meta.dirname, '../interop');
const BIN = (name: string) => path.join(TOOLS_DIR, 'node_modules/.bin', name);

/** Whether every tool pinned in tests/interop/package.json is installed at its pinned version. */
function pinnedToolsInstalled(): boolean {
  const { dependencies } = JSON.parse(readFileSync(path.join(TOOLS_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.entries(dependencies).every(([name, version]) => {
    const installed = path.join(TOOLS_DIR, 'node_modules', name, 'package.json');
    return existsSync(installed) && (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version === version;
  });
}

/** Installs the pinned tools (about 20 s) when they are missing or at another version; later runs find them in place. */
export function ensureInteropTools(): void {
  if (pinnedToolsInstalled()) return;
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', TOOLS_DIR], { encoding: 'utf8', stdio: 'pipe' });
  if (npm.status !== 0) throw new Error(`installing the MCP interop tools failed:\n${npm.stdout}\n${npm.stderr}`);
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the tools' commands on the project's Node.js; never throws for a non-zero exit (the
 * caller decides). `onStdout` sees the output so far as it arrives (a tool that waits for a browser).
 */
export function runInteropTool(bin: 'mcp-inspector' | 'conformance', args: string[], timeoutMs = 240_000, onStdout?: (sofar: string) => void): Promise<ToolRun> {
  return new Promise((resolve) => {
    // HOME in a scratch folder: the Inspector keeps a catalog and secrets under ~/.mcp-inspector.
    const child = spawn(process.execPath, [BIN(bin), ...args], {
      timeout: timeoutMs,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', HOME: path.join(TOOLS_DIR, '.home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onStdout?.(stdout);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
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
