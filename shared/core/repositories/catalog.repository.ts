import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { ClosedRange } from '../../domain/slots.ts';
import { availabilitySlots, bookings, centreHolidays, locations, services, therapists, therapistServices, therapistTimeOff } from '../db/schema.ts';
import { liveBooking } from './live-booking.ts';

export type TherapistRow = typeof therapists.$inferSelect;
export type AvailabilityRow = typeof availabilitySlots.$inferSelect;
export type LocationRow = Pick<typeof locations.$inferSelect, 'id' | 'name' | 'description' | 'address' | 'phone'>;
export type ServiceRow = Pick<typeof services.$inferSelect, 'id' | 'name'>;

export async function listLocations(db: Db): Promise<LocationRow[]> {
  return db
    .select({ id: locations.id, name: locations.name, description: locations.description, address: locations.address, phone: locations.phone })
    .from(locations)
    .orderBy(asc(locations.id));
}

export async function listServices(db: Db): Promise<ServiceRow[]> {
  return db.select({ id: services.id, name: services.name }).from(services).orderBy(asc(services.id));
}

export async function listTherapistRows(db: Db): Promise<{ row: TherapistRow; serviceIds: number[] }[]> {
  const rows = await db.select().from(therapists).where(eq(therapists.isActive, true)).orderBy(asc(therapists.id));
  const links = await db
    .select({ therapistId: therapistServices.therapistId, serviceId: therapistServices.serviceId })
    .from(therapistServices)
    .orderBy(asc(therapistServices.therapistId), asc(therapistServices.position));
  const byTherapist = new Map<number, number[]>();
  for (const l of links) {
    const list = byTherapist.get(l.therapistId) ?? [];
    list.push(l.serviceId);
    byTherapist.set(l.therapistId, list);
  }
  return rows.map((row) => ({ row, serviceIds: byTherapist.get(row.id) ?? [] }));
}

export async function getTherapist(db: Db, id: number): Promise<TherapistRow | undefined> {
  const [row] = await db
    .select()
    .from(therapists)
    .where(and(eq(therapists.id, id), eq(therapists.isActive, true)));
  return row;
}

/** The weekly schedule's slots, of one therapist or of all, by therapist and start time. */
export async function listAvailabilityRows(db: Db, therapistId?: number): Promise<AvailabilityRow[]> {
  return db
    .select()
    .from(availabilitySlots)
    .where(therapistId === undefined ? undefined : eq(availabilitySlots.therapistId, therapistId))
    .orderBy(asc(availabilitySlots.therapistId), asc(availabilitySlots.startTime));
}

/** The centre's holidays and the therapist's time off that touch from…to, as date ranges. */
export async function listClosedRanges(db: Db, therapistId: number, from: string, to: string): Promise<ClosedRange[]> {
  const [holidays, off] = await Promise.all([
    db
      .select({ date: centreHolidays.holidayDate })
      .from(centreHolidays)
      .where(and(gte(centreHolidays.holidayDate, from), lte(centreHolidays.holidayDate, to))),
    db
      .select({ from: therapistTimeOff.fromDate, to: therapistTimeOff.toDate })
      .from(therapistTimeOff)
      .where(and(eq(therapistTimeOff.therapistId, therapistId), lte(therapistTimeOff.fromDate, to), gte(therapistTimeOff.toDate, from))),
  ]);
  return [...holidays.map((h) => ({ from: h.date, to: h.date })), ...off];
}

/** Live bookings (client bookings and admin blocks) of a therapist from a date on, by date and start. */
export async function listBookedSlotRows(db: Db, therapistId: number, fromDate: string): Promise<{ bookingDate: string; start: string }[]> {
  return db
    .select({ bookingDate: bookings.bookingDate, start: bookings.bookingTimeSlotStart })
    .from(bookings)
    .where(and(eq(bookings.therapistId, therapistId), gte(bookings.bookingDate, fromDate), liveBooking))
    .orderBy(asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart));
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
