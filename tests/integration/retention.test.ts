import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outbox, webhookEvents, whatsappStatusEvents } from '../../shared/core/db/schema.ts';
import { OUTBOX_MIN_RETENTION_MS, pruneExpired } from '../../shared/core/services/retention.service.ts';
import { RETENTION_PATTERN } from '../../worker/src/worker.ts';
import { fixedClock } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, dropQueues, inProcessPayments, startTestWorker, testPrefix, waitFor } from '../support/jobs.ts';

/** Issue 23: finished outbox rows and webhook events are deleted after RETENTION_DAYS (default 30). */
let database: TestDatabase;
const clock = fixedClock(MONDAY_MORNING_IST);
const DAY = 24 * 3600_000;
const daysAgo = (days: number) => new Date(clock.now().getTime() - days * DAY);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

let seq = 0;
type OutboxAt = { created: number; dispatched?: number; completed?: number; available?: number };
async function outboxRow(label: string, at: OutboxAt): Promise<void> {
  await database.db.insert(outbox).values({
    queue: 'mail',
    jobName: 'mail.booking-reminder',
    jobId: `${label}.${++seq}`,
    payload: { bookingId: seq },
    createdAt: daysAgo(at.created),
    availableAt: daysAgo(at.available ?? at.created),
    dispatchedAt: at.dispatched === undefined ? null : daysAgo(at.dispatched),
    completedAt: at.completed === undefined ? null : daysAgo(at.completed),
  });
}
async function webhookEvent(label: string, receivedDaysAgo: number): Promise<void> {
  await database.db
    .insert(webhookEvents)
    .values({ eventId: `${label}.${++seq}`, provider: 'sandbox', event: 'payment_link.paid', receivedAt: daysAgo(receivedDaysAgo) });
}
async function statusEvent(label: string, receivedDaysAgo: number): Promise<void> {
  const at = daysAgo(receivedDaysAgo);
  await database.db.insert(whatsappStatusEvents).values({ wamid: `wamid.${label}.${++seq}`, status: 'delivered', occurredAt: at, receivedAt: at });
}
const labels = (rows: { label: string }[]) => rows.map((r) => r.label.split('.')[0]!).sort();
const left = async () => ({
  outbox: labels((await database.db.select({ label: outbox.jobId }).from(outbox).orderBy(asc(outbox.id))) as { label: string }[]),
  webhookEvents: labels((await database.db.select({ label: webhookEvents.eventId }).from(webhookEvents)) as { label: string }[]),
  statusEvents: labels(
    (await database.db.select({ label: whatsappStatusEvents.wamid }).from(whatsappStatusEvents)).map((r) => ({ label: r.label.slice('wamid.'.length) })),
  ),
});

beforeEach(async () => {
  await database.db.delete(outbox);
  await database.db.delete(webhookEvents);
  await database.db.delete(whatsappStatusEvents);
});

describe('pruning rows past retention', () => {
  it('deletes finished outbox rows and events older than 30 days, in batches, keeps the rest, and a second run deletes nothing', async () => {
    // More old rows than one batch holds, so the batches must repeat.
    for (let i = 0; i < 12; i++) await outboxRow('old-done', { created: 45, dispatched: 45, completed: 40 });
    await outboxRow('old-done', { created: 31, dispatched: 31, completed: 30.5 });
    await outboxRow('recent-done', { created: 29.9, dispatched: 29.9, completed: 29.5 });
    // Work not done is never deleted, however old: failed for good, never handed to Redis, or a reminder still due.
    await outboxRow('old-failed', { created: 90, dispatched: 90 });
    await outboxRow('old-pending', { created: 60 });
    await outboxRow('due-later', { created: 40, available: -3 });
    for (let i = 0; i < 7; i++) await webhookEvent('old', 31);
    await webhookEvent('recent', 29);
    for (let i = 0; i < 6; i++) await statusEvent('old', 30.01);
    await statusEvent('recent', 1);

    const deps = { db: database.db, now: clock.now, config: configFor({}) };
    expect(deps.config.retentionDays).toBe(30);
    expect(await pruneExpired(deps, 5)).toEqual({
      before: daysAgo(30).toISOString(),
      outboxBefore: daysAgo(30).toISOString(),
      outbox: 13,
      webhookEvents: 7,
      whatsappStatusEvents: 6,
    });
    expect(await left()).toEqual({
      outbox: ['due-later', 'old-failed', 'old-pending', 'recent-done'],
      webhookEvents: ['recent'],
      statusEvents: ['recent'],
    });

    expect(await pruneExpired(deps, 5)).toMatchObject({ outbox: 0, webhookEvents: 0, whatsappStatusEvents: 0 });
    expect((await left()).outbox).toHaveLength(4);
  });

  it('follows RETENTION_DAYS, but keeps finished outbox rows as long as a lost Redis may make their jobs again', async () => {
    expect(OUTBOX_MIN_RETENTION_MS).toBe(8 * DAY);
    await outboxRow('done-9-days', { created: 9, dispatched: 9, completed: 9 });
    await outboxRow('done-5-days', { created: 5, dispatched: 5, completed: 5 });
    await webhookEvent('five', 5);
    await webhookEvent('one', 1);
    await statusEvent('five', 5);

    const deps = { db: database.db, now: clock.now, config: configFor({ RETENTION_DAYS: '3' }) };
    expect(await pruneExpired(deps)).toMatchObject({ outboxBefore: daysAgo(8).toISOString(), outbox: 1, webhookEvents: 1, whatsappStatusEvents: 1 });
    expect(await left()).toEqual({ outbox: ['done-5-days'], webhookEvents: ['one'], statusEvents: [] });
  });

  it('runs two at once without failing or counting a row twice; what one left, the next run takes', async () => {
    for (let i = 0; i < 9; i++) await outboxRow('old-done', { created: 40, dispatched: 40, completed: 40 });
    await outboxRow('old-pending', { created: 40 });
    for (let i = 0; i < 9; i++) await webhookEvent('old', 40);
    const deps = { db: database.db, now: clock.now, config: configFor({}) };
    // Two at once may each find a batch the other half-emptied and stop early: the next night goes on.
    const runs = [...(await Promise.all([pruneExpired(deps, 2), pruneExpired(deps, 2)])), await pruneExpired(deps, 2)];
    expect(runs.reduce((n, r) => n + r.outbox, 0)).toBe(9);
    expect(runs.reduce((n, r) => n + r.webhookEvents, 0)).toBe(9);
    expect(await left()).toEqual({ outbox: ['old-pending'], webhookEvents: [], statusEvents: [] });
  });
});

describe('the worker runs it', () => {
  it('nightly at 03:15 in the centre’s zone, and as a job answers its counts', async () => {
    await outboxRow('old-done', { created: 40, dispatched: 40, completed: 40 });
    // Handed to Redis long ago and never finished (the relay and the Redis recovery leave it be).
    await outboxRow('old-failed', { created: 40, dispatched: 40 });
    await webhookEvent('old', 40);
    const config = configFor({ PUBLIC_BASE_URL: 'http://127.0.0.1:9', QUEUE_PREFIX: testPrefix() });
    const { payments } = inProcessPayments(database, config, clock.now);
    const worker = await startTestWorker({ database, config, now: clock.now, payments });
    try {
      const scheduler = await worker.jobs.queues.reports.getJobScheduler('reports.retention');
      expect(scheduler).toMatchObject({ name: 'reports.retention', pattern: RETENTION_PATTERN, tz: 'Asia/Kolkata' });
      const job = await worker.jobs.queues.reports.add('reports.retention', {}, { jobId: 'retention-now' });
      await waitFor(async () => (await job.getState()) === 'completed', 'the retention job');
      const done = (await worker.jobs.queues.reports.getJob('retention-now'))!;
      expect(done.returnvalue).toMatchObject({ outbox: 1, webhookEvents: 1, whatsappStatusEvents: 0 });
      expect((await left()).outbox).toEqual(['old-failed']);
    } finally {
      await dropQueues(worker.jobs);
      await worker.stop();
    }
  });
});
