// The "Connect your client" guides: each snippet carries the MCP URL it was given, the configuration
// files are the JSON each client reads, and docs/connect.md shows every snippet exactly as the front
// page does (with `<APP_URL>/api/mcp`), so the page and the guide cannot drift apart.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientGuides, PUBLIC_URL_STEPS, SERVER_NAME } from '@/lib/mcp/client-setup';

const URL_HERE = 'https://metrics.example/api/mcp';
const byId = (id: string) => clientGuides(URL_HERE).find((guide) => guide.id === id)!;

describe('the client guides', () => {
  it('cover the six clients, each with its snippet and the other way in', () => {
    expect(clientGuides(URL_HERE).map((guide) => guide.name)).toEqual(['Claude', 'Claude Code', 'ChatGPT', 'Cursor', 'VS Code', 'MCP Inspector']);
    for (const guide of clientGuides(URL_HERE)) {
      expect(guide.snippet.text, guide.id).toContain(URL_HERE);
      expect(guide.steps.length, guide.id).toBeGreaterThan(0);
      if (guide.other.snippet) expect(guide.other.snippet.text, guide.id).toContain(URL_HERE);
    }
  });

  it('give each client what it reads: a URL, a command, or its configuration file', () => {
    expect(byId('claude').snippet.text).toBe(URL_HERE);
    expect(byId('chatgpt').snippet.text).toBe(URL_HERE);
    expect(byId('claude-code').snippet.text).toBe(`claude mcp add --transport http ${SERVER_NAME} ${URL_HERE}`);
    expect(byId('claude-code').other.snippet!.text).toBe(`claude mcp add --transport http ${SERVER_NAME} ${URL_HERE} --header "Authorization: Bearer <key>"`);
    expect(JSON.parse(byId('cursor').snippet.text)).toEqual({ mcpServers: { metrics: { url: URL_HERE } } });
    expect(JSON.parse(byId('cursor').other.snippet!.text)).toEqual({
      mcpServers: { metrics: { url: URL_HERE, headers: { Authorization: 'Bearer ${env:METRICS_API_KEY}' } } },
    });
    expect(JSON.parse(byId('vscode').snippet.text)).toEqual({ servers: { metrics: { type: 'http', url: URL_HERE } } });
    const withKey = JSON.parse(byId('vscode').other.snippet!.text) as { inputs: { id: string; password: boolean }[]; servers: { metrics: { headers: { Authorization: string } } } };
    expect(withKey.servers.metrics.headers.Authorization).toBe(`Bearer \${input:${withKey.inputs[0]!.id}}`);
    expect(withKey.inputs[0]!.password).toBe(true);
    expect(byId('inspector').snippet.text).toBe(
      `npx @modelcontextprotocol/inspector --cli ${URL_HERE} --transport http --header "Authorization: Bearer <key>" --method tools/list`,
    );
    // An older Node.js stops the Inspector with an error that does not say why.
    expect(byId('inspector').steps.join('\n')).toContain('Node.js 22.19 or later');
  });

  it('say which clients connect from their provider’s cloud, and warn when this server’s URL is on this computer', () => {
    const from = (url: string) => Object.fromEntries(clientGuides(url).map((guide) => [guide.id, guide.reach.from]));
    expect(from(URL_HERE)).toEqual({ claude: 'cloud', 'claude-code': 'machine', chatgpt: 'cloud', cursor: 'machine', vscode: 'machine', inspector: 'machine' });
    expect(byId('claude').reach.text).toBe('Connects from Anthropic’s cloud, not from your computer: the URL must be public and https.');
    expect(byId('chatgpt').reach.text).toBe('Connects from OpenAI’s cloud, not from your computer: the URL must be public and https.');
    for (const local of ['http://localhost:3000/api/mcp', 'http://127.0.0.1:3000/api/mcp']) {
      for (const guide of clientGuides(local)) {
        expect(guide.reach.text.includes('This server’s URL is on this computer'), `${guide.id} ${local}`).toBe(guide.reach.from === 'cloud');
      }
    }
    expect(PUBLIC_URL_STEPS.join('\n')).toContain('`cloudflared tunnel --url http://localhost:3000`');
    expect(PUBLIC_URL_STEPS.join('\n')).toContain('`APP_URL=https://<name>.trycloudflare.com npm run demo`');
  });

  it('are shown in docs/connect.md exactly as on the front page', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/connect.md'), 'utf8');
    const blocks = [...doc.matchAll(/^```[a-z]*\n([\s\S]*?)\n```$/gm)].map((match) => match[1]);
    for (const guide of clientGuides('<APP_URL>/api/mcp')) {
      for (const snippet of [guide.snippet, guide.other.snippet].filter((s) => s !== undefined)) {
        expect(blocks, `${guide.name}: ${snippet.copyName}`).toContain(snippet.text);
      }
      expect(doc).toContain(`## ${guide.name}\n`);
      if (guide.reach.from === 'machine') expect(doc).toContain(`## ${guide.name}\n\n${guide.reach.text}\n`);
    }
    // The way to a public URL, command for command.
    for (const command of ['cloudflared tunnel --url http://localhost:3000', 'ngrok http 3000', 'APP_URL=https://<name>.trycloudflare.com npm run demo']) expect(doc).toContain(`\`${command}\``);
  });
});
