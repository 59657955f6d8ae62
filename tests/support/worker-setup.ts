// Points lib/db at the run's database inside each test worker.
import { afterAll, inject } from 'vitest';
import { closeDb } from '@/lib/db';

process.env.DATABASE_URL = inject('databaseUrl');
// The run's seeded organisations collect the keys that every test file mints (the fuzz test alone
// mints one per 50 requests), far past the cap on active keys; the test of the cap sets its own.
process.env.API_KEYS_PER_ORG_MAX ??= '1000000';

afterAll(async () => {
  await closeDb();
});
