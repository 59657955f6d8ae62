// The consent step of an authorization: what the screen shows (the app, its permissions, the
// organisations the user can approve for, whether the redirect stays on this device) and what
// Allow or Deny does. The interaction is read through the provider's cookie check, so a consent link
// opened in another browser than the one that started the authorization cannot be approved.
import type { Interaction, InteractionResults } from 'oidc-provider';
import { mcpUrl } from '../app-url';
import { OAUTH_SCOPES } from '../contract/scopes';
import { prisma, sql } from '../db';
import { AUDIT_ACTIONS, recordAuditEvent } from '../audit/events';
import { displayName } from '../text/plain-text';
import { nodeExchange } from './bridge';
import { oauthProvider } from './provider';
import { redirectKind, staysOnDevice } from './request-rules';

/** The permissions in plain words, as the consent screen and the connected apps list say them. */
type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const SCOPE_WORDS: Record<OAuthScope, string> = {
  'ads:read': 'Read your ad accounts, campaigns, ad sets, ads and their results',
  'social:read': 'Read your Facebook Pages and Instagram accounts, posts and their metrics',
};

export interface ConsentOrganisation {
  orgId: string;
  orgName: string;
  /**
   * The clients the user can see there, and so the app with them: null for an admin (every client,
   * those added later included), else the member's own list (possibly empty).
   */
  clients: string[] | null;
}

/** The app asking, as the sign-in page and the consent screen name it. */
export interface ConsentApp {
  clientId: string;
  clientName: string;
  /** The host that vouches for the app: its metadata document's, else its redirect's. */
  clientHost: string;
  /** True when the code goes to a loopback address or an app scheme on this device. */
  staysOnDevice: boolean;
  scopes: OAuthScope[];
}

export interface ConsentRequest extends ConsentApp {
  uid: string;
  organisations: ConsentOrganisation[];
}

function requestedScopes(interaction: Interaction): OAuthScope[] {
  const requested = new Set(String(interaction.params.scope ?? '').split(' '));
  return OAUTH_SCOPES.filter((scope) => requested.has(scope));
}

function hostOf(uri: string): string {
  const url = URL.parse(uri);
  if (!url) return uri;
  return redirectKind(uri) === 'app' ? `${url.protocol}//${url.host}` : url.host;
}

export async function userOrganisations(userId: string): Promise<ConsentOrganisation[]> {
  const rows = await prisma().membership.findMany({
    where: { userId },
    include: {
      org: { select: { name: true } },
      clientAccess: { select: { client: { select: { name: true } } }, orderBy: { client: { name: 'asc' } } },
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((row) => ({
    orgId: row.orgId,
    orgName: row.org.name,
    clients: row.role === 'admin' ? null : row.clientAccess.map(({ client }) => client.name),
  }));
}

/** The app of an authorization under way, or null when the request has expired, was answered or is unknown. */
export async function consentApp(uid: string): Promise<ConsentApp | null> {
  const provider = oauthProvider();
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.result) return null;
  const clientId = String(interaction.params.client_id);
  const client = await provider.Client.find(clientId);
  if (!client) return null;
  const redirectUri = String(interaction.params.redirect_uri ?? '');
  const metadataUrl = URL.parse(clientId)?.protocol === 'https:' ? clientId : null;
  return {
    clientId,
    // A client registered before names were checked may still carry text-direction controls.
    clientName: displayName(client.clientName ?? 'An unnamed app'),
    clientHost: hostOf(metadataUrl ?? redirectUri),
    staysOnDevice: staysOnDevice(redirectUri),
    scopes: requestedScopes(interaction),
  };
}

/** What the consent screen shows, or null when the request has expired or is unknown. */
export async function consentRequest(uid: string, userId: string): Promise<ConsentRequest | null> {
  const app = await consentApp(uid);
  return app && { uid, ...app, organisations: await userOrganisations(userId) };
}

export type ConsentDecision = { approve: false } | { approve: true; orgId: string };

/** The interaction of this browser (its interaction cookie must match `uid`), or null. */
export async function browserInteraction(request: Request, uid: string): Promise<Interaction | null> {
  const { req, res } = nodeExchange(request, new Uint8Array(), null);
  try {
    const interaction = await oauthProvider().interactionDetails(req, res);
    return interaction.uid === uid && !interaction.result ? interaction : null;
  } catch {
    return null;
  }
}

async function approve(interaction: Interaction, userId: string, orgId: string): Promise<InteractionResults> {
  const provider = oauthProvider();
  const clientId = String(interaction.params.client_id);
  const client = await provider.Client.find(clientId);
  const resource = typeof interaction.params.resource === 'string' ? interaction.params.resource : mcpUrl();
  const scopes = requestedScopes(interaction);
  const grant = new provider.Grant({ accountId: userId, clientId });
  grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  const clientName = client?.clientName ?? clientId;
  // Kept with the grant: a metadata document's client (its redirects included) is stored nowhere else.
  await sql(`UPDATE oauth_payloads SET org_id = $2, client_name = $3, redirect_uris = $4 WHERE model = 'Grant' AND id = $1`, [
    grantId,
    orgId,
    clientName,
    client?.redirectUris ?? [],
  ]);
  // A registration that led to a grant is kept (unused ones expire a day after registering).
  await sql(`UPDATE oauth_payloads SET expires_at = NULL WHERE model = 'Client' AND id = $1`, [clientId]);
  await recordAuditEvent({
    orgId,
    actorId: userId,
    action: AUDIT_ACTIONS.oauthGrantConnected,
    targetType: 'oauth_grant',
    targetId: grantId,
    details: { name: clientName, clientId, scopes },
  });
  return { login: { accountId: userId }, consent: { grantId } };
}

/**
 * Records the user's answer on the interaction and returns where the browser goes next (the
 * provider's resume step, which redirects to the client with a code or `access_denied`). Null when
 * the organisation is not one of the user's.
 */
export async function finishConsent(interaction: Interaction, userId: string, decision: ConsentDecision): Promise<string | null> {
  let result: InteractionResults;
  if (decision.approve) {
    const organisations = await userOrganisations(userId);
    if (!organisations.some((org) => org.orgId === decision.orgId)) return null;
    result = await approve(interaction, userId, decision.orgId);
  } else {
    result = { error: 'access_denied', error_description: 'The user denied the request.' };
  }
  interaction.result = result;
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
