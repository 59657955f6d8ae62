// oidc-provider's storage over the `oauth_payloads` table: one row per (model, id).
// - Bearer secrets (tokens, codes, the provider's session cookie) are stored under their SHA-256 only;
//   their payload's `jti` (the secret itself in the opaque format) is dropped and restored on read.
// - `consume` is one conditional UPDATE: of two concurrent uses of one code or refresh token exactly
//   one wins; the other is refused as `invalid_grant` without being taken for a replay (which would
//   revoke the whole grant).
// - A rotated refresh token is found as missing (`invalid_grant`, the grant lives on) while it is
//   within ROTATION_RACE_GRACE_S of its rotation and its successor is unused: that is a request that
//   lost the race to the rotation. Otherwise it is found consumed, and the provider treats it as a
//   replay and revokes the grant. All of it is decided in the database, so it holds across processes.
// - A refresh that lost such a race (either way) is told so in `error_description`, with what to do,
//   instead of the provider's bare "grant request is invalid".
// - Expired rows are never returned and are deleted in the background, at most every ten minutes.
// - A dynamically registered client expires a day after registration unless a grant is approved for
//   it (the consent step clears its expiry): abandoned registrations do not pile up.
import { createHash } from 'node:crypto';
import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { sql } from '../db';
import { logger } from '../telemetry/logger';
import { processWide } from '../process-wide';

const HASHED_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'RegistrationAccessToken',
  'Session',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export const UNUSED_REGISTRATION_LIFETIME_S = 24 * 60 * 60;
/**
 * How long after its rotation a refresh token presented again is taken for a request that raced the
 * rotation (several processes of one client sharing the token) rather than for a replay, as long as
 * its successor is unused. Short, so that a stolen token replayed later is still caught.
 */
export const ROTATION_RACE_GRACE_S = 30;
const CLEANUP_INTERVAL_MS = 10 * 60_000;

/** When this process last began deleting expired rows (ms since the epoch). */
const lastCleanup = processWide('oauth-cleanup', () => ({ at: 0 }));

/** The stored form of an id: the SHA-256 of a bearer secret, any other id as it is. */
export function storedId(model: string, id: string): string {
  return HASHED_MODELS.has(model) ? createHash('sha256').update(id).digest('base64url') : id;
}

/** Deletes every expired row (codes, tokens, interactions, unused registrations, ended grants). */
export async function deleteExpiredRows(): Promise<void> {
  await sql('DELETE FROM oauth_payloads WHERE expires_at < now()');
}

/** Runs deleteExpiredRows in the background, at most every ten minutes per process. */
function scheduleCleanup(now = Date.now()): void {
  const cleanup = lastCleanup();
  if (cleanup.at > now - CLEANUP_INTERVAL_MS) return;
  cleanup.at = now;
  deleteExpiredRows().catch((error: Error) => {
    logger().warn(`[oauth] could not delete expired rows: ${error.message}`);
  });
}

interface PayloadRow {
  payload: AdapterPayload;
  consumed: boolean;
  raced: boolean;
}

/**
 * Of a refresh token row (`token`): rotated within the grace, and no later token of its grant used
 * since. A grant has one chain of refresh tokens (every approval makes its own grant), numbered by the
 * provider's `rotations`, so "a later token used" is one consumed with a higher number.
 */
const LOST_ROTATION_RACE = `(token.consumed_at > now() - make_interval(secs => ${ROTATION_RACE_GRACE_S})
  AND NOT EXISTS (SELECT 1 FROM oauth_payloads later
                   WHERE later.model = 'RefreshToken' AND later.grant_id = token.grant_id AND later.consumed_at IS NOT NULL
                     AND (later.payload->>'rotations')::int > (token.payload->>'rotations')::int))`;

/**
 * The refusal of a refresh that lost the race for its refresh token to a concurrent one (several
 * processes of one client sharing a token refresh at once): a client reading it knows that its token
 * was rotated, not revoked, and that the newest one (or a new sign-in) goes on.
 */
function lostRefreshRace(): InstanceType<typeof errors.InvalidGrant> {
  const error = new errors.InvalidGrant('a concurrent request rotated this refresh token');
  error.error_description = 'this refresh token was already used: a concurrent request rotated it. Use the newest refresh token, or sign in again';
  return error;
}

/** Whether the provider is answering a refresh_token grant now (its request context, oidc-provider's own). */
function refreshing(): boolean {
  const ctx = Provider.ctx;
  return ctx?.oidc?.route === 'token' && ctx.oidc.params?.grant_type === 'refresh_token';
}

export class PostgresAdapter implements Adapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    scheduleCleanup();
    const stored = { ...payload };
    if (HASHED_MODELS.has(this.model)) delete stored.jti;
    const lifetime = expiresIn ?? (this.model === 'Client' ? UNUSED_REGISTRATION_LIFETIME_S : undefined);
    await sql(
      `INSERT INTO oauth_payloads (model, id, payload, grant_id, user_code, uid, account_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::int IS NULL THEN NULL ELSE now() + make_interval(secs => $8::int) END)
       ON CONFLICT (model, id) DO UPDATE
         SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
             uid = EXCLUDED.uid, account_id = EXCLUDED.account_id,
             -- A client whose grant cleared its expiry keeps none when the provider saves it again.
             expires_at = CASE WHEN oauth_payloads.model = 'Client' AND oauth_payloads.expires_at IS NULL
                               THEN NULL ELSE EXCLUDED.expires_at END`,
      [
        this.model,
        storedId(this.model, id),
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.userCode ?? null,
        payload.uid ?? null,
        payload.accountId ?? null,
        lifetime ?? null,
      ],
    );
  }

  private async findWhere(condition: string, value: string, id?: string): Promise<AdapterPayload | undefined> {
    const [row] = await sql<PayloadRow>(
      `SELECT payload, consumed_at IS NOT NULL AS consumed, ${this.model === 'RefreshToken' ? LOST_ROTATION_RACE : 'false'} AS raced
         FROM oauth_payloads token
        WHERE model = $1 AND ${condition} = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, value],
    );
    if (row?.raced) {
      // The token endpoint says why; anything else (revocation, introspection) finds nothing, as for any unknown token.
      if (refreshing()) throw lostRefreshRace();
      return undefined;
    }
    if (!row) return undefined;
    const payload: AdapterPayload = { ...row.payload, ...(row.consumed ? { consumed: true } : {}) };
    if (id !== undefined && HASHED_MODELS.has(this.model)) payload.jti = id;
    return payload;
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id', storedId(this.model, id), id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    const won = await sql(
      `UPDATE oauth_payloads SET consumed_at = now()
        WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING 1`,
      [this.model, storedId(this.model, id)],
    );
    // Another request consumed it between our read and this write: that one is served, this one refused.
    if (won.length === 0) throw this.model === 'RefreshToken' ? lostRefreshRace() : new errors.InvalidGrant('grant request is being processed concurrently or was already used');
  }

  async destroy(id: string): Promise<void> {
    await sql('DELETE FROM oauth_payloads WHERE model = $1 AND id = $2', [this.model, storedId(this.model, id)]);
  }

  /** Called once per model: the provider decides which kinds of a grant's rows go. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await sql('DELETE FROM oauth_payloads WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
  }
}

/** Deletes a grant and every code and token issued under it. */
export async function revokeGrantRows(grantId: string): Promise<void> {
  await sql(`DELETE FROM oauth_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [grantId]);
}
