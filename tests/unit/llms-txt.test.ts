// /llms.txt in llmstxt.org's format: a title, a summary quote, details, then sections of links; every
// link absolute under APP_URL; every REST operation and every MCP tool listed; served as text/plain.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';
import { llmsTxt } from '@/lib/openapi/llms-txt';
import { allOperations } from '@/lib/operations/registry';

const BASE = 'https://metrics.example';
let saved: string | undefined;

beforeEach(() => {
  saved = process.env.APP_URL;
  process.env.APP_URL = `${BASE}/`;
});

afterEach(() => {
  if (saved === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = saved;
});

describe('llms.txt', () => {
  it('has the format: H1, a summary quote, details without headings, then H2 sections of links', () => {
    const text = llmsTxt(TOOL_OPERATIONS);
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Metrics API');
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^> Read-only access to .+\.$/);
    // The data-use rule comes first among the details, before anything on how to call.
    expect(lines[4]).toBe(`- Use of the data: ${DATA_USE_RULE}`);
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## Docs', '## REST API', '## MCP server']);
    // After the first section, every non-empty line is a link with its note.
    const sections = text.slice(text.indexOf('\n## '));
    for (const line of sections.split('\n').filter((l) => l && !l.startsWith('## '))) {
      expect(line).toMatch(/^- \[[^\]]+\]\(https:\/\/metrics\.example\/[^)\s]*\): \S/);
    }
  });

  it('links with absolute URLs from APP_URL: the OpenAPI document, the reference, the errors, the MCP endpoint', () => {
    const text = llmsTxt(TOOL_OPERATIONS);
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    expect(links.every((link) => link.startsWith(`${BASE}/`))).toBe(true);
    for (const expected of [`${BASE}/api/v1/openapi.json`, `${BASE}/docs/api`, `${BASE}/docs/errors`, `${BASE}/api/mcp`, `${BASE}/#connect`]) {
      expect(links).toContain(expected);
    }
    expect(text).toContain(`${BASE}/settings/api-keys`);
    expect(text).not.toContain('localhost');
  });

  it('lists every REST operation with its scope and every MCP tool', () => {
    const text = llmsTxt(TOOL_OPERATIONS);
    for (const operation of allOperations()) {
      expect(text).toContain(`- [GET /api/v1${operation.path}](${BASE}/api/v1${operation.path}): ${operation.summary} (`);
    }
    expect(TOOL_OPERATIONS).toHaveLength(7);
    for (const operation of TOOL_OPERATIONS) expect(text).toContain(`  - \`${operation.tool!.name}\` (`);
  });

  it('is served as text/plain by /llms.txt', async () => {
    const { GET } = await import('@/app/llms.txt/route');
    const response = GET();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe(llmsTxt(TOOL_OPERATIONS));
  });
});
