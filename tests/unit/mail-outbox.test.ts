import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../shared/core/logger.ts';
import { createMailer } from '../../shared/core/providers/mail/mail.provider.ts';

/**
 * The disk under the outbox mailer: while `mode` is set, a write puts down the first half of the
 * message, then either never returns (the worker killed at that point) or fails (disk full).
 * Whichever way the mailer writes (fs.writeFile or a file handle), it goes through here.
 */
const disk = vi.hoisted(() => ({ mode: undefined as 'killed' | 'full' | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const halfThen = async (write: (half: Buffer) => Promise<void>, data: Buffer): Promise<void> => {
    await write(data.subarray(0, Math.floor(data.length / 2)));
    if (disk.mode === 'killed') return new Promise<void>(() => {});
    throw new Error('ENOSPC: no space left on device');
  };
  return {
    ...real,
    writeFile: (async (file: string, data: Buffer, ...rest: never[]) =>
      disk.mode ? halfThen((half) => real.writeFile(file, half), data) : real.writeFile(file, data, ...rest)) as typeof real.writeFile,
    open: (async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      if (!disk.mode) return handle;
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'writeFile') return (data: Buffer) => halfThen((half) => target.writeFile(half), data);
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    }) as typeof real.open,
  };
});

const logger = createLogger({ level: 'silent' });
const message = (subject: string) => ({ to: 'client@example.com', subject, text: 'x'.repeat(20_000), html: `<p>${'y'.repeat(20_000)}</p>` });
let dir: string;

beforeEach(async () => {
  disk.mode = undefined;
  dir = await mkdtemp(path.join(tmpdir(), 'mail-outbox-unit-'));
});
afterEach(async () => {
  disk.mode = undefined;
  await rm(dir, { recursive: true, force: true });
});

const emls = async () => (await readdir(dir)).filter((f) => f.endsWith('.eml'));

describe('outbox mailer (no SMTP): a message file is whole or absent', () => {
  it('a worker killed mid-write leaves no .eml, and the leftover is not taken for a message', async () => {
    const mailer = createMailer({ smtp: undefined, outboxDir: dir, from: 'Centre <care@example.com>' }, logger);
    disk.mode = 'killed';
    void mailer.send(message('Booking confirmed: killed'), 'confirmation-1-client');
    // Half the message is on disk; the write never finishes.
    const leftover = await vi.waitFor(async () => {
      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      const [file] = files as [string];
      expect((await readFile(path.join(dir, file))).length).toBeGreaterThan(0);
      return file;
    });
    expect(await emls()).toEqual([]);
    expect(leftover).toMatch(/^\..*\.tmp$/);

    // The job's retry (another worker) writes the message anew: one .eml, complete.
    disk.mode = undefined;
    await mailer.send(message('Booking confirmed: retried'), 'confirmation-1-client');
    const written = await emls();
    expect(written).toHaveLength(1);
    const raw = await readFile(path.join(dir, written[0]!), 'utf8');
    expect(raw).toContain('Subject: Booking confirmed: retried');
    expect(raw.trimEnd()).toMatch(/--$/); // the MIME multipart's closing boundary: the end of the message
  });

  it('a write that fails midway leaves nothing behind and fails the send (the job retries)', async () => {
    const mailer = createMailer({ smtp: undefined, outboxDir: dir, from: 'Centre <care@example.com>' }, logger);
    disk.mode = 'full';
    await expect(mailer.send(message('Booking confirmed: disk full'), 'confirmation-2-client')).rejects.toThrow(/ENOSPC/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('makes its folder when a write finds it missing: the first message, and after someone removed it', async () => {
    const folder = path.join(dir, 'outbox', 'nested');
    const mailer = createMailer({ smtp: undefined, outboxDir: folder, from: 'Centre <care@example.com>' }, logger);
    await mailer.send(message('first'), 'first');
    expect((await readdir(folder)).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    await rm(path.join(dir, 'outbox'), { recursive: true });
    await mailer.send(message('second'), 'second');
    const files = (await readdir(folder)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(await readFile(path.join(folder, files[0]!), 'utf8')).toContain('Subject: second');
  });
});
