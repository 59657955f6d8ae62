// The `<errors doc url>` of every problem document: one section per code, anchored by the code, so
// that a problem's `type` (`…/docs/errors#<code>`) links straight to its explanation, with an example
// of the document the API sends for it.
import type { Metadata } from 'next';
import Link from 'next/link';
import { ERROR_CODES, ERROR_CODE_NAMES } from '@/lib/contract/errors';
import { QUERY_RULES } from '@/lib/contract/query';
import { errorExample } from '@/lib/openapi/examples';
import { InlineCode } from '../../inline-code';
import { SiteHeader } from '../../site-header';
import '../../(settings)/settings.css';

export const metadata: Metadata = { title: 'Error codes · Metrics API' };

export default function ErrorsPage() {
  return (
    <div className="shell">
      <SiteHeader current="/docs/errors" />
      <main id="content" className="home errors-page">
        <section className="home-hero" aria-labelledby="errors-title">
          <h1 id="errors-title">Error codes</h1>
          <p>
            When a request fails, the API answers with a small JSON document that says what went wrong (a “problem
            document”, the standard format for HTTP API errors, RFC 9457, sent as <code>application/problem+json</code>). It
            has <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>code</code>; its{' '}
            <code>type</code> links to the section below for its <code>code</code>. Every response, errors included, also
            carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>, <code>X-RateLimit-Reset</code> and{' '}
            <code>X-Request-Id</code>.
          </p>
          <ul className="errors-index" aria-label="Codes">
            {ERROR_CODE_NAMES.map((code) => (
              <li key={code}><a href={`#${code}`}><code>{code}</code></a></li>
            ))}
          </ul>
        </section>
        {ERROR_CODE_NAMES.map((code) => (
          <section key={code} id={code} className="card" aria-labelledby={`${code}-title`}>
            <h2 id={`${code}-title`}>
              <code>{code}</code> · {ERROR_CODES[code].status} {ERROR_CODES[code].title}
            </h2>
            <p><InlineCode text={ERROR_CODES[code].explanation} /></p>
            {code === 'validation_failed' && (
              <ul>
                {QUERY_RULES.map((rule) => (
                  <li key={rule}><InlineCode text={rule} /></li>
                ))}
              </ul>
            )}
            <figure className="example">
              <figcaption className="example-title">Example</figcaption>
              <pre><code>{JSON.stringify(errorExample(code), null, 2)}</code></pre>
            </figure>
          </section>
        ))}
        <p className="hint">
          Every endpoint, with the errors it can answer: <Link href="/docs/api" prefetch={false}>API reference</Link>. Keys are
          created by an organisation admin under <Link href="/settings/api-keys">Settings → API keys</Link>.
        </p>
      </main>
    </div>
  );
}
