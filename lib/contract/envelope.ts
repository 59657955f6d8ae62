// The success envelope `{ data, meta }`: `meta` has exactly the keys of the spec, no others.
import { z } from 'zod';

export const TIMEZONE = 'Asia/Kolkata';

export const metaSchema = z
  .object({
    timezone: z.literal(TIMEZONE).describe('Always Asia/Kolkata: ads and social days are IST calendar days.'),
    syncedAt: z.iso
      .datetime()
      .nullable()
      .describe('The oldest last successful sync among the sources that contributed; null when none has synced.'),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    truncated: z.boolean().optional().describe('true when a list was cut at its cap.'),
    currency: z
      .string()
      .nullable()
      .optional()
      .describe('The one currency of every amount in `data`; null when the rows span several currencies (amounts are then not comparable and must be split per row).'),
  })
  .strict();

export type Meta = z.infer<typeof metaSchema>;

export function envelopeSchema<D extends z.ZodType>(data: D) {
  return z.object({ data, meta: metaSchema }).strict();
}

export interface Envelope<D> {
  data: D;
  meta: Meta;
}

export function envelope<D>(data: D, meta: Omit<Meta, 'timezone' | 'syncedAt'> & { syncedAt: Date | string | null }): Envelope<D> {
  const syncedAt = meta.syncedAt instanceof Date ? meta.syncedAt.toISOString() : meta.syncedAt;
  return { data, meta: { timezone: TIMEZONE, ...meta, syncedAt } };
}
