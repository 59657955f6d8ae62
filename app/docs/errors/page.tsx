// The `<errors doc url>` of every problem document: one section per code, anchored by the code, so
// that a problem's `type` (`…/docs/errors#<code>`) links straight to its explanation.
import type { Metadata } from 'next';
import { ERROR_CODES, ERROR_CODE_NAMES } from '@/lib/contract/errors';
import { QUERY_RULES } from '@/lib/contract/query';

export const metadata: Metadata = { title: 'Error codes · Metrics API' };

export default function ErrorsPage() {
  return (
    <main style={{ maxWidth: 760, margin: '48px auto', padding: '0 16px', lineHeight: 1.5 }}>
      <h1>Error codes</h1>
      <p>
        Every error of the API is an RFC 9457 problem document (<code>application/problem+json</code>) with{' '}
        <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>code</code>. Its{' '}
        <code>type</code> links to the section below for its <code>code</code>. A <code>validation_failed</code> problem
        also lists every problem with the query in <code>errors[]</code>, each as <code>path</code> (the parameter) and{' '}
        <code>message</code>. Every response also carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>,{' '}
        <code>X-RateLimit-Reset</code> and <code>X-Request-Id</code>.
      </p>
      {ERROR_CODE_NAMES.map((code) => (
        <section key={code} id={code} style={{ borderTop: '1px solid var(--line)', paddingTop: 12, marginTop: 24 }}>
          <h2>
            <code>{code}</code> · {ERROR_CODES[code].status} {ERROR_CODES[code].title}
          </h2>
          <p>{ERROR_CODES[code].explanation.replace(/`/g, '')}</p>
          {code === 'validation_failed' && (
            <ul>
              {QUERY_RULES.map((rule) => (
                <li key={rule}>{rule.replace(/`/g, '')}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </main>
  );
}
