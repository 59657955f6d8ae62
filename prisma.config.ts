import { defineConfig } from 'prisma/config';

// The CLI only generates the client here; migrations are applied by prisma/migrate.ts (see docs/operations.md, Migrations).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
