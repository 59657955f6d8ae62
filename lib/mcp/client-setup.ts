// How each MCP client connects to this server, with the server's own MCP URL filled in: the front
// page's "Connect your client" section shows these, and docs/connect.md says the same with
// `<APP_URL>/api/mcp` (a unit test holds the two together). Text between backticks is code.

export interface Snippet {
  /** What the text is, shown above it: "Command", "~/.cursor/mcp.json". */
  label: string;
  /** Completes "Copy the …", the copy button's accessible name. */
  copyName: string;
  text: string;
}

export interface ClientGuide {
  /** Anchor and key: `connect-<id>`. */
  id: string;
  name: string;
  /**
   * Where the client reaches the server from: the person's machine (a localhost URL works) or its
   * provider's cloud (the server must be on a public https URL), and what that means for this URL.
   */
  reach: { from: 'machine' | 'cloud'; text: string };
  steps: string[];
  snippet: Snippet;
  /** What the person sees once it is set up: the sign-in and consent, or the answer. */
  sees: string;
  /** The other way in: an API key for the clients that sign in with OAuth (or why they cannot), OAuth for the one that sends a key. */
  other: { title: string; text: string; snippet?: Snippet };
}

/** The name a client knows the server by, in the commands and files below. */
export const SERVER_NAME = 'metrics';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Whether `url` is on the machine it is opened on: a provider's cloud cannot reach it. (docs/connect.md's `<APP_URL>` is no URL: not local.) */
function isLocal(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host.startsWith('127.');
}

/**
 * How to put a server that runs on your machine on a public https URL, for the clients that connect from
 * their provider's cloud (docs/connect.md says the same). Text between backticks is code.
 */
export const PUBLIC_URL_STEPS = [
  'Claude (claude.ai, the desktop and mobile apps) and ChatGPT connect from their providers’ clouds, not from your computer: this server must be on a public https URL. Claude Code, Cursor, VS Code and the MCP Inspector run on your machine and reach `localhost` too.',
  'For a demo, a tunnel gives a public URL to the server on your machine: `cloudflared tunnel --url http://localhost:3000` prints one (`https://<name>.trycloudflare.com`), as does `ngrok http 3000`.',
  'Start the server with `APP_URL` set to that URL (`APP_URL=https://<name>.trycloudflare.com npm run demo`): it becomes the OAuth issuer and the MCP URL `<APP_URL>/api/mcp` to give the clients. With another `APP_URL`, the metadata the clients read names another server, and they refuse to sign in.',
];

/** A client on the person's machine: any URL it reaches works. */
const ON_YOUR_MACHINE: ClientGuide['reach'] = { from: 'machine', text: 'Runs on your machine: any URL this computer reaches works, `localhost` included.' };

/** A client that connects from `provider`'s cloud: what it needs of `url`. */
function fromCloud(provider: string, url: string): ClientGuide['reach'] {
  const local = isLocal(url) ? ` This server’s URL is on this computer, which ${provider} cannot reach: put it on a public https URL first (see “From a provider’s cloud” below).` : '';
  return { from: 'cloud', text: `Connects from ${provider}’s cloud, not from your computer: the URL must be public and https.${local}` };
}

const OAUTH_ONLY = (client: string) => ({
  title: 'With an API key instead',
  text: `${client} signs in with OAuth only: it cannot send an API key. Nothing is needed beyond the sign-in.`,
});

/** A snippet as data: its text is made from the MCP URL. */
interface SnippetTemplate extends Omit<Snippet, 'text'> {
  text: (url: string) => string;
}

/** A guide as data: where its client connects from, and snippets made from the MCP URL. */
interface GuideTemplate extends Omit<ClientGuide, 'reach' | 'snippet' | 'other'> {
  reach: { from: 'machine' } | { from: 'cloud'; provider: string };
  snippet: SnippetTemplate;
  other: Omit<ClientGuide['other'], 'snippet'> & { snippet?: SnippetTemplate };
}

/** The guides, in the order the page lists them. */
const CLIENT_GUIDES: GuideTemplate[] = [
  {
    id: 'claude',
    name: 'Claude',
    reach: { from: 'cloud', provider: 'Anthropic' },
    steps: [
      'In Claude (claude.ai or the desktop app), open Settings → Connectors (Customize → Connectors in newer versions) and choose Add custom connector (the + button). On Team and Enterprise plans, an owner adds it for the organisation first (Admin settings → Connectors).',
      'Name it (for example Metrics), paste the URL below as the remote MCP server URL, and leave the advanced settings empty.',
      'Choose Add, then Connect.',
    ],
    snippet: { label: 'Connector URL', copyName: 'Claude connector URL', text: (url) => url },
    sees: 'A window opens on this site’s sign-in page (your agency dashboard account), then a consent screen asking you to allow Claude to read your data: it names your organisation and the clients Claude will see. After Allow, the window closes and the connector lists its tools.',
    other: OAUTH_ONLY('Claude'),
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    reach: { from: 'machine' },
    steps: ['Run this command in a terminal.', 'In Claude Code, type `/mcp`, choose `metrics`, then Authenticate.'],
    snippet: { label: 'Command', copyName: 'Claude Code command', text: (url) => `claude mcp add --transport http ${SERVER_NAME} ${url}` },
    sees: 'Your browser opens this site’s sign-in page, then the consent screen for Claude Code. After Allow, the browser tells you to go back, and `/mcp` shows `metrics` as connected.',
    other: {
      title: 'With an API key instead',
      text: 'Add the server with the key in a header (replace `<key>` with your key). There is no sign-in then.',
      snippet: {
        label: 'Command',
        copyName: 'Claude Code command with an API key',
        text: (url) => `claude mcp add --transport http ${SERVER_NAME} ${url} --header "Authorization: Bearer <key>"`,
      },
    },
  },
  {
    id: 'chatgpt',
    name: 'ChatGPT',
    reach: { from: 'cloud', provider: 'OpenAI' },
    steps: [
      'In ChatGPT on the web, open Settings → Apps → Advanced settings and turn on Developer mode. On Business and Enterprise plans, an admin allows it first (Workspace settings → Permissions & roles → Connected data).',
      'Back in Settings → Apps, choose Create app. Name the app, paste the URL below as its MCP server URL, choose OAuth as its authentication, tick I understand and want to continue, and choose Create.',
    ],
    snippet: { label: 'Server URL', copyName: 'ChatGPT server URL', text: (url) => url },
    sees: 'ChatGPT sends you to this site’s sign-in page, then to the consent screen for ChatGPT. After Allow you are back in ChatGPT; in a chat, choose + → Developer mode and switch the app on.',
    other: OAUTH_ONLY('ChatGPT'),
  },
  {
    id: 'cursor',
    name: 'Cursor',
    reach: { from: 'machine' },
    steps: [
      'Put this in `~/.cursor/mcp.json` (every project) or `.cursor/mcp.json` (one project). If the file lists other servers, add `metrics` beside them.',
      'Open Cursor Settings → MCP: `metrics` asks you to log in. Choose Connect.',
    ],
    snippet: { label: '~/.cursor/mcp.json', copyName: 'Cursor configuration', text: (url) => json({ mcpServers: { [SERVER_NAME]: { url } } }) },
    sees: 'Your browser opens this site’s sign-in page, then the consent screen for Cursor. After Allow, Cursor lists the server’s seven tools.',
    other: {
      title: 'With an API key instead',
      text: 'Send the key in a header. Cursor fills in `${env:METRICS_API_KEY}` from the environment it was started in, so the key stays out of the file.',
      snippet: {
        label: '~/.cursor/mcp.json',
        copyName: 'Cursor configuration with an API key',
        text: (url) => json({ mcpServers: { [SERVER_NAME]: { url, headers: { Authorization: 'Bearer ${env:METRICS_API_KEY}' } } } }),
      },
    },
  },
  {
    id: 'vscode',
    name: 'VS Code',
    reach: { from: 'machine' },
    steps: [
      'Save this as `.vscode/mcp.json` in your workspace (or run MCP: Open User Configuration to have it in every workspace).',
      'Choose Start above the server in the file (or MCP: List Servers → metrics → Start). VS Code asks whether `metrics` may sign in: choose Allow.',
    ],
    snippet: { label: '.vscode/mcp.json', copyName: 'VS Code configuration', text: (url) => json({ servers: { [SERVER_NAME]: { type: 'http', url } } }) },
    sees: 'Your browser opens this site’s sign-in page, then the consent screen for Visual Studio Code. After Allow, the tools appear in the chat’s tool list (agent mode).',
    other: {
      title: 'With an API key instead',
      text: 'VS Code asks for the key the first time, keeps it in its secret storage and sends it in a header: no sign-in.',
      snippet: {
        label: '.vscode/mcp.json',
        copyName: 'VS Code configuration with an API key',
        text: (url) =>
          json({
            inputs: [{ type: 'promptString', id: 'metrics-api-key', description: 'Metrics API key', password: true }],
            servers: { [SERVER_NAME]: { type: 'http', url, headers: { Authorization: 'Bearer ${input:metrics-api-key}' } } },
          }),
      },
    },
  },
  {
    id: 'inspector',
    name: 'MCP Inspector',
    reach: { from: 'machine' },
    steps: [
      'The Inspector’s command line sends an API key: replace `<key>` with your key and run the command (Node.js 22.19 or later: on an older one the Inspector stops with an error that does not say so).',
      'To call a tool, replace `--method tools/list` with `--method tools/call --tool-name list_clients`.',
    ],
    snippet: {
      label: 'Command',
      copyName: 'MCP Inspector command',
      text: (url) => `npx @modelcontextprotocol/inspector --cli ${url} --transport http --header "Authorization: Bearer <key>" --method tools/list`,
    },
    sees: 'The seven tools as JSON, each with its description, input schema and output schema.',
    other: {
      title: 'With OAuth instead',
      text: 'The Inspector’s web page (`npx @modelcontextprotocol/inspector`) signs in with OAuth: choose Streamable HTTP, paste the MCP URL and connect. This server must allow the page’s origin (`MCP_ALLOWED_ORIGINS`, set by its operator).',
    },
  },
];

function filled({ text, ...snippet }: SnippetTemplate, url: string): Snippet {
  return { ...snippet, text: text(url) };
}

/** The guides, in the order the page lists them, for the MCP endpoint `url`. */
export function clientGuides(url: string): ClientGuide[] {
  return CLIENT_GUIDES.map(({ id, name, reach, steps, snippet, sees, other }) => ({
    id,
    name,
    reach: reach.from === 'cloud' ? fromCloud(reach.provider, url) : ON_YOUR_MACHINE,
    steps,
    snippet: filled(snippet, url),
    sees,
    other: { title: other.title, text: other.text, ...(other.snippet && { snippet: filled(other.snippet, url) }) },
  }));
}
