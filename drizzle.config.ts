import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './shared/core/db/schema.ts',
  out: './shared/core/db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/booking' },
});
