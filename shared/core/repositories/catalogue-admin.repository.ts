/**
 * The catalogue's writes and the admin's reads of it (catalogue.service.ts holds the rules): therapists
 * with their services, weekly slots and time off, centre holidays, services and locations.
 */
import { and, asc, eq, gte, inArray, lte, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { availabilitySlots, bookings, centreHolidays, locations, services, therapists, therapistServices, therapistTimeOff } from '../db/schema.ts';
import { liveBooking } from './live-booking.ts';

export type TherapistRow = typeof therapists.$inferSelect;
export type SlotRow = typeof availabilitySlots.$inferSelect;
export type TimeOffRow = typeof therapistTimeOff.$inferSelect;
export type HolidayRow = typeof centreHolidays.$inferSelect;
export type ServiceRow = typeof services.$inferSelect;
export type LocationRow = typeof locations.$inferSelect;
type Reader = Db | DbOrTx;

/** The therapist's services in the centre's order. */
export async function serviceIdsOf(db: Reader, therapistId: number): Promise<number[]> {
  const rows = await db
    .select({ id: therapistServices.serviceId })
    .from(therapistServices)
    .where(eq(therapistServices.therapistId, therapistId))
    .orderBy(asc(therapistServices.position));
  return rows.map((r) => r.id);
}

export async function replaceTherapistServices(tx: DbOrTx, therapistId: number, serviceIds: number[]): Promise<void> {
  await tx.delete(therapistServices).where(eq(therapistServices.therapistId, therapistId));
  if (serviceIds.length) {
    await tx.insert(therapistServices).values(serviceIds.map((serviceId, position) => ({ therapistId, serviceId, position })));
  }
}

/** Any therapist, active or not, row-locked for a change. */
export async function lockTherapistRow(tx: DbOrTx, id: number): Promise<TherapistRow | undefined> {
  const [row] = await tx.select().from(therapists).where(eq(therapists.id, id)).for('update');
  return row;
}

/** Any therapist, active or not. */
export async function findTherapistRow(db: Reader, id: number): Promise<TherapistRow | undefined> {
  const [row] = await db.select().from(therapists).where(eq(therapists.id, id));
  return row;
}

/** Every therapist by id, every service link in order, every weekly slot, and the time off ending `today` or later. */
export async function listCatalogueRows(db: Db, today: string) {
  const [rows, links, slots, off] = await Promise.all([
    db.select().from(therapists).orderBy(asc(therapists.id)),
    db.select().from(therapistServices).orderBy(asc(therapistServices.therapistId), asc(therapistServices.position)),
    db.select().from(availabilitySlots),
    db.select().from(therapistTimeOff).where(gte(therapistTimeOff.toDate, today)).orderBy(asc(therapistTimeOff.fromDate)),
  ]);
  return { rows, links, slots, off };
}

export async function slotsOf(db: Reader, therapistId: number): Promise<SlotRow[]> {
  return db.select().from(availabilitySlots).where(eq(availabilitySlots.therapistId, therapistId));
}

/** The therapist's time off ending `today` or later, earliest first. */
export async function timeOffFrom(db: Reader, therapistId: number, today: string): Promise<TimeOffRow[]> {
  return db
    .select()
    .from(therapistTimeOff)
    .where(and(eq(therapistTimeOff.therapistId, therapistId), gte(therapistTimeOff.toDate, today)))
    .orderBy(asc(therapistTimeOff.fromDate));
}

export async function insertTherapist(tx: DbOrTx, values: typeof therapists.$inferInsert): Promise<TherapistRow> {
  const [row] = await tx.insert(therapists).values(values).returning();
  return row!;
}

export async function updateTherapist(tx: DbOrTx, id: number, set: Partial<typeof therapists.$inferInsert>): Promise<TherapistRow> {
  const [row] = await tx.update(therapists).set(set).where(eq(therapists.id, id)).returning();
  return row!;
}

/** Live client bookings (not blocks) of one therapist, or of all, on dates from…to, with the therapist's name. */
export async function liveClientBookingsBetween(db: Reader, therapistId: number | undefined, from: string, to: string) {
  return db
    .select({ b: bookings, therapistName: therapists.name })
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .where(
      and(
        therapistId === undefined ? undefined : eq(bookings.therapistId, therapistId),
        gte(bookings.bookingDate, from),
        lte(bookings.bookingDate, to),
        ne(bookings.bookingType, 'ADMIN_BLOCK'),
        liveBooking,
      ),
    )
    .orderBy(asc(bookings.bookingDate), asc(bookings.bookingTimeSlotStart), asc(bookings.id));
}

export async function deleteSlots(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length) await tx.delete(availabilitySlots).where(inArray(availabilitySlots.id, ids));
}

/** The slot is worked on these weekdays (and offered again, if it was not). */
export async function setSlotWeekdays(tx: DbOrTx, id: number, weekdays: number[]): Promise<void> {
  await tx.update(availabilitySlots).set({ weekdays, isAvailable: true }).where(eq(availabilitySlots.id, id));
}

export async function insertSlot(tx: DbOrTx, values: typeof availabilitySlots.$inferInsert): Promise<void> {
  await tx.insert(availabilitySlots).values(values);
}

export async function insertTimeOff(tx: DbOrTx, values: typeof therapistTimeOff.$inferInsert): Promise<TimeOffRow> {
  const [row] = await tx.insert(therapistTimeOff).values(values).returning();
  return row!;
}

/** Deletes the therapist's time-off entry; answers it, or undefined when the therapist has no such entry. */
export async function deleteTimeOffEntry(tx: DbOrTx, therapistId: number, entry: number): Promise<TimeOffRow | undefined> {
  const [row] = await tx
    .delete(therapistTimeOff)
    .where(and(eq(therapistTimeOff.id, entry), eq(therapistTimeOff.therapistId, therapistId)))
    .returning();
  return row;
}

/** The centre's holidays from `date` on, earliest first. */
export async function holidaysFrom(db: Db, date: string): Promise<HolidayRow[]> {
  return db.select().from(centreHolidays).where(gte(centreHolidays.holidayDate, date)).orderBy(asc(centreHolidays.holidayDate));
}

export async function insertHoliday(tx: DbOrTx, values: typeof centreHolidays.$inferInsert): Promise<HolidayRow> {
  const [row] = await tx.insert(centreHolidays).values(values).returning();
  return row!;
}

export async function deleteHolidayRow(tx: DbOrTx, id: number): Promise<HolidayRow | undefined> {
  const [row] = await tx.delete(centreHolidays).where(eq(centreHolidays.id, id)).returning();
  return row;
}

export async function insertService(tx: DbOrTx, name: string): Promise<ServiceRow> {
  const [row] = await tx.insert(services).values({ name }).returning();
  return row!;
}

export async function lockService(tx: DbOrTx, id: number): Promise<ServiceRow | undefined> {
  const [row] = await tx.select().from(services).where(eq(services.id, id)).for('update');
  return row;
}

export async function renameServiceRow(tx: DbOrTx, id: number, name: string): Promise<ServiceRow> {
  const [row] = await tx.update(services).set({ name }).where(eq(services.id, id)).returning();
  return row!;
}

export async function lockLocation(tx: DbOrTx, id: number): Promise<LocationRow | undefined> {
  const [row] = await tx.select().from(locations).where(eq(locations.id, id)).for('update');
  return row;
}

/** Writes `set` to a location (touching updatedAt alone announces a change through its trigger). */
export async function updateLocation(tx: DbOrTx, id: number, set: Partial<typeof locations.$inferInsert>): Promise<LocationRow> {
  const [row] = await tx.update(locations).set(set).where(eq(locations.id, id)).returning();
  return row!;
}

export async function locationIdExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
  return Boolean(row);
}

export async function therapistIdExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: therapists.id }).from(therapists).where(eq(therapists.id, id));
  return Boolean(row);
}
