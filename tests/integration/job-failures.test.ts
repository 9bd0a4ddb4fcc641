import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../shared/core/config.ts';
import { auditLog, jobFailures, outbox } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import type { MailMessage, Mailer } from '../../shared/core/providers/mail/mail.provider.ts';
import { sandboxProvider } from '../../shared/core/providers/payments/sandbox.provider.ts';
import { bearer, createAdmins, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST } from '../support/factories.ts';
import { configFor, dropQueues, startTestWorker, testPrefix, waitFor, type TestWorker } from '../support/jobs.ts';

let database: TestDatabase;
let config: Config;
let worker: TestWorker;
let app: Express;
let admins: Admins;
const clock = fixedClock(MONDAY_MORNING_IST);

/** A mailer whose sends fail while `failing` is set, as an SMTP server that refuses would. */
const mail = { failing: true, sent: [] as MailMessage[] };
const mailer: Mailer = {
  kind: 'smtp',
  async send(message) {
    if (mail.failing) throw new Error('421 try again later');
    mail.sent.push(message);
    return { messageId: `m-${mail.sent.length}` };
  },
  close() {},
};

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  admins = await createAdmins(database.db);
  config = configFor({ QUEUE_PREFIX: testPrefix(), PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
  const payments = sandboxProvider({
    db: database.db,
    secret: (config.payments as { secret: string }).secret,
    publicBaseUrl: config.publicBaseUrl,
    now: clock.now,
  });
  worker = await startTestWorker({ database, config, now: clock.now, payments, mailer });
  app = testApp(database, { config, now: clock.now });
});
afterAll(async () => {
  await dropQueues(worker.jobs);
  await worker.stop();
  await database.drop();
});

const failuresOf = (jobId: string) => database.db.select().from(jobFailures).where(eq(jobFailures.jobId, jobId));
const desk = () => bearer(tokenFor(admins.admin, clock.now()));
const superDesk = () => bearer(tokenFor(admins.superadmin, clock.now()));

describe('a job that fails for good', () => {
  it('leaves one row: what failed, for which booking, in words with nothing of the client', async () => {
    await worker.jobs.queues.meetings.add('meetings.create', { bookingId: 987_654 }, { jobId: 'meeting.987654', attempts: 3 });
    const [row] = await waitFor(async () => {
      const rows = await failuresOf('meeting.987654');
      return rows.length > 0 && rows;
    }, 'the failure row');
    expect(row).toMatchObject({
      queue: 'meetings',
      jobName: 'meetings.create',
      bookingId: 987_654,
      summary: 'Meeting link failed for booking 987654',
      failedAt: clock.now(),
      // A missing booking will not appear by retrying: the first attempt was the last.
      attempts: 1,
      resolvedAt: null,
      resolvedByAdminId: null,
    });
  });

  it('writes nothing while retries remain, one row after the last, and reuses it when a retry fails again', async () => {
    const booking = await insertBooking(database.db, {
      therapistId: 5,
      bookingDate: '2026-11-30',
      bookingTimeSlotStart: '10:00',
      bookingType: 'OFFLINE',
      paymentStatus: 'PENDING',
      locationId: 1,
      clientFullName: 'Kavya Rao',
      clientEmail: 'kavya.rao@example.com',
    });
    const jobId = `mail-confirmation.${booking.id}.client`;
    const attempts: number[] = [];
    /** Rows of the job as each attempt before the last failed. */
    const rowsWhileRetrying: Promise<number>[] = [];
    const onFailed = (job: { id?: string; attemptsMade: number } | undefined) => {
      if (job?.id !== jobId) return;
      attempts.push(job.attemptsMade);
      if (job.attemptsMade < 3) rowsWhileRetrying.push(failuresOf(jobId).then((r) => r.length));
    };
    for (const w of worker.workers) w.on('failed', onFailed);
    try {
      await worker.jobs.queues.mail.add(
        'mail.booking-confirmation',
        { bookingId: booking.id, recipient: 'client' },
        { jobId, attempts: 3, backoff: { type: 'fixed', delay: 20 } },
      );
      await waitFor(() => attempts.length === 3, 'three failed attempts');
      const rows = await waitFor(async () => {
        const r = await failuresOf(jobId);
        return r.length > 0 && r;
      }, 'the failure row');
      expect(await Promise.all(rowsWhileRetrying)).toEqual([0, 0]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ bookingId: booking.id, summary: `Confirmation e-mail to the client failed for booking ${booking.id}`, attempts: 3 });
      expect(JSON.stringify(rows[0])).not.toMatch(/Kavya|kavya\.rao|421/);

      // Marked resolved, retried from the queues, failed for good again: the same row, open again.
      await request(app).post(`/api/admin/job-failures/${rows[0]!.id}/resolve`).set(desk()).expect(200);
      clock.set('2026-11-23T09:45:00+05:30');
      const job = (await worker.jobs.queues.mail.getJob(jobId))!;
      await job.retry('failed');
      await waitFor(async () => (await failuresOf(jobId))[0]?.resolvedAt === null && true, 'the row reopened');
      const again = await failuresOf(jobId);
      expect(again).toHaveLength(1);
      expect(again[0]).toMatchObject({ id: rows[0]!.id, failedAt: clock.now(), resolvedByAdminId: null });

      // Retried once more, with the mail server back: the job succeeds and its row is resolved by nobody.
      mail.failing = false;
      await (await worker.jobs.queues.mail.getJob(jobId))!.retry('failed');
      await waitFor(async () => (await failuresOf(jobId))[0]?.resolvedAt, 'the row resolved by the success');
      expect((await failuresOf(jobId))[0]).toMatchObject({ resolvedAt: clock.now(), resolvedByAdminId: null });
      expect(mail.sent).toHaveLength(1);
    } finally {
      for (const w of worker.workers) w.off('failed', onFailed);
      mail.failing = true;
      clock.set(MONDAY_MORNING_IST);
    }
  });

  it('an outbox row no worker knows leaves one row, however many passes see it', async () => {
    await database.db
      .insert(outbox)
      .values({ queue: 'mail', jobName: 'mail.retired-job', jobId: 'retired.1', payload: { bookingId: 12 }, availableAt: clock.now() });
    await waitFor(async () => (await failuresOf('retired.1')).length > 0, 'the failure row');
    await waitFor(async () => {
      const [row] = await database.db.select().from(outbox).where(eq(outbox.jobId, 'retired.1'));
      return row!.attempts >= 3;
    }, 'three relay passes');
    const rows = await failuresOf('retired.1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      queue: 'mail',
      jobName: 'mail.retired-job',
      bookingId: 12,
      summary: 'Job "mail.retired-job" is unknown to this worker and was not queued',
      attempts: 1,
    });
  });
});

describe('GET /api/admin/job-failures and POST …/{id}/resolve', () => {
  it('need a signed-in admin; an admin and a super admin both see the list', async () => {
    await request(app).get('/api/admin/job-failures').expect(401);
    await request(app).post('/api/admin/job-failures/1/resolve').expect(401);
    const list = await request(app).get('/api/admin/job-failures').set(desk()).expect(200);
    expect(list.headers['cache-control']).toBe('no-store');
    await request(app).get('/api/admin/job-failures').set(superDesk()).expect(200);
  });

  it('lists open ones first, newest first, paged like the other lists', async () => {
    const base = { queue: 'meetings', jobName: 'meetings.create', attempts: 8, summary: 'Meeting link failed for booking 1' };
    await database.db.insert(jobFailures).values([
      { ...base, jobId: 'paging.old-open', failedAt: new Date('2026-11-20T10:00:00Z') },
      {
        ...base,
        jobId: 'paging.resolved',
        failedAt: new Date('2026-11-23T03:00:00Z'),
        resolvedAt: new Date('2026-11-23T03:30:00Z'),
        resolvedByAdminId: admins.superadmin.id,
      },
      { ...base, jobId: 'paging.new-open', failedAt: new Date('2026-11-23T03:59:00Z') },
    ]);
    const { body } = await request(app).get('/api/admin/job-failures?page_size=100').set(desk()).expect(200);
    const ids = body.items.map((i: { job_id: string }) => i.job_id);
    expect(ids.indexOf('paging.new-open')).toBeLessThan(ids.indexOf('paging.old-open'));
    expect(ids.indexOf('paging.old-open')).toBeLessThan(ids.indexOf('paging.resolved'));
    const open = body.items.filter((i: { resolved_at: string | null }) => i.resolved_at === null).length;
    expect(body).toMatchObject({ page: 1, page_size: 100, total: body.items.length, open });
    expect(body.items.slice(0, open).every((i: { resolved_at: string | null }) => i.resolved_at === null)).toBe(true);
    expect(body.items.find((i: { job_id: string }) => i.job_id === 'paging.resolved')).toMatchObject({
      queue: 'meetings',
      job_name: 'meetings.create',
      attempts: 8,
      failed_at: '2026-11-23T03:00:00.000Z',
      resolved_at: '2026-11-23T03:30:00.000Z',
      resolved_by: admins.superadmin.username,
    });

    const page2 = await request(app).get('/api/admin/job-failures?page=2&page_size=1').set(desk()).expect(200);
    expect(page2.body).toMatchObject({ page: 2, page_size: 1, total: body.total });
    expect(page2.body.items).toEqual([body.items[1]]);
    const bad = await request(app).get('/api/admin/job-failures?page=0').set(desk()).expect(400);
    expect(bad.body.detail).toEqual(expect.any(String));
  });

  it('resolves an open failure once, with an audit entry; a second resolve is 409, an unknown one 404', async () => {
    const [row] = await database.db
      .insert(jobFailures)
      .values({
        queue: 'mail',
        jobName: 'mail.booking-reminder',
        jobId: 'resolve.1',
        bookingId: 41,
        summary: 'Reminder e-mail failed for booking 41',
        failedAt: clock.now(),
        attempts: 8,
      })
      .returning();
    const res = await request(app).post(`/api/admin/job-failures/${row!.id}/resolve`).set(desk()).expect(200);
    expect(res.body).toEqual({
      message: `Failed job ${row!.id} marked resolved successfully.`,
      item: expect.objectContaining({ id: row!.id, resolved_at: clock.now().toISOString(), resolved_by: admins.admin.username }),
    });
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'job_failure'), eq(auditLog.entityId, String(row!.id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      adminId: admins.admin.id,
      action: 'job_failure.resolve',
      before: expect.objectContaining({ job_id: 'resolve.1', resolved_at: null }),
      after: expect.objectContaining({ job_id: 'resolve.1', resolved_at: clock.now().toISOString(), resolved_by_admin_id: admins.admin.id }),
    });

    const twice = await request(app).post(`/api/admin/job-failures/${row!.id}/resolve`).set(superDesk()).expect(409);
    expect(twice.body.detail).toBe(`Failed job ${row!.id} is already resolved.`);
    const missing = await request(app).post('/api/admin/job-failures/999999/resolve').set(desk()).expect(404);
    expect(missing.body.detail).toBe('Failed job 999999 was not found.');
    await request(app).post('/api/admin/job-failures/abc/resolve').set(desk()).expect(400);
    await request(app).post(`/api/admin/job-failures/${row!.id}/resolve`).set(desk()).send({ note: 'x' }).expect(400);
  });
});
