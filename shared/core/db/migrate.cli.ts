import { config } from '../config.ts';
import { runMigrations } from './migrate.ts';

const { databaseUrl } = config();
await runMigrations(databaseUrl);
process.stdout.write('Database migrated.\n');
