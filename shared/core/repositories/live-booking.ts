/**
 * The server's words for "this booking holds its slot", written from the one list in
 * shared/domain/slot-states.ts so SQL and TypeScript cannot drift apart. The partial unique index
 * bookings_live_slot_uq (schema.ts, from the same list) and the ON CONFLICT target of the public insert
 * (booking.repository.ts, LIVE_BOOKING_SQL) say the same; tests/integration/admin-slot-states.test.ts
 * holds them equal to isLiveBooking for every cancelled flag and payment status.
 */
import { and, not, notInArray, type SQL } from 'drizzle-orm';
import { SLOT_RELEASING_STATUSES } from '../../domain/slot-states.ts';
import { bookings } from '../db/schema.ts';

/** For hand-written SQL over `bookings` with unqualified columns (e.g. an ON CONFLICT target). */
export const LIVE_BOOKING_SQL = `not cancelled and payment_status not in (${SLOT_RELEASING_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** For Drizzle queries over `bookings`. */
export const liveBooking: SQL = and(not(bookings.cancelled), notInArray(bookings.paymentStatus, [...SLOT_RELEASING_STATUSES]))!;
