import Link from 'next/link';

export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: '48px auto', padding: '0 16px' }}>
      <h1>Metrics API</h1>
      <p>
        Read-only access to the ads, organic social, web-analytics, search-console and store data that the
        dashboard synced for your organisation.
      </p>
      <ul>
        <li><Link href="/api/v1/openapi.json">OpenAPI document</Link></li>
        <li><Link href="/docs/errors">Error codes</Link></li>
        <li><Link href="/settings/api-keys">Settings: API keys</Link></li>
      </ul>
    </main>
  );
}
