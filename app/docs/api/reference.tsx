'use client';
// Scalar's renderer, configured to stay on this origin: no web fonts from its CDN, no telemetry, no
// hosted agent or MCP offer, no developer toolbar. Requests sent from its "Test request" client go to
// this server (the document's server is the relative /api/v1), with the key typed into it.
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

const CONFIGURATION = {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  documentDownloadType: 'direct',
  defaultOpenAllTags: true,
  showOperationId: true,
  metaData: { title: 'API reference · Metrics API' },
} as const;

export function Reference() {
  return <ApiReferenceReact configuration={CONFIGURATION} />;
}
