import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { bookings } from '../../shared/core/db/schema.ts';
import { seedDemoData } from '../../shared/core/db/seed.ts';
import { bookingJobIds, jobIds } from '../../shared/core/jobs/jobs.ts';
import { bookingJob } from '../../shared/core/jobs/outbox.ts';
import {
  BOOK_BATCH,
  HOLD_ADDRESS_WINDOW_MINUTES,
  NEW_BOOKING_KEYS,
  batchRow,
  type InsertRow,
  type NewBooking,
} from '../../shared/core/repositories/booking-batch/booking-batch.ts';
import { LIVE_BOOKING_SQL } from '../../shared/core/repositories/live-booking.ts';
import { slotWindow } from '../../shared/domain/slots.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { MONDAY_MORNING_IST, newOnlineHold } from '../support/factories.ts';

/**
 * The booking batcher's call (book_batch, migration 0018) against the schema it runs on: the columns of
 * its statement are the ones the code sends and reads, it prepares on a migrated database, and the
 * statement's plan uses the indexes its speed rests on.
 */

let database: TestDatabase;
const now = new Date(MONDAY_MORNING_IST);
const window = slotWindow('client', now);
const columns = getTableColumns(bookings);

/** The statement book_batch runs after its locks, as the migrated database holds it. */
let BOOKING_INSERT: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db);
  const { rows } = await database.pool.query<{ prosrc: string }>(`select prosrc from pg_proc where proname = 'book_batch'`);
  expect(rows).toHaveLength(1);
  BOOKING_INSERT = /\bRETURN QUERY\n([\s\S]*);\s*END\s*$/.exec(rows[0]!.prosrc)![1]!;
});
afterAll(async () => {
  await database.drop();
});

const booking = (over: Partial<NewBooking> = {}) => newOnlineHold(now, { clientAddressHash: 'address-hash', ...over });

/** The statement's values for these bookings, as the batcher sends them (book_batch adds the lock keys). */
const values = (rows: ReturnType<typeof batchRow>['row'][]) => [JSON.stringify(rows.map((row, n) => ({ ...row, n }))), HOLD_ADDRESS_WINDOW_MINUTES];

/** `a b, c d(e, f), …` → [[a, b], [c, 'd(e, f)']]: a column list, types with commas kept whole. */
function columnList(list: string): string[][] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim().split(/\s+/)).map(([name, ...type]) => [name!, type.join(' ')]);
}

describe('the booking insert statement', () => {
  it('reads each booking with the schema’s column types and inserts the columns the code sends', () => {
    const input = /jsonb_to_recordset\(\$1::jsonb\) as x\(([\s\S]*?)\)\n\s*\),/.exec(BOOKING_INSERT)![1]!;
    const expected = [
      ['n', 'int'],
      ...NEW_BOOKING_KEYS.map((k) => [columns[k].name, columns[k].getSQLType()]),
      ['therapist_type', 'smallint'],
      ['followups', 'jsonb'],
      ['asked_at', 'timestamptz'],
      ['hold_limit_client', 'int'],
      ['hold_limit_address', 'int'],
      ['today', 'date'],
      ['now_time', 'time'],
      ['last_date', 'date'],
      ['sundays_closed', 'boolean'],
    ];
    expect(columnList(input.replace(/--.*$/gm, ''))).toEqual(expected);
    // What the TypeScript side puts in each row is exactly what the statement reads.
    const { row } = batchRow(booking(), [], now, window, { perClient: 2, perAddress: 10 });
    expect(Object.keys(row).sort()).toEqual(expected.map(([name]) => name).sort());
    // Each column's value as Drizzle would send it, for bookings with every nullable column set and unset.
    const full = booking({ locationId: 2, clientState: 'Kerala', whatsappOptInAt: now, whatsappConsentText: 'yes', createdByAdminId: 1, adminConfirmed: true });
    const bare = booking({ paymentHoldExpiresAt: null, clientAddressHash: null, clientState: null, clientCity: null });
    for (const v of [full, bare]) {
      const mapped = batchRow(v, [], now, window).row;
      for (const k of NEW_BOOKING_KEYS) expect([k, mapped[columns[k].name]]).toEqual([k, v[k] === null ? null : columns[k].mapToDriverValue(v[k])]);
    }

    const inserted = /insert into bookings \(([\s\S]*?)\)\n/.exec(BOOKING_INSERT)![1]!;
    expect(columnList(inserted.replace(/--.*$/gm, '')).map(([name]) => name)).toEqual([...NEW_BOOKING_KEYS.map((k) => columns[k].name), 'amount_paise']);
    // Each inserted value is the column of the same name: a list out of order would write one column's value in another.
    const selected = /\)\n\s*select\n([\s\S]*?)\n\s*from ctx where/.exec(BOOKING_INSERT)![1]!;
    expect(columnList(selected.replace(/--.*$/gm, '')).map((words) => words.join(' ').trim())).toEqual([
      ...NEW_BOOKING_KEYS.map((k) => `ctx.${columns[k].name}`),
      'coalesce(ctx.price_paise, 0)',
    ]);
    // The ON CONFLICT target names the live-slot index's own predicate, or PostgreSQL would not infer it.
    expect(BOOKING_INSERT).toContain(`where ${LIVE_BOOKING_SQL}\n`);
    // Job ids are made from their parts around the new id, never by rewriting a placeholder id.
    expect(BOOKING_INSERT).not.toMatch(/regexp_replace|replace\(/i);
  });

  it('prepares against the migrated database', async () => {
    const client = await database.pool.connect();
    try {
      await client.query(`prepare booking_insert_check as ${BOOKING_INSERT}`);
      await client.query(`prepare book_batch_check as ${BOOK_BATCH}`);
      const { rows } = await client.query<{ name: string; parameter_types: string[] }>(
        `select name, parameter_types::text[] from pg_prepared_statements order by name`,
      );
      expect(rows).toEqual([
        { name: 'book_batch_check', parameter_types: ['jsonb', 'integer', 'bigint[]'] },
        { name: 'booking_insert_check', parameter_types: ['jsonb', 'integer'] },
      ]);
    } finally {
      await client.query('deallocate all');
      client.release();
    }
  });

  it('answers exactly the columns the code reads, and writes each job under the new booking’s own id', async () => {
    const start = new Date('2026-11-30T10:00:00+05:30');
    const followups = [
      bookingJob('mail.booking-confirmation', bookingJobIds.confirmationMail('client'), { recipient: 'client' }),
      bookingJob('mail.booking-reminder', bookingJobIds.reminderMail(start), { sessionStartsAt: start.toISOString() }, new Date(start.getTime() - 86_400_000)),
    ];
    const rows = [
      batchRow(
        booking({ bookingDate: '2026-11-30', paymentStatus: 'PENDING', paymentHoldExpiresAt: null, paymentTransactionId: 'plan-1' }),
        followups,
        now,
        window,
      ).row,
      batchRow(booking({ bookingDate: '2026-11-30', paymentTransactionId: 'plan-2' }), [], now, window).row,
    ];
    // As the batcher calls it, with a lock key: the locks and the statement in one call.
    const result = await database.pool.query<InsertRow>({ text: BOOK_BATCH, values: [...values(rows), ['42']] });
    // int4, text, int4, int4: the numbers pg hands over as numbers, as InsertRow says.
    expect(result.fields.map((f) => [f.name, f.dataTypeID])).toEqual([
      ['n', 23],
      ['refusal', 25],
      ['id', 23],
      ['retry_after', 23],
    ] satisfies [keyof InsertRow, number][]);
    const [written, taken] = [...result.rows].sort((a, b) => a.n - b.n);
    expect(taken).toEqual({ n: 1, refusal: 'taken', id: null, retry_after: null });
    const id = written!.id!;
    expect(written).toEqual({ n: 0, refusal: null, id, retry_after: null });
    const jobs = await database.pool.query('select job_name, job_id, payload, available_at from outbox order by job_id');
    expect(jobs.rows).toEqual([
      {
        job_name: 'mail.booking-confirmation',
        job_id: jobIds.confirmationMail(id, 'client'),
        payload: { bookingId: id, recipient: 'client' },
        available_at: now,
      },
      {
        job_name: 'mail.booking-reminder',
        job_id: jobIds.reminderMail(id, start),
        payload: { bookingId: id, sessionStartsAt: start.toISOString() },
        available_at: new Date(start.getTime() - 86_400_000),
      },
    ]);
  });

  it('counts holds on their own indexes even when the statistics were taken with no hold live', async () => {
    // A year of settled sessions and no live hold when the table was last analyzed (a centre overnight),
    // then a burst of bookings: the prepared statement's generic plan must still look each client up.
    // On indexes of client_email and client_mobile it read bookings_initiated_idx, every live hold per count.
    await database.pool.query(
      `
      insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
        client_email, client_mobile, payment_status, client_address_hash, amount_paise)
      select 1, 1, date '2025-11-01' + (g % 365), time '08:00' + make_interval(hours => g % 12), 'ONLINE', 'Client ' || g,
        'settled' || g || '@example.com', lpad(g::text, 10, '8'), 'COMPLETED', 'address-' || (g % 50), 150000
      from generate_series(1, 4000) as g`,
    );
    await database.pool.query('delete from bookings where payment_status = $1', ['INITIATED']);
    await database.pool.query('vacuum analyze bookings');
    const rows = Array.from(
      { length: 20 },
      (_, i) =>
        batchRow(
          booking({
            bookingDate: '2026-12-02',
            bookingTimeSlotStart: `${10 + (i % 8)}:00`,
            clientEmail: `burst${i}@example.com`,
            clientAddressHash: `address-${i}`,
          }),
          [],
          now,
          window,
          { perClient: 2, perAddress: 10 },
        ).row,
    );
    const client = await database.pool.connect();
    try {
      await client.query('set plan_cache_mode = force_generic_plan');
      await client.query(`prepare booking_insert_generic (jsonb, int) as ${BOOKING_INSERT}`);
      const [batch, window] = values(rows) as [string, number];
      const { rows: plan } = await client.query<{ 'QUERY PLAN': unknown }>(
        `explain (format json) execute booking_insert_generic (${client.escapeLiteral(batch)}, ${Number(window)})`,
      );
      type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };
      const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
      const scans = nodes((plan[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan)
        .map((n) => n['Index Name'])
        .filter((name) => name === 'bookings_initiated_idx' || name?.startsWith('bookings_hold_'));
      expect(scans.sort()).toEqual(['bookings_hold_email_idx', 'bookings_hold_mobile_idx']);
    } finally {
      await client.query('deallocate all').catch(() => {});
      client.release();
    }
  });

  it('plans the slot conflict on bookings_live_slot_uq and the hold counts on their indexes', async () => {
    // A centre's worth of live holds, each a client of its own, with statistics as autovacuum keeps them.
    await database.pool.query(
      `
      insert into bookings (therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, client_full_name,
        client_email, client_mobile, payment_status, payment_hold_expires_at, client_address_hash, amount_paise)
      select 1, 1, date '2027-01-01' + g, time '10:00', 'ONLINE', 'Client ' || g,
        'client' || g || '@example.com', lpad(g::text, 10, '9'), 'INITIATED', $1::timestamptz + interval '20 minutes', 'address-' || (g % 50), 150000
      from generate_series(1, 3000) as g`,
      [now],
    );
    await database.pool.query('analyze bookings');
    const rows = Array.from(
      { length: 20 },
      (_, i) =>
        batchRow(
          booking({
            bookingDate: '2026-12-01',
            bookingTimeSlotStart: `${10 + (i % 8)}:00`,
            clientEmail: `asker${i}@example.com`,
            clientMobile: `98765${String(i).padStart(5, '0')}`,
            clientAddressHash: `address-${i}`,
          }),
          [],
          now,
          window,
          { perClient: 2, perAddress: 10 },
        ).row,
    );
    const { rows: plan } = await database.pool.query<{ 'QUERY PLAN': unknown }>({ text: `explain (format json) ${BOOKING_INSERT}`, values: values(rows) });
    const text = JSON.stringify(plan[0]!['QUERY PLAN']);
    expect(text).toContain('"Conflict Arbiter Indexes":["bookings_live_slot_uq"]');
    expect(text).toContain('"Index Name":"bookings_hold_email_idx"');
    expect(text).toContain('"Index Name":"bookings_hold_mobile_idx"');
    expect(text).toContain('"Index Name":"bookings_client_address_idx"');
    // Nothing reads the whole of bookings.
    type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    const root = (plan[0]!['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
    expect(nodes(root).filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'bookings')).toEqual([]);
  });
});
