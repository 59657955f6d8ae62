// One call of every operation of the REST API (lib/operations/registry), with the parameters each
// needs to answer 200: a range, and for the two that name one thing, a campaign and a post (with a
// stored JPEG thumbnail) of the organisation, read from its database. For the tests that check that
// every endpoint answers the same whichever way the database is reached (a pooler, a replica down).
import { allOperations } from '@/lib/operations/registry';
import { withClient } from '../../scripts/cluster/postgres';

/** The path and query of one call of every operation for `orgId`, over from–to. */
export async function everyOperationPath(databaseUrl: string, orgId: string, range: { from: string; to: string }): Promise<string[]> {
  const [campaign, post] = await withClient(databaseUrl, async (client) => [
    (await client.query<{ id: string }>('SELECT id FROM campaigns WHERE org_id = $1 ORDER BY platform_id LIMIT 1', [orgId])).rows[0],
    (
      await client.query<{ id: string }>(
        `SELECT p.id FROM social_posts p JOIN social_post_thumbnails t ON t.post_id = p.id
          WHERE p.org_id = $1 AND t.bytes IS NOT NULL AND t.content_type = 'image/jpeg' ORDER BY p.post_id LIMIT 1`,
        [orgId],
      )
    ).rows[0],
  ]);
  if (!campaign || !post) throw new Error(`the organisation ${orgId} has no campaign or no post with a thumbnail`);
  const dates = `from=${range.from}&to=${range.to}`;
  const queries: Record<string, string> = {
    '/ads/entities': `level=campaign&${dates}`,
    '/ads/breakdowns': `level=campaign&entityId=${campaign.id}&${dates}`,
    '/social/thumbnail': `post=${post.id}`,
  };
  return allOperations().map((operation) => {
    const search = queries[operation.path] ?? ('from' in operation.query.shape ? dates : '');
    return `/api/v1${operation.path}${search ? `?${search}` : ''}`;
  });
}
