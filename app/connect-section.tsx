// The front page's "Connect your client": this server's MCP URL and, per client, what to paste or run
// (with that URL filled in), what the person will see, and the other way in (an API key, or OAuth).
// One client is open at a time (<details name>): no script needed to switch, only to copy.
import Link from 'next/link';
import { mcpUrl } from '@/lib/app-url';
import { clientGuides, PUBLIC_URL_STEPS, type Snippet } from '@/lib/mcp/client-setup';
import { CopyButton } from './copy-button';
import { InlineCode } from './inline-code';

/** A snippet as a figure named by its label ("Command", "~/.cursor/mcp.json"), with its copy button beside the label. */
export function SnippetBox({ id, snippet }: { id: string; snippet: Snippet }) {
  return (
    <figure className="snippet" aria-labelledby={id}>
      <figcaption className="snippet-head">
        <span id={id} className="snippet-label">{snippet.label}</span>
        <CopyButton text={snippet.text} what={snippet.copyName} />
      </figcaption>
      <pre><code>{snippet.text}</code></pre>
    </figure>
  );
}

export function ConnectSection() {
  const url = mcpUrl();
  const guides = clientGuides(url);
  return (
    <section className="card connect" id="connect" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect your client</h2>
      <p>
        Most clients sign in with OAuth: they open this site’s sign-in page (your agency dashboard account), then a consent
        screen where you allow the app to read your organisation’s data. Approved apps are listed, and can be disconnected,
        under <Link href="/settings/connected-apps" prefetch={false}>Settings → Connected apps</Link>. Clients that can send headers may use an API
        key instead.
      </p>
      <div className="snippet">
        <div className="snippet-head">
          <span id="mcp-url-label" className="snippet-label">MCP server URL</span>
          <CopyButton text={url} what="MCP server URL" />
        </div>
        <code className="home-url" aria-labelledby="mcp-url-label">{url}</code>
      </div>
      <div className="connect-clients">
        {guides.map((guide, index) => (
          <details key={guide.id} id={`connect-${guide.id}`} name="connect-client" open={index === 0}>
            <summary>{guide.name}</summary>
            <div className="connect-guide">
              <p className={`connect-reach connect-reach-${guide.reach.from}`}><InlineCode text={guide.reach.text} /></p>
              <ol>
                {guide.steps.map((step) => (
                  <li key={step}><InlineCode text={step} /></li>
                ))}
              </ol>
              <SnippetBox id={`connect-${guide.id}-snippet`} snippet={guide.snippet} />
              <h3>What you will see</h3>
              <p><InlineCode text={guide.sees} /></p>
              <h3>{guide.other.title}</h3>
              <p><InlineCode text={guide.other.text} /></p>
              {guide.other.snippet && <SnippetBox id={`connect-${guide.id}-other`} snippet={guide.other.snippet} />}
            </div>
          </details>
        ))}
      </div>
      <h3 id="connect-public-url">From a provider’s cloud: a public https URL</h3>
      {PUBLIC_URL_STEPS.map((step) => (
        <p key={step}><InlineCode text={step} /></p>
      ))}
      <p className="hint">
        Every client gets the same seven read-only tools, over ads and organic social data; with a key that has neither
        scope, all but listing the clients and describing the metrics answer 403. An API key is created by an organisation admin
        under <Link href="/settings/api-keys" prefetch={false}>Settings → API keys</Link>; send it as <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
    </section>
  );
}
