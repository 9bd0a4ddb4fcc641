import type { Express } from 'express';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Config } from '../../shared/core/config.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { createLogger } from '../../shared/core/logger.ts';
import type { Mailer, MailMessage } from '../../shared/core/providers/mail/mail.provider.ts';
import { jitsiProvider } from '../../shared/core/providers/meetings/jitsi.provider.ts';
import type { NotificationDeps } from '../../shared/core/services/notification.service.ts';
import { fixedClock, testApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { configFor, inProcessPayments } from './jobs.ts';

/** A mailer that keeps what it is given, so a test reads the e-mails a notification sent. */
export function capturingMailer(): { sent: MailMessage[]; mailer: Mailer } {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    kind: 'outbox',
    send: async (m) => {
      sent.push(m);
      return { messageId: `m${sent.length}` };
    },
    close: () => {},
  };
  return { sent, mailer };
}

/**
 * A seeded database, the API on it (payment links made in process) and the notification
 * dependencies that send through `mailer` — with the public address and support contacts the
 * e-mails print, so tests can read them back.
 */
async function mailingStack(
  clock: { now: () => Date },
  mailer: Mailer,
): Promise<{ database: TestDatabase; config: Config; app: Express; notify: NotificationDeps }> {
  const database = await createTestDatabase();
  await seedDemoData(database.db);
  const config = configFor({ PUBLIC_BASE_URL: 'https://booking.example.in', SUPPORT_PHONE: '+91 22 4000 1234', SUPPORT_EMAIL: 'care@wellbeingcentre.in' });
  const { payments, jobs } = inProcessPayments(database, config, clock.now);
  const app = testApp(database, { config, now: clock.now, payments, jobs });
  const notify: NotificationDeps = {
    db: database.db,
    mailer,
    meetings: jitsiProvider({ domain: 'meet.jit.si' }),
    config,
    logger: createLogger({ level: 'silent' }),
    now: clock.now,
  };
  return { database, config, app, notify };
}

type MailingStack = Awaited<ReturnType<typeof mailingStack>>;

/**
 * A test file's mailing stack: made before its tests (handed to `assign`) and dropped after them;
 * before each test the clock is back at `start` and no e-mail is kept. The clock and the e-mails sent.
 */
export function mailingStackPerFile(start: string, assign: (stack: MailingStack) => void): { clock: ReturnType<typeof fixedClock>; sent: MailMessage[] } {
  const clock = fixedClock(start);
  const { sent, mailer } = capturingMailer();
  let stack: MailingStack | undefined;
  beforeAll(async () => {
    stack = await mailingStack(clock, mailer);
    assign(stack);
  });
  afterAll(async () => {
    await stack?.database.drop();
  });
  beforeEach(() => {
    clock.set(start);
    sent.length = 0;
  });
  return { clock, sent };
}
