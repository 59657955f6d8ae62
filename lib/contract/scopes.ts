// The scopes a credential can carry. Scopes gate endpoints; a key's client list gates rows.
export const SCOPES = ['ads:read', 'social:read', 'web:read', 'store:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** The MCP sign-in flow offers only these. */
export const OAUTH_SCOPES = ['ads:read', 'social:read'] as const satisfies readonly Scope[];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
