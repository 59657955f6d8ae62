// The API reference: the OpenAPI document (/api/v1/openapi.json) rendered in the browser by Scalar,
// bundled from node_modules (nothing is loaded from another origin). The header is ours.
import type { Metadata } from 'next';
import { SiteHeader } from '../../site-header';
import { Reference } from './reference';
import '../../(settings)/settings.css';

export const metadata: Metadata = { title: 'API reference · Metrics API' };

export default function ApiReferencePage() {
  return (
    <div className="reference-page">
      <SiteHeader current="/docs/api" banner={false} />
      {/* Not a <main>: Scalar renders its own main landmark inside. */}
      <div id="content">
        <Reference />
      </div>
    </div>
  );
}
