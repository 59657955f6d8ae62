// The front page: what the service is and where to go next. Styled by the settings pages' sheet (the
// header, cards and buttons) and the front-page rules in globals.css.
import type { Metadata } from 'next';
import Link from 'next/link';
import { hasSessionCookie, SETTINGS_HOME } from '@/lib/session/current';
import { appUrl } from '@/lib/app-url';
import { ConnectSection, SnippetBox } from './connect-section';
import { SiteHeader } from './site-header';
import './(settings)/settings.css';

// The MCP URL comes from APP_URL when the server starts, not when the app was built.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Metrics API' };

const DATA = [
  { name: 'Ads', what: 'accounts, campaigns, ad sets and ads: spend, reach, clicks, results, daily series and breakdowns' },
  { name: 'Organic social', what: 'Facebook Pages and Instagram: reach, followers, interactions and posts' },
  { name: 'Web analytics', what: 'sessions, users, key events and revenue by channel, source, page, device and country' },
  { name: 'Search console', what: 'clicks, impressions, CTR and position by query, page, country and device' },
  { name: 'Store', what: 'sales, orders, customers and returns by product, channel and country' },
];

export default async function Home() {
  const signedIn = await hasSessionCookie();
  return (
    <div className="shell">
      <SiteHeader />
      <main id="content" className="home">
        <section className="home-hero" aria-labelledby="home-title">
          <h1 id="home-title">Your agency’s synced data, read-only, for servers and assistants</h1>
          <p>
            The Metrics API serves the ads, organic social, web analytics, search console and store data that the agency
            dashboard has already synced for your organisation. Nothing here calls a source platform: every answer says how
            fresh its data is (<code>meta.syncedAt</code>).
          </p>
          <div className="home-actions">
            <Link className="button primary" href="/docs/api" prefetch={false}>API reference</Link>
            <a className="button" href="#connect">Connect your client</a>
            {signedIn ? (
              <Link className="button" href={SETTINGS_HOME}>Go to settings</Link>
            ) : (
              <Link className="button" href="/login">Sign in to manage keys</Link>
            )}
          </div>
        </section>

        <div className="home-grid">
          <section className="card" aria-labelledby="rest-title">
            <h2 id="rest-title">REST API for your servers</h2>
            <p>
              <code>GET</code> requests under <code>/api/v1</code> with an API key in the <code>Authorization: Bearer</code>{' '}
              header. Organisation admins mint keys in <Link href="/settings/api-keys" prefetch={false}>Settings → API keys</Link>, each with its
              scopes and, if wanted, a list of clients. Answers are <code>{'{ data, meta }'}</code>; errors are problem
              documents that link to their explanation.
            </p>
            <p>A first call: the key describes itself (replace <code>&lt;key&gt;</code> with yours).</p>
            <SnippetBox id="first-call" snippet={{ label: 'First call', copyName: 'first call', text: `curl -H "Authorization: Bearer <key>" ${appUrl()}/api/v1/me` }} />
            <ul className="home-links">
              <li><Link href="/docs/api" prefetch={false}>API reference</Link> <span className="muted">every endpoint, its parameters and examples</span></li>
              {/* A plain link: Next.js would prefetch a route handler as a page, and the document refuses that query with 400. */}
              <li><a href="/api/v1/openapi.json">OpenAPI document</a> <span className="muted">OpenAPI 3.1, JSON</span></li>
              <li><Link href="/docs/errors">Error codes</Link> <span className="muted">what each problem <code>code</code> means</span></li>
            </ul>
          </section>

          <section className="card" aria-labelledby="mcp-title">
            <h2 id="mcp-title">MCP server for assistants</h2>
            <p>
              Claude, ChatGPT, VS Code, Cursor and other MCP clients connect to this address and sign in with OAuth: you
              approve them with your dashboard account. A client that cannot sign in can send an API key instead.
              It reads ads and organic social data: web analytics, search console and store data are on the REST API only.
            </p>
            <ul className="home-links">
              <li><a href="#connect">Connect your client</a> <span className="muted">what to paste into Claude, ChatGPT, Cursor, VS Code and others</span></li>
              <li><a href="/llms.txt">llms.txt</a> <span className="muted">the API and the MCP server described for an AI agent</span></li>
            </ul>
          </section>
        </div>

        <ConnectSection />

        <section className="card" aria-labelledby="data-title">
          <h2 id="data-title">What you can read</h2>
          <dl className="home-data">
            {DATA.map((item) => (
              <div key={item.name}>
                <dt>{item.name}</dt>
                <dd>{item.what}</dd>
              </div>
            ))}
          </dl>
          <p className="hint">
            Read-only: nothing can be changed through the API or MCP. A key reads only its own organisation, and only the
            clients it was given.
          </p>
        </section>
      </main>
    </div>
  );
}
