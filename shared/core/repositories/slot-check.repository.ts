import { sql } from 'drizzle-orm';
import type { SlotWindow } from '../../domain/slots.ts';
import type { DbOrTx } from '../db/client.ts';

/**
 * "Is this slot bookable?": one checker for every path that books or blocks a slot, the SQL function
 * slot_refusal (migration 0024, which says what each code means). The public batch calls it inside its
 * statement (booking-batch.ts); manual bookings, blocks and reschedules call it here. Its codes, in the
 * order it tries them (tests/integration/slot-rule.test.ts holds this list to the function):
 */
export const SLOT_REFUSALS = [
  'sunday',
  'before_window',
  'after_window',
  'passed',
  'notice',
  'therapist',
  'therapist_type',
  'location',
  'not_on_schedule',
  'schedule_blocked',
  'off_schedule',
  'day_closed',
  'service',
] as const;
export type SlotRefusal = (typeof SLOT_REFUSALS)[number];

/** What holds a slot live: an admin block or a client's booking. */
export type SlotHolder = 'block' | 'booking';

/** A slot a path would book: a type, location or service left out asks nothing of it. */
export type SlotCandidate = {
  therapistId: number;
  /** 1 online, 2 in person. */
  therapistType?: number | null;
  locationId?: number | null;
  date: string;
  start: string;
  serviceId?: number | null;
};

export type SlotCheck = { refusal: SlotRefusal | null; holder: SlotHolder | null };

/** The checker's answer for each candidate, in their order, all under one window: one statement. */
export async function checkSlots(db: DbOrTx, candidates: readonly SlotCandidate[], window: SlotWindow): Promise<SlotCheck[]> {
  const asked = JSON.stringify(
    candidates.map((c, n) => ({
      n,
      therapist_id: c.therapistId,
      therapist_type: c.therapistType ?? null,
      location_id: c.locationId ?? null,
      booking_date: c.date,
      start_time: c.start,
      service_id: c.serviceId ?? null,
    })),
  );
  const { rows } = await db.execute<SlotCheck>(sql`
    select r.refusal, r.holder
    from jsonb_to_recordset(${asked}::jsonb)
      as c(n int, therapist_id integer, therapist_type smallint, location_id integer, booking_date date, start_time time, service_id integer)
    cross join lateral slot_refusal(c.therapist_id, c.therapist_type, c.location_id, c.booking_date, c.start_time, c.service_id,
      ${window.today}::date, ${window.nowTime}::time, ${window.lastDate}::date, ${window.sundaysClosed}::boolean, ${window.earliest}::timestamp) as r
    order by c.n`);
  return rows;
}

/** The checker's answer for one slot. */
export async function checkSlot(db: DbOrTx, candidate: SlotCandidate, window: SlotWindow): Promise<SlotCheck> {
  return (await checkSlots(db, [candidate], window))[0]!;
}
