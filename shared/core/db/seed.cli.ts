import { config } from '../config.ts';
import { connectDatabase } from './client.ts';
import { runMigrations } from './migrate.ts';
import { seedDemoData } from './seed.ts';

const cfg = config();
if (cfg.isProduction) {
  process.stderr.write('Refusing to seed demo data with NODE_ENV=production.\n');
  process.exit(1);
}
await runMigrations(cfg.databaseUrl);
const database = connectDatabase(cfg.databaseUrl, { max: 1 });
const seeded = await seedDemoData(database.db);
await database.close();
process.stdout.write(seeded ? 'Demo centre seeded.\n' : 'Database already has data; nothing seeded.\n');
