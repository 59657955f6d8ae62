// The demo-data generator, in memory: determinism, row shapes and the small encoders it relies on.
import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Calendar, yesterdayInIst } from '../../prisma/seed/calendar';
import { encodeRow, type Row, type TableData } from '../../prisma/seed/copy';
import { buildDataset, type DatasetOptions } from '../../prisma/seed/dataset';
import { jpeg, png } from '../../prisma/seed/images';
import { money, splitInt } from '../../prisma/seed/numbers';

/** SHA-256 over every table's name, columns and rows exactly as COPY would receive them. */
async function digest(options: DatasetOptions): Promise<{ digest: string; rows: number; misshapen: string[] }> {
  const dataset = await buildDataset(options);
  const hash = createHash('sha256');
  const misshapen = new Set<string>();
  let rows = 0;
  for (const table of dataset.tables) {
    hash.update(`${table.table}(${table.columns.join(',')})\n`);
    for (const row of table.rows()) {
      if (row.length !== table.columns.length) misshapen.add(table.table);
      hash.update(encodeRow(row));
      rows++;
    }
  }
  return { digest: hash.digest('hex'), rows, misshapen: [...misshapen] };
}

// Generating `tiny` takes a second or so; several generations per test need more than the default 5 s.
const GENERATION_TIMEOUT = 60_000;

describe('seed generator', () => {
  const options: DatasetOptions = { scale: 'tiny', seed: 11, endDate: '2026-03-31' };

  it('gives byte-identical rows for the same seed and end date', async () => {
    const first = await digest(options);
    const second = await digest(options);
    expect(first.rows).toBeGreaterThan(10_000);
    expect(first.misshapen).toEqual([]);
    expect(second).toEqual(first);
  }, GENERATION_TIMEOUT);

  it('gives different rows for another seed or another end date', async () => {
    const base = await digest(options);
    expect((await digest({ ...options, seed: 12 })).digest).not.toBe(base.digest);
    expect((await digest({ ...options, endDate: '2026-04-01' })).digest).not.toBe(base.digest);
  }, GENERATION_TIMEOUT);

  it('gives the same rows when the lanes are generated interleaved, as the loader does', async () => {
    // Pulls rows lane by lane, either one lane after another or one row from each lane in turn.
    const tableDigests = async (interleave: boolean) => {
      const lanes = (await buildDataset(options)).lanes.map((lane) => lane.slice());
      const hashes = new Map<string, string>();
      const open = new Map<TableData, { rows: Iterator<Row>; hash: ReturnType<typeof createHash> }>();
      const step = (lane: TableData[]): boolean => {
        const table = lane[0];
        if (!table) return false;
        let state = open.get(table);
        if (!state) open.set(table, (state = { rows: table.rows()[Symbol.iterator](), hash: createHash('sha256') }));
        const next = state.rows.next();
        if (next.done) {
          hashes.set(table.table, state.hash.digest('hex'));
          lane.shift();
        } else state.hash.update(encodeRow(next.value));
        return true;
      };
      if (interleave) while (lanes.map(step).some(Boolean));
      else for (const lane of lanes) while (step(lane));
      return Object.fromEntries(hashes);
    };
    expect(await tableDigests(true)).toEqual(await tableDigests(false));
  }, GENERATION_TIMEOUT);

  it('lists the demo users with the shared demo password', async () => {
    const dataset = await buildDataset(options);
    expect(dataset.users).toEqual([
      { email: 'admin@demo.agency', password: 'demo-password', role: 'admin', orgSlug: 'demo-agency' },
      { email: 'member@demo.agency', password: 'demo-password', role: 'member', orgSlug: 'demo-agency' },
      { email: 'admin@other.agency', password: 'demo-password', role: 'admin', orgSlug: 'other-agency' },
    ]);
    expect(dataset.orgs.map((o) => [o.slug, o.name])).toEqual([
      ['demo-agency', 'Demo Agency'],
      ['other-agency', 'Other Agency'],
    ]);
  }, GENERATION_TIMEOUT);
});

describe('splitInt', () => {
  it('always adds up to the total and follows the weights', () => {
    for (const [total, weights] of [
      [0, [1, 2]],
      [1, [1, 1, 1]],
      [7, [0.1, 0.2, 0.7]],
      [1_000_003, [3, 0, 5, 1e-9, 2]],
    ] as [number, number[]][]) {
      const parts = splitInt(total, weights);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      parts.forEach((p, i) => expect(Math.abs(p - (total * (weights[i] ?? 0)) / weights.reduce((a, b) => a + b, 0))).toBeLessThan(1));
    }
    expect(splitInt(5, [0, 1, 0])).toEqual([0, 5, 0]);
  });
});

describe('money', () => {
  it('formats cents as numeric(14,2) literals', () => {
    expect([money(0), money(5), money(12345), money(-5), money(100)]).toEqual(['0.00', '0.05', '123.45', '-0.05', '1.00']);
  });
});

describe('calendar', () => {
  it('counts days back from the end date', () => {
    const cal = new Calendar('2026-03-01', 3);
    expect(cal.dates).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    // The end of the range is midnight IST after the end date.
    expect(cal.beforeEnd(0)).toBe('2026-03-01T18:30:00.000Z');
    expect(cal.istTime(2, 9.5)).toBe('2026-03-01T04:00:00.000Z');
  });

  it('takes yesterday in IST as the default end date', () => {
    // 2026-01-10 20:00 UTC is already 2026-01-11 in India.
    expect(yesterdayInIst(Date.parse('2026-01-10T20:00:00Z'))).toBe('2026-01-10');
    expect(yesterdayInIst(Date.parse('2026-01-10T17:00:00Z'))).toBe('2026-01-09');
  });
});

describe('thumbnail encoders', () => {
  it('writes a PNG whose chunks carry valid CRCs and whose pixels inflate to the right size', () => {
    const bytes = png(8, 4, [255, 0, 0], [0, 0, 255]);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    let offset = 8;
    const types: string[] = [];
    while (offset < bytes.length) {
      const length = bytes.readUInt32BE(offset);
      const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
      types.push(typeAndData.subarray(0, 4).toString('ascii'));
      expect(bytes.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData) >>> 0);
      if (types.at(-1) === 'IDAT') expect(inflateSync(typeAndData.subarray(4)).length).toBe(4 * (1 + 8 * 3));
      offset += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it('writes a baseline JPEG with the expected markers and size', () => {
    const bytes = jpeg(4, 2, (c, r) => [c * 60, r * 100, 128]);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    expect([bytes.readUInt16BE(sof + 5), bytes.readUInt16BE(sof + 7)]).toEqual([16, 32]); // height, width
  });
});
