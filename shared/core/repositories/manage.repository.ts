import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { availabilitySlots, bookings, locations, services, therapists } from '../db/schema.ts';
import type { BookingRow, BookingView } from './booking.repository.ts';

/** A booking as the client's Manage booking page reads it, with what the page shows beside it. */
export type ManagedBooking = BookingView & {
  therapistTitle: string;
  serviceName: string | null;
  /** The end of the session's template slot ('HH:MM:SS'); null when the therapist no longer has that start time. */
  slotEndTime: string | null;
};

/** The booking whose Manage booking token hashes to `hash` (bookings_manage_token_uq), if any. */
export async function findBookingByManageHash(db: DbOrTx, hash: string): Promise<ManagedBooking | undefined> {
  const [row] = await db
    .select({
      booking: bookings,
      therapistName: therapists.name,
      therapistTitle: therapists.title,
      therapistEmails: therapists.emails,
      locationName: locations.name,
      locationAddress: locations.address,
      serviceName: services.name,
      slotEndTime: availabilitySlots.endTime,
    })
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .leftJoin(services, eq(services.id, bookings.serviceId))
    .leftJoin(availabilitySlots, and(eq(availabilitySlots.therapistId, bookings.therapistId), eq(availabilitySlots.startTime, bookings.bookingTimeSlotStart)))
    .where(eq(bookings.manageTokenHash, hash));
  if (!row) return undefined;
  return {
    ...row.booking,
    therapistName: row.therapistName,
    therapistTitle: row.therapistTitle,
    therapistEmail: row.therapistEmails[0] ?? null,
    locationName: row.locationName,
    locationAddress: row.locationAddress,
    serviceName: row.serviceName,
    slotEndTime: row.slotEndTime,
  };
}

/** The booking's row, locked until the transaction ends: every change a client makes to it goes one at a time. */
export async function lockBooking(tx: DbOrTx, id: number): Promise<BookingRow | undefined> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return row;
}

/**
 * Moves a booking to another date and start time, counting the move and raising its calendar SEQUENCE.
 * The live-slot index (bookings_live_slot_uq) refuses a slot live for anyone else, so of two clients
 * racing for one slot the second gets a unique violation and its transaction changes nothing.
 */
export async function moveBooking(tx: DbOrTx, id: number, date: string, time: string, now: Date): Promise<BookingRow> {
  const [row] = await tx
    .update(bookings)
    .set({
      bookingDate: date,
      bookingTimeSlotStart: time,
      rescheduleCount: sql`${bookings.rescheduleCount} + 1`,
      calendarSequence: sql`${bookings.calendarSequence} + 1`,
      clientChange: 'MOVED',
      clientChangedAt: now,
      updatedAt: now,
    })
    .where(eq(bookings.id, id))
    .returning();
  return row!;
}

/** Cancels a booking at its client's request (the slot is free again), raising its calendar SEQUENCE. */
export async function cancelBookingRow(tx: DbOrTx, id: number, now: Date): Promise<BookingRow> {
  const [row] = await tx
    .update(bookings)
    .set({
      cancelled: true,
      paymentHoldExpiresAt: null,
      calendarSequence: sql`${bookings.calendarSequence} + 1`,
      clientChange: 'CANCELLED',
      clientChangedAt: now,
      updatedAt: now,
    })
    .where(eq(bookings.id, id))
    .returning();
  return row!;
}

/** Stores a booking's Manage booking token hash if it has none yet (a booking from before the feature). */
export async function setManageHashIfMissing(db: Db, id: number, hash: string): Promise<void> {
  await db
    .update(bookings)
    .set({ manageTokenHash: hash })
    .where(and(eq(bookings.id, id), isNull(bookings.manageTokenHash)));
}
