/**
 * The public read calls' answers (spec section 3: locations, services, therapists, availability and
 * booked slots), mapped from the catalogue's rows; api/src/routes/public-reads.ts caches them.
 */
import type { AvailabilitySlotDto, BookedSlotDto, LocationDto, ServiceDto, TherapistDto } from '../../contract/public.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { toHhMm } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import {
  listAvailabilityRows,
  listBookedSlotRows,
  listLocations as locationRows,
  listServices as serviceRows,
  listTherapistRows,
  pingDatabase,
  type AvailabilityRow,
  type TherapistRow,
} from '../repositories/catalog.repository.ts';

export function mapTherapist(t: TherapistRow, serviceIds: number[]): TherapistDto {
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

export function mapAvailability(r: AvailabilityRow): AvailabilitySlotDto {
  return {
    id: r.id,
    start_time: toHhMm(r.startTime),
    end_time: toHhMm(r.endTime),
    is_available: r.isAvailable,
    admin_blocked: r.adminBlocked,
    therapist_id: r.therapistId,
    locationId: r.locationId,
    weekdays: [...r.weekdays].sort((a, b) => a - b),
  };
}

export async function listLocations(db: Db): Promise<LocationDto[]> {
  return locationRows(db);
}

export async function listServices(db: Db): Promise<ServiceDto[]> {
  return serviceRows(db);
}

/** The active therapists, each with the services they offer in the centre's order. */
export async function listTherapists(db: Db): Promise<TherapistDto[]> {
  return (await listTherapistRows(db)).map(({ row, serviceIds }) => mapTherapist(row, serviceIds));
}

/** The weekly schedule, of one therapist or of all. */
export async function listAvailability(db: Db, therapistId?: number): Promise<AvailabilitySlotDto[]> {
  return (await listAvailabilityRows(db, therapistId)).map(mapAvailability);
}

/** Live bookings (client bookings and admin blocks) of a therapist from a date on. */
export async function listBookedSlots(db: Db, therapistId: number, fromDate: string): Promise<BookedSlotDto[]> {
  return (await listBookedSlotRows(db, therapistId, fromDate)).map((r) => ({ booking_date: r.bookingDate, booking_time_slot_start: toHhMm(r.start) }));
}

/** /readyz: whether PostgreSQL answers. */
export async function databaseReady(db: Db): Promise<void> {
  await pingDatabase(db);
}
