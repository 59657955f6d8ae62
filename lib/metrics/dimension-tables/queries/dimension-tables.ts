// The dimension tables of a web-analytics, search-console or store source: the top keys of each
// dimension in a range with their figures there and in the compare range, in two statements side by
// side (and a third for the rare listed key the compare one did not return).
import { readSql as sql, SqlParams } from '../../../db';
import type { DayRange } from '../../../time/day-range';
import { emptySums, quote, sumsOf, type DimensionRow, type DimensionSource, type WholeOrg } from '../repository';
import { keyAggregate } from './key-aggregate';

/**
 * How many keys per dimension the compare range's statement returns, per key listed: its own highest
 * ranked ones. A key listed for the range is almost always among them; one that is not, in a dimension
 * with more keys than that, is read by a third statement.
 */
const COMPARED_KEYS_PER_LISTED = 4;

/** A key's figures in a range (see keyAggregate). */
interface FigureRow extends Record<string, string | null> {
  dimension: string;
  key: string;
}

/** A ranked key (see rankedKeys). */
interface KeyRow extends FigureRow {
  label: string | null;
  detail: string | null;
  /** Number of keys of the dimension in the range. */
  keys: string;
}

/**
 * The `limit` keys of each dimension with the most of `sortBy` in `range` (descending, then key in byte
 * order), in that order, with their figures, the number of keys of their dimension and, when `labelled`,
 * their label and detail: those of the key's latest day in the range (when several resources report the
 * key that day, the row with the greatest label), looked up in the daily table for the listed keys only,
 * by the full primary key, so that no text is carried through the aggregation.
 */
function rankedKeys<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  whole: WholeOrg | null,
  range: DayRange,
  limit: number,
  labelled: boolean,
): Promise<KeyRow[]> {
  const p = new SqlParams();
  const resources = p.add(resourceIds);
  const org = whole && { id: p.add(whole.id), rollups: whole.rollups };
  const keyed = keyAggregate(source, p, resources, range, undefined, org);
  const withLabels = labelled && source.labelled;
  // A whole organisation's label of a key on a day is kept with its daily sums.
  const labels = !withLabels
    ? ''
    : org
      ? `LEFT JOIN ${org.rollups.dailyTable} l ON l.org_id = ${org.id}::uuid AND l.dimension = r.dimension AND l.date = r.last_day AND l.key = r.key`
      : `LEFT JOIN LATERAL (
         SELECT l.label, l.detail FROM ${source.table} l
          WHERE l.${source.resourceColumn} = ANY(${resources}::uuid[]) AND l.dimension = r.dimension AND l.date = r.last_day AND l.key = r.key
          ORDER BY l.label DESC LIMIT 1
       ) l ON true`;
  return sql<KeyRow>(
    `WITH keyed AS (${keyed})
     SELECT r.*, ${withLabels ? 'l.label, l.detail' : 'r.key AS label, NULL AS detail'}
       FROM (SELECT k.*, count(*) OVER (PARTITION BY k.dimension) AS keys,
                    ROW_NUMBER() OVER (PARTITION BY k.dimension ORDER BY k.${quote(source.sortBy)} DESC NULLS LAST, k.key COLLATE "C") AS rank
               FROM keyed k) r
       ${labels}
      WHERE r.rank <= ${p.add(limit)}
      ORDER BY r.dimension, r.rank`,
    p.values,
  );
}

/** The figures in `range` of the given keys (no row for a key without rows in the range). */
function keyFigures<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  whole: WholeOrg | null,
  range: DayRange,
  keys: FigureRow[],
): Promise<FigureRow[]> {
  const p = new SqlParams();
  const resources = p.add(resourceIds);
  const org = whole && { id: p.add(whole.id), rollups: whole.rollups };
  const wanted = `(SELECT * FROM unnest(${p.add(keys.map((row) => row.dimension))}::"${source.dimensionType}"[], ${p.add(keys.map((row) => row.key))}::text[]))`;
  return sql<FigureRow>(keyAggregate(source, p, resources, range, (alias) => ` AND (${alias}.dimension, ${alias}.key) IN ${wanted}`, org), p.values);
}

/** Rows by dimension and key. */
function byDimensionAndKey(rows: FigureRow[]): Map<string, Map<string, FigureRow>> {
  const map = new Map<string, Map<string, FigureRow>>();
  for (const row of rows) {
    if (!map.has(row.dimension)) map.set(row.dimension, new Map());
    map.get(row.dimension)!.set(row.key, row);
  }
  return map;
}

/**
 * The dimension tables of `resourceIds`: for each dimension, the `limit` keys with the most of
 * `sortBy` in `current` (descending, then key in byte order), each with its figures in `previous`
 * too. Per range, the rollup rows of its whole months and ten-day blocks and the daily rows of its
 * other days (UNION ALL, same columns), aggregated per resource and key (sums, person-days, latest day,
 * peaks) and then per key (peaks summed over resources). The two ranges are read by two statements side
 * by side: the range's ranking with labels, and the compare range's own highest ranked keys
 * (COMPARED_KEYS_PER_LISTED per listed key), which almost always hold every listed key; the listed keys
 * of a dimension that had more keys in the compare range and are not among them are read afterwards.
 * `wholeOrgId`: the organisation when `resourceIds` are all of its resources (every client and the
 * unassigned ones); a source with organisation rollups then reads its sums there.
 */
export async function dimensionTables<D extends string>(
  source: DimensionSource<D>,
  resourceIds: string[],
  current: DayRange,
  previous: DayRange | null,
  limit: number,
  wholeOrgId: string | null = null,
): Promise<Record<D, DimensionRow[]>> {
  const { metrics } = source;
  const whole = source.orgRollups && wholeOrgId !== null ? { id: wholeOrgId, rollups: source.orgRollups } : null;
  const comparedLimit = limit * COMPARED_KEYS_PER_LISTED;
  const [listed, compared] = await Promise.all([
    rankedKeys(source, resourceIds, whole, current, limit, true),
    previous ? rankedKeys(source, resourceIds, whole, previous, comparedLimit, false) : Promise.resolve([]),
  ]);
  const before = byDimensionAndKey(compared);
  if (previous) {
    const cut = new Set(compared.filter((row) => Number(row.keys) > comparedLimit).map((row) => row.dimension));
    const unread = listed.filter((row) => cut.has(row.dimension) && !before.get(row.dimension)?.has(row.key));
    if (unread.length > 0) {
      for (const [dimension, rows] of byDimensionAndKey(await keyFigures(source, resourceIds, whole, previous, unread))) {
        for (const [key, row] of rows) before.get(dimension)!.set(key, row);
      }
    }
  }

  const tables = Object.fromEntries(source.dimensions.map((dimension) => [dimension, [] as DimensionRow[]])) as Record<D, DimensionRow[]>;
  for (const row of listed) {
    const then = before.get(row.dimension)?.get(row.key);
    tables[row.dimension as D].push({
      key: row.key,
      // A listed row always has its label (its key has a row on its latest day).
      label: row.label!,
      detail: row.detail,
      totals: sumsOf(row, metrics),
      // A key without rows in the compare range: every figure null.
      previous: previous ? (then ? sumsOf(then, metrics) : emptySums(metrics)) : null,
    });
  }
  return tables;
}
