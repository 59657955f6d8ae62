// The gate's connections shared fairly between organisations (gateSql's lanes, lib/db.ts): one
// organisation's key lookups, however many wait, hold at most 2 of the 3 connections, so another
// organisation's lookup is answered while they still wait, not after them. The lane of a key is the
// organisation its last lookup found (lib/auth/org-hints.ts). The order of answers is checked, not
// their times.
import { describe, expect, it } from 'vitest';
import { authenticate } from '@/lib/auth/authenticate';
import { hashKey } from '@/lib/keys/issuing';
import { lookupLane, UNKNOWN_CREDENTIAL_LANE } from '@/lib/auth/org-hints';
import { gateSql } from '@/lib/db';
import { mintKey } from '../support/api';
import { seededOrgs } from './platform-support';

const { main, other } = seededOrgs();

/** The gate's check of a request that carries `key`. */
const authenticateKey = (key: string) =>
  authenticate(new Request('http://localhost:3000/api/v1/me', { headers: { authorization: `Bearer ${key}` } }), { kind: 'bearer', token: key });

describe("the gate's connections", () => {
  it('put a key’s next lookup in the lane of the organisation its last lookup found', async () => {
    const key = await mintKey({ orgId: other.id, name: 'lane key' });
    expect(lookupLane(hashKey(key))).toBe(UNKNOWN_CREDENTIAL_LANE);
    await authenticateKey(key);
    expect(lookupLane(hashKey(key))).toBe(other.id);
  });

  it("answer another organisation's lookup while one organisation's lookups hold its share and more wait", async () => {
    const flooding = await mintKey({ orgId: main.id, name: 'flooding key' });
    const probe = await mintKey({ orgId: other.id, name: 'probe key' });
    await authenticateKey(flooding);
    await authenticateKey(probe);

    const finished: string[] = [];
    // Two slow statements in the flooding organisation's lane take its share of the connections, and
    // its key's lookups queue behind them.
    const held = ['held 1', 'held 2'].map((name) => gateSql('SELECT pg_sleep(1)', [], main.id).then(() => finished.push(name)));
    const queued = Array.from({ length: 20 }, (_, i) => authenticateKey(flooding).then(() => finished.push(`queued ${i + 1}`)));
    const answer = await authenticateKey(probe);
    finished.push('other organisation');
    await Promise.all([...held, ...queued]);

    expect(answer.orgId).toBe(other.id);
    // Answered first, while the flooding organisation's statements still held their connections.
    expect(finished[0]).toBe('other organisation');
    expect(finished).toHaveLength(23);
  });
});
