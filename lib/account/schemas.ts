// Response schemas of the account endpoints (/me, /clients), exactly as the spec shapes them.
import { z } from 'zod';
import { SCOPES } from '../contract/scopes';

const timestamp = z.iso.datetime();

export const keyDescriptionSchema = z
  .object({
    id: z.string().describe('The key’s id.'),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart.'),
    expiresAt: timestamp.nullable().describe('When the key stops working: its expiry, or the end of its rotation overlap (after a rotation) if that comes first; null: never.'),
  })
  .strict();

export const meSchema = z
  .object({
    key: keyDescriptionSchema,
    org: z.object({ id: z.string(), name: z.string() }).strict(),
    scopes: z.array(z.enum(SCOPES)).describe('The endpoints this key may call.'),
    clientIds: z
      .array(z.string())
      .nullable()
      .describe('The clients whose rows this key reads; null: the key carries no client restriction.'),
  })
  .strict();

const lastSyncedAt = timestamp.nullable().describe('End of the latest successful sync; null when it never synced.');

export const clientSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    adAccounts: z.array(
      z
        .object({ id: z.string(), platformAccountId: z.string(), name: z.string(), currency: z.string().nullable(), lastSyncedAt })
        .strict(),
    ),
    pages: z.array(z.object({ pageId: z.string(), name: z.string(), igUsername: z.string().nullable() }).strict()),
    analyticsProperties: z.array(
      z.object({ propertyId: z.string(), name: z.string(), timezone: z.string().nullable(), lastSyncedAt }).strict(),
    ),
    searchConsoleSites: z.array(z.object({ siteUrl: z.string(), lastSyncedAt }).strict()),
    commerceStores: z.array(
      z
        .object({
          shopDomain: z.string(),
          name: z.string().nullable(),
          currency: z.string().nullable(),
          timezone: z.string().nullable(),
          lastSyncedAt,
        })
        .strict(),
    ),
  })
  .strict();

export type Me = z.infer<typeof meSchema>;
export type ClientDescription = z.infer<typeof clientSchema>;
