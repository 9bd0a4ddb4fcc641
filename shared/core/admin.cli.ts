import { parseArgs } from 'node:util';
import { z } from 'zod';
import { config } from './config.ts';
import { connectDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { AppError } from './errors.ts';
import { createAdminUser, setAdminActive, setAdminPassword } from './services/admin-user.service.ts';

const USAGE = `Usage:
  npm run admin -- create --username U --email E --password P [--superadmin]
  npm run admin -- deactivate --username U
  npm run admin -- activate --username U
  npm run admin -- password --username U --password P   (signs U out everywhere)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    superadmin: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

const command = positionals[0];
if (values.help || !command) fail(USAGE);

const cfg = config();
await runMigrations(cfg.databaseUrl);
const database = connectDatabase(cfg.databaseUrl, { max: 1, applicationName: 'booking-admin-cli' });
try {
  if (command === 'create') {
    if (!values.username || !values.email || !values.password) fail(USAGE);
    const admin = await createAdminUser(database.db, {
      username: values.username,
      email: values.email,
      password: values.password,
      isSuperadmin: values.superadmin,
    });
    process.stdout.write(`Created ${admin.isSuperadmin ? 'super admin' : 'admin'} ${admin.username} (id ${admin.id}).\n`);
  } else if (command === 'deactivate' || command === 'activate') {
    if (!values.username) fail(USAGE);
    const admin = await setAdminActive(database.db, values.username, command === 'activate');
    process.stdout.write(`${admin.username} is now ${admin.isActive ? 'active' : 'inactive'}.\n`);
  } else if (command === 'password') {
    if (!values.username || !values.password) fail(USAGE);
    const admin = await setAdminPassword(database.db, values.username, values.password);
    process.stdout.write(`Password changed for ${admin.username}; their existing sessions are signed out.\n`);
  } else {
    fail(USAGE);
  }
} catch (err) {
  // Messages only: never echo the arguments, which hold the password.
  if (err instanceof z.ZodError) fail(err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  if (err instanceof AppError) fail(err.message);
  throw err;
} finally {
  await database.close();
}
