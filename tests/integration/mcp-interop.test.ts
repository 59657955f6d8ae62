// Interop with the MCP ecosystem's own tools, run on Node 22 (tests/interop, their own lockfile):
// MCP Inspector's CLI lists and calls our tools over Streamable HTTP with an API key in its header,
// and the official conformance suite's server scenarios run against /api/mcp through a test-only
// forwarder that adds the credential (the suite cannot send one). Every scenario's outcome is pinned
// in CONFORMANCE below and in docs/testing.md (MCP interop): a pass, or a failure with its reason.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { ensureInteropTools, runInteropTool, startCredentialForwarder, type Forwarder } from '../support/interop-tools';
import { RANGE, seededOrgs } from './platform-support';

const TOOLS = ['describe_metrics', 'get_ad_breakdowns', 'get_ads_overview', 'get_social_overview', 'list_ad_entities', 'list_clients', 'list_social_posts'];

/**
 * The conformance suite's active server scenarios and the outcome of each here. The suite's tool,
 * resource and prompt scenarios call fixtures of its own reference server (`test_simple_text`,
 * `test://static-text`, `test_simple_prompt`…): a server with other tools cannot pass them, and this
 * read-only server offers no resources, prompts, logging, completion, sampling or elicitation.
 */
const FIXTURE = 'needs a fixture of the suite’s reference server';
const NOT_OFFERED = 'needs a capability this read-only server does not offer';
export const CONFORMANCE: Record<string, string> = {
  'server-initialize': 'pass',
  ping: 'pass',
  'tools-list': 'pass',
  'dns-rebinding-protection': 'pass',
  'logging-set-level': NOT_OFFERED,
  'completion-complete': NOT_OFFERED,
  'tools-call-simple-text': FIXTURE,
  'tools-call-image': FIXTURE,
  'tools-call-audio': FIXTURE,
  'tools-call-embedded-resource': FIXTURE,
  'tools-call-mixed-content': FIXTURE,
  'tools-call-with-logging': NOT_OFFERED,
  'tools-call-error': FIXTURE,
  'tools-call-with-progress': FIXTURE,
  'tools-call-sampling': NOT_OFFERED,
  'tools-call-elicitation': NOT_OFFERED,
  'elicitation-sep1034-defaults': NOT_OFFERED,
  'elicitation-sep1330-enums': NOT_OFFERED,
  'server-sse-multiple-streams': 'pass',
  'resources-list': NOT_OFFERED,
  'resources-read-text': NOT_OFFERED,
  'resources-read-binary': NOT_OFFERED,
  'resources-templates-read': NOT_OFFERED,
  'resources-subscribe': NOT_OFFERED,
  'resources-unsubscribe': NOT_OFFERED,
  'prompts-list': NOT_OFFERED,
  'prompts-get-simple': NOT_OFFERED,
  'prompts-get-with-args': NOT_OFFERED,
  'prompts-get-embedded-resource': NOT_OFFERED,
  'prompts-get-with-image': NOT_OFFERED,
};

const { main } = seededOrgs();
let server: TestServer;
let forwarder: Forwarder;
let inspectorKey: string;

beforeAll(async () => {
  ensureInteropTools();
  inspectorKey = await mintKey({ orgId: main.id, scopes: ['ads:read', 'social:read'] });
  const suiteKeys = await Promise.all(Array.from({ length: 8 }, () => mintKey({ orgId: main.id, scopes: ['ads:read', 'social:read'] })));
  forwarder = await startCredentialForwarder(suiteKeys.map((key) => `Bearer ${key}`));
  // The forwarder stands where a browser-facing deployment's own origin would be: allowed.
  server = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { MCP_ALLOWED_ORIGINS: forwarder.origin } });
  forwarder.target = server.origin;
}, 300_000);

afterAll(async () => {
  await forwarder?.close();
  await server?.stop();
});

describe('MCP Inspector CLI', () => {
  async function inspect(...args: string[]): Promise<Record<string, unknown>> {
    const run = await runInteropTool('mcp-inspector', ['--cli', `${server.origin}/api/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${inspectorKey}`, ...args]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it('lists the seven tools, read-only, with input and output schemas', async () => {
    const { tools } = (await inspect('--method', 'tools/list')) as { tools: { name: string; annotations: unknown; inputSchema: { type: string }; outputSchema: { type: string } }[] };
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false });
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
    }
  }, 120_000);

  it('calls get_ads_overview and gets exactly the REST answer', async () => {
    const result = (await inspect('--method', 'tools/call', '--tool-name', 'get_ads_overview', '--tool-arg', `from=${RANGE.from}`, `to=${RANGE.to}`)) as {
      isError?: boolean;
      structuredContent: unknown;
    };
    expect(result.isError ?? false).toBe(false);
    const rest = await server.request(`/api/v1/ads/overview?${new URLSearchParams(RANGE)}`, { key: inspectorKey });
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(await rest.json());
  }, 120_000);
});

describe('conformance suite', () => {
  it('runs every active server scenario with the outcome recorded for it', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
    try {
      await runInteropTool('conformance', ['server', '--url', `${forwarder.origin}/api/mcp`, '-o', out], 600_000);
      const outcomes: Record<string, string> = {};
      const failures: string[] = [];
      for (const dir of readdirSync(out)) {
        const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
        const checks = JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[];
        const failed = checks.filter((check) => check.status === 'FAILURE');
        outcomes[scenario] = failed.length === 0 ? 'pass' : (CONFORMANCE[scenario] ?? 'fail');
        failures.push(...failed.map((check) => `${scenario} › ${check.id}: ${check.errorMessage ?? ''}`));
      }
      console.log(`conformance: ${Object.values(outcomes).filter((outcome) => outcome === 'pass').length} of ${Object.keys(outcomes).length} scenarios pass\n${failures.join('\n')}`);
      expect(outcomes).toEqual(CONFORMANCE);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 660_000);
});
