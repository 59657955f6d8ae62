// Integration runs: a fresh database on the real PostgreSQL, migrated and filled by the demo-data
// generator at its `tiny` scale. Everything a test needs to know about it is provided to the workers.
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../../prisma/migrate';
import { seedDatabase, type SeedResult } from '../../prisma/seed';
import { createDatabase, dropDatabase } from './database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    seed: SeedResult;
  }
}

export const SEED_END_DATE = '2026-06-30';

export default async function setup(project: TestProject) {
  const database = await createDatabase();
  await applyMigrations(database.url);
  const seed = await seedDatabase(database.url, { scale: 'tiny', seed: 7, endDate: SEED_END_DATE });
  project.provide('databaseUrl', database.url);
  project.provide('seed', seed);
  return async () => {
    await dropDatabase(database.name);
  };
}
