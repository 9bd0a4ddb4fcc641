import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, bookings, outbox, series } from '../../shared/core/db/schema.ts';
import { enqueueInTx, intent } from '../../shared/core/jobs/outbox.ts';
import { insertAudits } from '../../shared/core/repositories/audit.repository.ts';
import { allocateBookingIds, insertSeries, insertSessions, type NewSession } from '../../shared/core/repositories/series.repository.ts';
import { insertBooking } from '../support/admin.ts';
import type { TestDatabase } from '../support/db.ts';
import { seededWithAdmins } from '../support/desk.ts';

/**
 * A series' sessions are written by one statement reading its rows as JSON (db/recordset.ts): what it
 * writes and answers is what Drizzle's own insert and select would, column for column.
 */
let database: TestDatabase;
beforeAll(async () => {
  ({ database } = await seededWithAdmins());
});
afterAll(async () => {
  await database?.drop();
});

describe('rows written as a recordset', () => {
  it('answers each written row as Drizzle selects it, leaves out a slot live for someone else, and fills the defaults', async () => {
    const db = database.db;
    await insertBooking(db, { therapistId: 1, bookingDate: '2027-03-08', bookingTimeSlotStart: '10:00' });
    const now = new Date('2026-11-23T04:00:00Z');
    const made = await insertSeries(db, {
      therapistId: 1,
      bookingType: 'ONLINE',
      locationId: null,
      bookingTimeSlotStart: '10:00',
      firstDate: '2027-03-01',
      intervalWeeks: 1,
      sessionsAsked: 3,
      clientFullName: 'Kavya Nair',
      clientEmail: 'kavya@example.com',
      clientMobile: '9820012345',
      settlement: 'PAID_NOW',
      createdByAdminId: null,
      createdAt: now,
      updatedAt: now,
    });
    const ids = await allocateBookingIds(db, 3);
    const session = (i: number, date: string): NewSession => ({
      id: ids[i]!,
      seriesId: made.id,
      therapistId: 1,
      serviceId: 1,
      bookingDate: date,
      bookingTimeSlotStart: '10:00',
      bookingType: 'ONLINE',
      locationId: null,
      clientFullName: 'Kavya Nair',
      clientEmail: 'kavya@example.com',
      clientMobile: '9820012345',
      clientNote: 'Evenings are hard; mornings suit me. "Quotes", \\ and ₹ too.',
      paymentStatus: 'COMPLETED',
      paymentTransactionId: `txn-recordset-${i}`,
      amountPaise: 150_000,
      adminConfirmed: true,
      createdByAdminId: null,
      paidAt: now,
      manageTokenHash: `hash-recordset-${i}`,
    });
    // Given out of date order; 8 March is live for another client.
    const written = await insertSessions(db, [session(2, '2027-03-15'), session(0, '2027-03-01'), session(1, '2027-03-08')]);
    expect(written.map((r) => r.bookingDate)).toEqual(['2027-03-01', '2027-03-15']);
    const selected = await db
      .select()
      .from(bookings)
      .where(inArray(bookings.id, [ids[0]!, ids[2]!]))
      .orderBy(bookings.bookingDate);
    expect(written).toEqual(selected);
    expect(written[0]).toMatchObject({ paidAt: now, cancelled: false, calendarSequence: 0, clientNote: session(0, '').clientNote, seriesId: made.id });
    expect(written[0]!.createdAt).toBeInstanceOf(Date);
    expect(await db.select().from(bookings).where(eq(bookings.id, ids[1]!))).toEqual([]);
    expect((await db.select().from(series).where(eq(series.id, made.id))).length).toBe(1);
  });

  it('writes audit rows and job intents with their JSON as JSON, the defaults filled, a job id twice once', async () => {
    const db = database.db;
    const now = new Date('2026-11-23T04:00:00Z');
    const after = { note: 'Line one\nline two "quoted" ₹', nested: { ids: [1, 2], at: now }, none: null };
    await insertAudits(db, [
      { adminId: null, actor: 'cli', action: 'recordset.test', entityType: 'booking', entityId: 41, before: null, after },
      { adminId: null, actor: 'cli', action: 'recordset.test', entityType: 'booking', entityId: '42', before: 'a plain string', after: [1, 'two'] },
    ]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, 'recordset.test')).orderBy(auditLog.id);
    expect(audits.map((a) => [a.entityId, a.before, a.after])).toEqual([
      ['41', null, { ...after, nested: { ids: [1, 2], at: now.toISOString() } }],
      ['42', 'a plain string', [1, 'two']],
    ]);
    expect(audits[0]!.at).toBeInstanceOf(Date);

    const job = intent('mail.series-confirmation', 'mail-series-confirmation.recordset.client', { seriesId: 9, recipient: 'client' });
    const later = intent('payments.send-link', 'payment-link-send.recordset', { bookingId: 9 }, new Date('2027-01-01T00:00:00Z'));
    await db.transaction((tx) => enqueueInTx(tx, [job, later], now));
    await db.transaction((tx) => enqueueInTx(tx, [job], now));
    const queued = await db
      .select()
      .from(outbox)
      .where(inArray(outbox.jobId, [job.jobId, later.jobId]))
      .orderBy(outbox.id);
    expect(queued.map((q) => [q.queue, q.jobName, q.payload, q.availableAt, q.dispatchedAt])).toEqual([
      ['mail', 'mail.series-confirmation', { seriesId: 9, recipient: 'client' }, now, null],
      ['payments', 'payments.send-link', { bookingId: 9 }, new Date('2027-01-01T00:00:00Z'), null],
    ]);
  });
});
