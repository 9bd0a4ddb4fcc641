/**
 * `npm run admin -- create` without --password asks for it and never shows it (issue 19, item 21):
 * the real CLI in a real terminal (util-linux `script` gives it a pty, which echoes whatever a
 * program does not hide), and from a pipe.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../shared/core/services/auth.service.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { ROOT } from '../support/stack.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

type Run = { write: (text: string) => void; end: () => void; output: () => string; waitFor: (text: string) => Promise<void>; exit: Promise<number | null> };

function run(command: string, args: string[]): Run {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const collect = (c: Buffer) => {
    out += c.toString();
    for (const w of waiters.splice(0)) (out.includes(w.text) ? w.resolve : () => waiters.push(w))();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    write: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    output: () => out,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        if (out.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exit.then(() => (out.includes(text) ? resolve() : reject(new Error(`exited before "${text}": ${out}`))));
      }),
    exit,
  };
}

const cli = (args: string) => `${process.execPath} shared/core/admin.cli.ts ${args}`;

describe('npm run admin -- create without --password', () => {
  it('in a terminal: asks twice, shows neither, and the admin signs in with it', async () => {
    const secret = 'pty-Secret-4821';
    const p = run('script', ['-qec', cli('create --username deskpty --email deskpty@wellbeingcentre.in'), '/dev/null']);
    await p.waitFor('Password: ');
    p.write(`${secret}\r`);
    await p.waitFor('Repeat the password: ');
    p.write(`${secret}\r`);
    await p.waitFor('Created admin deskpty');
    p.end();
    expect(await p.exit).toBe(0);
    expect(p.output()).not.toContain(secret);
    expect(p.output()).not.toContain('pty-');
    expect(await signIn(database.db, undefined, 'deskpty', secret, '127.0.0.1')).toMatchObject({ username: 'deskpty' });
  });

  it('in a terminal: two different passwords create nothing', async () => {
    const p = run('script', ['-qec', cli('create --username deskmismatch --email deskmismatch@wellbeingcentre.in'), '/dev/null']);
    await p.waitFor('Password: ');
    p.write('first-password-1\r');
    await p.waitFor('Repeat the password: ');
    p.write('other-password-2\r');
    await p.waitFor('The passwords do not match.');
    p.end();
    expect(await p.exit).not.toBe(0);
    expect(p.output()).not.toMatch(/first-password|other-password/);
    expect(await signIn(database.db, undefined, 'deskmismatch', 'first-password-1', '127.0.0.1')).toBeUndefined();
  });

  it('from a pipe: the first line is the password, and it is not printed', async () => {
    const p = run(process.execPath, ['shared/core/admin.cli.ts', 'create', '--username', 'deskpipe', '--email', 'deskpipe@wellbeingcentre.in']);
    p.write('piped-Secret-7730\n');
    p.end();
    expect(await p.exit).toBe(0);
    expect(p.output()).toContain('Created admin deskpipe');
    expect(p.output()).not.toContain('piped-Secret-7730');
    expect(await signIn(database.db, undefined, 'deskpipe', 'piped-Secret-7730', '127.0.0.1')).toMatchObject({ username: 'deskpipe' });
  });

  it('--password still works, with a warning that it is on screen', async () => {
    const p = run(process.execPath, [
      'shared/core/admin.cli.ts',
      'create',
      '--username',
      'deskflag',
      '--email',
      'deskflag@wellbeingcentre.in',
      '--password',
      'flag-Secret-1150',
    ]);
    p.end();
    expect(await p.exit).toBe(0);
    expect(p.output()).toContain('Warning: a password given with --password is shown by npm');
    expect(await signIn(database.db, undefined, 'deskflag', 'flag-Secret-1150', '127.0.0.1')).toMatchObject({ username: 'deskflag' });
  });
});
