'use client';
// Scalar's renderer, configured to stay on this origin: no web fonts from its CDN, no telemetry, no
// hosted agent or MCP offer, no developer toolbar. Requests sent from its "Test request" client go to
// this server (the document's server is the relative /api/v1), with the key typed into it. The
// renderer is Scalar's own browser build, served by this server at /docs/api/scalar.js
// (lib/openapi/reference-renderer.ts).
import { useEffect, useRef, useState } from 'react';

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

interface Scalar {
  createApiReference(element: HTMLElement, configuration: typeof CONFIGURATION): { destroy(): void };
}

declare global {
  interface Window {
    Scalar?: Scalar;
  }
}

let loading: Promise<Scalar> | undefined;

/** Loads the renderer's script once per page; a failed load is tried again on the next visit. */
function loadScalar(): Promise<Scalar> {
  loading ??= new Promise<Scalar>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/docs/api/scalar.js';
    script.onload = () => (window.Scalar ? resolve(window.Scalar) : reject(new Error('no renderer in the script')));
    script.onerror = () => reject(new Error('the renderer did not load'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export function Reference() {
  const mount = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let reference: { destroy(): void } | undefined;
    let unmounted = false;
    loadScalar().then(
      (scalar) => {
        if (!unmounted && mount.current) reference = scalar.createApiReference(mount.current, CONFIGURATION);
      },
      () => setFailed(true),
    );
    return () => {
      unmounted = true;
      reference?.destroy();
    };
  }, []);
  if (failed) {
    // In place of what Scalar would have rendered, its main landmark and heading included.
    return (
      <main className="home">
        <h1>API reference</h1>
        <p role="alert">
          The API reference could not be loaded. Reload the page, or read the OpenAPI document itself:{' '}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      </main>
    );
  }
  return <div ref={mount} />;
}
