import { parseArgs } from 'node:util';
import { z } from 'zod';
import { config } from './config.ts';
import { connectDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { askNewPassword, PromptCancelled } from './cli-prompt.ts';
import { AppError } from './errors.ts';
import { createAdminUser, setAdminActive, setAdminPassword } from './services/admin-user.service.ts';

const USAGE = `Usage:
  npm run admin -- create --username U --email E [--superadmin]   (asks for the password, not shown)
  npm run admin -- deactivate --username U
  npm run admin -- activate --username U
  npm run admin -- password --username U                          (asks for it; signs U out everywhere)
--password P still works, but npm prints the command line and the shell keeps it in its history:
leave it out and type the password when asked (or pipe it in on one line).`;

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

/** The password: --password when given (with a warning: it is on screen), else asked for without echo. */
async function passwordArg(): Promise<string> {
  if (values.password !== undefined) {
    process.stderr.write('Warning: a password given with --password is shown by npm and kept in your shell history. Leave it out to be asked for it.\n');
    return values.password;
  }
  try {
    return await askNewPassword();
  } catch (err) {
    if (err instanceof PromptCancelled) fail('Cancelled.');
    fail(err instanceof Error ? err.message : 'No password was given.');
  }
}

// Asked before anything else happens, so nothing waits on the typing.
if (command === 'create' && (!values.username || !values.email)) fail(USAGE);
if (command === 'password' && !values.username) fail(USAGE);
const password = command === 'create' || command === 'password' ? await passwordArg() : '';

const cfg = config();
await runMigrations(cfg.databaseUrl);
const database = connectDatabase(cfg.databaseUrl, { max: 1, applicationName: 'booking-admin-cli' });
try {
  if (command === 'create') {
    const admin = await createAdminUser(database.db, {
      username: values.username!,
      email: values.email!,
      password,
      isSuperadmin: values.superadmin,
    });
    process.stdout.write(`Created ${admin.isSuperadmin ? 'super admin' : 'admin'} ${admin.username} (id ${admin.id}).\n`);
  } else if (command === 'deactivate' || command === 'activate') {
    if (!values.username) fail(USAGE);
    const admin = await setAdminActive(database.db, values.username, command === 'activate');
    process.stdout.write(`${admin.username} is now ${admin.isActive ? 'active' : 'inactive'}.\n`);
  } else if (command === 'password') {
    const admin = await setAdminPassword(database.db, values.username!, password);
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
