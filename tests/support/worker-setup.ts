// Points lib/db at the run's database inside each test worker.
import { afterAll, inject } from 'vitest';
import { closeDb } from '@/lib/db';

process.env.DATABASE_URL = inject('databaseUrl');

afterAll(async () => {
  await closeDb();
});
