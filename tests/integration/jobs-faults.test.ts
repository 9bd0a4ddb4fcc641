import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, isNull } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { Config } from '../../shared/core/config.ts';
import { outbox } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { jobIds } from '../../shared/core/jobs/jobs.ts';
import { centreInstant } from '../../shared/domain/time.ts';
import { createOutboxRelay } from '../../shared/core/jobs/outbox.relay.ts';
import { closeQueues, createJobsClient, createQueues, type JobsClient } from '../../shared/core/jobs/queues.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { sandboxProvider } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, offlineBooking, onlineBooking } from '../support/factories.ts';
import { nextHoldEnd } from '../../shared/core/services/payment.service.ts';
import { redisMarkerKey } from '../../worker/src/redis-recovery.ts';
import { configFor, deletePrefixKeys, dropQueues, REDIS_URL, startSmtpServer, startTestWorker, testPrefix, waitFor } from '../support/jobs.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEAD_REDIS = 'redis://127.0.0.1:6399';

let database: TestDatabase;
const clock = fixedClock(MONDAY_MORNING_IST);
const logger = createLogger({ level: 'silent' });
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await database.drop();
});

const pendingIntentsOf = (db: TestDatabase) => db.db.select().from(outbox).where(isNull(outbox.dispatchedAt));
const pendingIntents = () => pendingIntentsOf(database);
const sandboxFor = (config: Config, db: TestDatabase = database) =>
  sandboxProvider({ db: db.db, secret: (config.payments as { secret: string }).secret, publicBaseUrl: config.publicBaseUrl, now: clock.now });

/** A database of its own, so another test's leftover intents never reach this test's worker. */
async function ownDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await seedDemoData(db.db);
  cleanups.push(() => db.drop());
  return db;
}

/** The worker as a real process, the way `npm run worker` starts it. */
function spawnWorker(database: TestDatabase, config: Config, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['worker/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: config.queuePrefix,
      PUBLIC_BASE_URL: config.publicBaseUrl,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const reap = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  // Even a test run that is itself cut short must not leave a worker behind.
  process.once('exit', reap);
  cleanups.push(async () => reap());
  return child;
}

/** The booking confirmations an SMTP stand-in accepted for one address. */
const confirmationsTo = (smtp: { messages: { to: string[]; raw: string }[] }, address: string) =>
  smtp.messages.filter((m) => m.to.includes(address) && /^Subject: Booking confirmed/m.test(m.raw));

describe('never lose work', () => {
  it('a job written while Redis is unreachable still runs once Redis is back', async () => {
    const outboxDir = await mkdtemp(path.join(tmpdir(), 'mail-outbox-'));
    cleanups.push(() => rm(outboxDir, { recursive: true, force: true }));
    const config = configFor({ QUEUE_PREFIX: testPrefix(), MAIL_OUTBOX_DIR: outboxDir });
    const app = testApp(database, { config, now: clock.now });
    // Far enough ahead that its reminder is still in the future by the real clock too, which BullMQ's delays follow.
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-27' }))
      .expect(200);
    const id = res.body.booking_id as number;
    expect((await pendingIntents()).map((r) => r.jobId).sort()).toEqual(
      [jobIds.confirmationMail(id, 'client'), jobIds.confirmationMail(id, 'therapist'), jobIds.reminderMail(id, centreInstant('2026-11-27', '10:00'))].sort(),
    );

    const deadQueues = createQueues(DEAD_REDIS, config.queuePrefix);
    const deadRelay = createOutboxRelay({ db: database.db, queues: deadQueues, logger, now: clock.now, enqueueTimeoutMs: 300 });
    expect(await deadRelay.drainOnce()).toBe(0);
    await closeQueues(deadQueues);
    const stuck = await pendingIntents();
    expect(stuck).toHaveLength(3);
    // The relay stops at the first refusal and leaves every row for its next pass.
    expect(stuck.some((r) => r.attempts >= 1 && r.lastError?.includes('Redis'))).toBe(true);

    const worker = await startTestWorker({ database, config, now: clock.now, payments: sandboxFor(config) });
    cleanups.push(async () => {
      await dropQueues(worker.jobs);
      await worker.stop();
    });
    await waitFor(async () => (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).length === 2, 'both e-mails in the outbox folder');
    // The relay records the hand-over once Redis has taken the jobs, which may be after a job has run.
    await waitFor(async () => (await pendingIntents()).length === 0, 'every intent handed over');
    const files = await readdir(outboxDir);
    expect(files.some((f) => f.includes(`confirmation-${id}-client`))).toBe(true);
    expect(files.some((f) => f.includes(`confirmation-${id}-therapist`))).toBe(true);
    expect(await (await worker.jobs.queues.mail.getJob(jobIds.reminderMail(id, centreInstant('2026-11-27', '10:00'))))!.getState()).toBe('delayed');
  });

  it('a job whose worker is killed mid-run completes once after a restart (stalled-job recovery)', async () => {
    const own = await ownDatabase();
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const config = configFor({ QUEUE_PREFIX: testPrefix(), SMTP_URL: smtp.url });
    const app = testApp(own, { config, now: clock.now });
    smtp.stall = true;
    const child = spawnWorker(own, config, { SMTP_URL: smtp.url, WORKER_LOCK_DURATION_MS: '1000', WORKER_STALLED_INTERVAL_MS: '1000' });
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-27', booking_time_slot_start: '11:00', client_email: 'killed.midjob@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    await waitFor(() => smtp.dataStarted >= 2, 'both mails stuck mid-send in the first worker');
    child.kill('SIGKILL');
    await once(child, 'exit');
    smtp.held.length = 0; // the dead worker's half-sent messages are never accepted
    smtp.stall = false;

    const worker = await startTestWorker({
      database: own,
      config,
      now: clock.now,
      payments: sandboxFor(config, own),
      lockDurationMs: 1000,
      stalledIntervalMs: 1000,
    });
    cleanups.push(async () => {
      await dropQueues(worker.jobs);
      await worker.stop();
    });
    const clientJob = (await worker.jobs.queues.mail.getJob(jobIds.confirmationMail(id, 'client')))!;
    const therapistJob = (await worker.jobs.queues.mail.getJob(jobIds.confirmationMail(id, 'therapist')))!;
    await waitFor(async () => (await clientJob.getState()) === 'completed' && (await therapistJob.getState()) === 'completed', 'recovered jobs to complete');
    // Confirmations only: the spawned worker keeps the real clock, by which this session's reminder may be due.
    expect(confirmationsTo(smtp, 'killed.midjob@example.com')).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to.includes('rohan.kapoor@wellbeingcentre.in'))).toHaveLength(1);
  });

  it('SIGTERM lets the running job finish before the worker exits', async () => {
    const own = await ownDatabase();
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const config = configFor({ QUEUE_PREFIX: testPrefix(), SMTP_URL: smtp.url });
    const jobs = createJobsClient(REDIS_URL, config.queuePrefix);
    cleanups.push(async () => {
      await dropQueues(jobs);
      await jobs.close();
    });
    const app = testApp(own, { config, now: clock.now });
    smtp.stall = true;
    const child = spawnWorker(own, config, { SMTP_URL: smtp.url });
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-27', booking_time_slot_start: '12:00', client_email: 'graceful@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    await waitFor(() => smtp.held.length >= 2, 'both mails mid-send');
    child.kill('SIGTERM');
    for (const accept of smtp.held.splice(0)) accept();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    for (const recipient of ['client', 'therapist'] as const) {
      const job = (await jobs.queues.mail.getJob(jobIds.confirmationMail(id, recipient)))!;
      expect(await job.getState()).toBe('completed');
      expect(job.returnvalue).toEqual({ result: 'sent' });
    }
    expect(confirmationsTo(smtp, 'graceful@example.com')).toHaveLength(1);
  });
});

describe('Redis restarted empty', () => {
  it('the workers put back the schedulers, the delayed reminder and the hold expiry, and run no finished job again', async () => {
    const own = await ownDatabase();
    const outboxDir = await mkdtemp(path.join(tmpdir(), 'mail-outbox-'));
    cleanups.push(() => rm(outboxDir, { recursive: true, force: true }));
    const config = configFor({ QUEUE_PREFIX: testPrefix(), MAIL_OUTBOX_DIR: outboxDir });
    cleanups.push(() => deletePrefixKeys(REDIS_URL, config.queuePrefix));
    const app = testApp(own, { config, now: clock.now });
    const payments = sandboxFor(config, own);
    // An unpaid online booking: its hold needs an expiry job.
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '15:00' }))
      .expect(200);
    const holdEnd = (await nextHoldEnd(own.db, clock.now()))!;
    // Two workers on the same queues: both notice the loss, and the recovery must still make one of each job.
    const workers = [
      await startTestWorker({ database: own, config, now: clock.now, payments, redisCheckMs: 200 }),
      await startTestWorker({ database: own, config, now: clock.now, payments, redisCheckMs: 200 }),
    ];
    cleanups.push(async () => {
      for (const w of workers) await w.stop();
    });
    const { queues } = workers[0]!.jobs;
    const res = await request(app)
      .post('/confirm-booking')
      .send(offlineBooking({ booking_date: '2026-11-26', booking_time_slot_start: '10:00', client_email: 'redis.lost@example.com' }))
      .expect(200);
    const id = res.body.booking_id as number;
    const reminderId = jobIds.reminderMail(id, centreInstant('2026-11-26', '10:00'));
    const confirmations = [jobIds.confirmationMail(id, 'client'), jobIds.confirmationMail(id, 'therapist')];
    const emls = async () => (await readdir(outboxDir)).filter((f) => f.endsWith('.eml'));
    const rowOf = async (jobId: string) => (await own.db.select().from(outbox).where(eq(outbox.jobId, jobId)))[0]!;

    await waitFor(
      async () => (await Promise.all(confirmations.map((c) => queues.mail.getJobState(c)))).every((s) => s === 'completed'),
      'both confirmations sent',
    );
    expect(await emls()).toHaveLength(2);
    expect(await queues.mail.getJobState(reminderId)).toBe('delayed');
    expect(await queues.payments.getJobState(jobIds.holdExpiry(holdEnd))).toBe('delayed');
    // What PostgreSQL knows: the confirmations are done, the reminder was handed to Redis and is not.
    for (const c of confirmations) expect((await rowOf(c)).completedAt).not.toBeNull();
    expect(await rowOf(reminderId)).toMatchObject({ completedAt: null, dispatchedAt: expect.any(Date) });

    // Every key of the prefix goes, the schedulers and the delayed jobs with them. Not read back as
    // gone: the workers look every 200 ms, and on a busy machine they had put the schedulers back before
    // this test's next call reached Redis.
    expect(await deletePrefixKeys(REDIS_URL, config.queuePrefix)).toBeGreaterThan(0);

    await waitFor(
      async () =>
        (await queues.payments.getJobScheduler('payments.reconcile')) &&
        (await queues.reports.getJobScheduler('reports.nightly')) &&
        (await queues.mail.getJobState(reminderId)) === 'delayed' &&
        (await queues.payments.getJobState(jobIds.holdExpiry(holdEnd))) === 'delayed',
      'the schedulers, the reminder and the hold expiry back in Redis',
    );
    const reminder = (await queues.mail.getJob(reminderId))!;
    expect(reminder).toMatchObject({ name: 'mail.booking-reminder', data: { bookingId: id } });
    const redis = new Redis(REDIS_URL);
    cleanups.push(async () => redis.disconnect());
    await waitFor(async () => (await redis.get(redisMarkerKey(config.queuePrefix))) === 'ok', 'the recovery to finish');
    await waitFor(async () => (await pendingIntentsOf(own)).length === 0, 'the relays to hand everything over');
    // The finished confirmations were not handed over again: no second e-mail, now or later.
    for (const c of confirmations) expect(await queues.mail.getJobState(c)).toBe('unknown');
    expect(await queues.mail.getJobCounts('wait', 'active', 'delayed')).toEqual({ wait: 0, active: 0, delayed: 1 });
    expect(await emls()).toHaveLength(2);
  });
});

describe('POST /api/payment/generate-link without a worker', () => {
  it('answers 504 with the spec words after its bounded wait, and the job still runs later', async () => {
    const config = configFor({ QUEUE_PREFIX: testPrefix(), PAYMENT_LINK_WAIT_MS: '300' });
    const jobs: JobsClient = createJobsClient(REDIS_URL, config.queuePrefix);
    cleanups.push(async () => {
      await dropQueues(jobs);
      await jobs.close();
    });
    const payments = sandboxFor(config);
    const app = testApp(database, { config, now: clock.now, payments, jobs });
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '14:00' }))
      .expect(200);
    const id = res.body.booking_id as number;
    const token = res.body.booking_token as string;
    const slow = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send({ booking_id: id }).expect(504);
    expect(slow.body).toEqual({ detail: 'Failed to generate payment link. Please contact support.' });

    const worker = await startTestWorker({ database, config, now: clock.now, payments });
    cleanups.push(() => worker.stop());
    const ok = await request(app).post('/api/payment/generate-link').set('X-Booking-Token', token).send({ booking_id: id }).expect(200);
    expect(ok.body.payment_link_id).toMatch(/^plink_/);
  });

  it('answers 502 when Redis is unreachable', async () => {
    const config = configFor({ QUEUE_PREFIX: testPrefix(), REDIS_URL: DEAD_REDIS, PAYMENT_LINK_WAIT_MS: '300' });
    const jobs = createJobsClient(DEAD_REDIS, config.queuePrefix);
    cleanups.push(() => jobs.close());
    const app = testApp(database, { config, now: clock.now, payments: sandboxFor(config), jobs });
    const res = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '15:00' }))
      .expect(200);
    const failed = await request(app)
      .post('/api/payment/generate-link')
      .set('X-Booking-Token', res.body.booking_token)
      .send({ booking_id: res.body.booking_id })
      .expect(502);
    expect(failed.body.detail).toBe('Failed to generate payment link. Please contact support.');
  });
});

describe('Bull Board', () => {
  it('is served at /admin/queues only through the guard', async () => {
    const config = configFor({ QUEUE_PREFIX: testPrefix() });
    const jobs = createJobsClient(REDIS_URL, config.queuePrefix);
    cleanups.push(() => jobs.close());
    const app = testApp(database, {
      config,
      jobs,
      queuesGuard: (req, res, next) => (req.get('x-test-superadmin') === 'yes' ? next() : res.status(403).json({ detail: 'Forbidden.' })),
    });
    await request(app).get('/admin/queues').expect(403);
    const page = await request(app).get('/admin/queues').set('x-test-superadmin', 'yes').expect(200);
    expect(page.text).toMatch(/<html/i);
    const api = await request(app).get('/admin/queues/api/queues').set('x-test-superadmin', 'yes').expect(200);
    expect(api.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['mail', 'meetings', 'payments', 'reports']);
  });
});
