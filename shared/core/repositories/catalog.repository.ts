import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { AvailabilitySlotDto, BookedSlotDto, LocationDto, ServiceDto, TherapistDto } from '../../contract/public.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import type { ClosedRange } from '../../domain/slots.ts';
import { availabilitySlots, bookings, centreHolidays, locations, services, therapists, therapistServices, therapistTimeOff } from '../db/schema.ts';

import { liveBooking } from './live-booking.ts';

export type TherapistRow = typeof therapists.$inferSelect;

export async function listLocations(db: Db): Promise<LocationDto[]> {
  return db
    .select({ id: locations.id, name: locations.name, description: locations.description, address: locations.address, phone: locations.phone })
    .from(locations)
    .orderBy(asc(locations.id));
}

export async function getLocation(db: Db, id: number): Promise<LocationDto | undefined> {
  const [row] = await db
    .select({ id: locations.id, name: locations.name, description: locations.description, address: locations.address, phone: locations.phone })
    .from(locations)
    .where(eq(locations.id, id));
  return row;
}

export async function listServices(db: Db): Promise<ServiceDto[]> {
  return db.select({ id: services.id, name: services.name }).from(services).orderBy(asc(services.id));
}

export function toTherapistDto(t: TherapistRow, serviceIds: number[]): TherapistDto {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    specialization: t.specialization,
    bio: t.bio,
    price: t.pricePaise === null ? null : paiseToRupees(t.pricePaise),
    image_url: t.imageUrl,
    type: t.type,
    locations: t.locationId,
    offered_service_ids: serviceIds,
    email: t.emails[0] ?? null,
  };
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

export async function listTherapists(db: Db): Promise<TherapistDto[]> {
  return (await listTherapistRows(db)).map(({ row, serviceIds }) => toTherapistDto(row, serviceIds));
}

export async function getTherapist(db: Db, id: number): Promise<TherapistRow | undefined> {
  const [row] = await db
    .select()
    .from(therapists)
    .where(and(eq(therapists.id, id), eq(therapists.isActive, true)));
  return row;
}

export async function listAvailability(db: Db, therapistId?: number): Promise<AvailabilitySlotDto[]> {
  const rows = await db
    .select()
    .from(availabilitySlots)
    .where(therapistId === undefined ? undefined : eq(availabilitySlots.therapistId, therapistId))
    .orderBy(asc(availabilitySlots.therapistId), asc(availabilitySlots.startTime));
  return rows.map((r) => ({
    id: r.id,
    start_time: toHhMm(r.startTime),
    end_time: toHhMm(r.endTime),
    is_available: r.isAvailable,
    admin_blocked: r.adminBlocked,
    therapist_id: r.therapistId,
    locationId: r.locationId,
    weekdays: [...r.weekdays].sort((a, b) => a - b),
  }));
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

/** Live bookings (client bookings and admin blocks) of a therapist from a date on. */
export async function listBookedSlots(db: Db, therapistId: number, fromDate: string): Promise<BookedSlotDto[]> {
  const rows = await db
    .select({ booking_date: bookings.bookingDate, start: bookings.bookingTimeSlotStart })
    .from(bookings)
    .where(and(eq(bookings.therapistId, therapistId), gte(bookings.bookingDate, fromDate), liveBooking))
    .orderBy(asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart));
  return rows.map((r) => ({ booking_date: r.booking_date, booking_time_slot_start: toHhMm(r.start) }));
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
