/**
 * The centre's catalogue, managed by super admins from the panel (issue 20): therapists, their weekly
 * hours and time off, centre holidays, services and centres. Every change is one transaction with its
 * audit row (who, when, before and after); the tables' triggers announce it to every read cache, so
 * the public offer follows at once.
 */
import {
  bioParts,
  CATALOGUE_MESSAGES as CM,
  bioText,
  WEEKDAY_KEYS,
  WEEKDAY_NUMBER,
  type AffectedBookingDto,
  type CatalogueTherapistDto,
  type HolidayDto,
  type HolidayInput,
  type LocationPatch,
  type TherapistCreate,
  type TherapistPatch,
  type TimeOffDto,
  type TimeOffInput,
  type WeeklyHours,
} from '../../contract/catalogue.ts';
import { API_MESSAGES } from '../../contract/messages.ts';
import type { LocationDto, ServiceDto } from '../../contract/public.ts';
import { paiseToRupees, rupeesToPaise } from '../../domain/money.ts';
import { sessionEndTime } from '../../domain/session.ts';
import { addDays, centreNow, timeToMinutes, toHhMm } from '../../domain/time.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { AppError, fieldError, isForeignKeyViolation, isUniqueViolation } from '../errors.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { deletePhoto, putPhoto } from '../repositories/photo.repository.ts';
import { photoKey, photoRecord, reencodePhoto, therapistPhotoName } from './photo.service.ts';
import {
  deleteHolidayRow,
  deleteSlots,
  deleteTimeOffEntry,
  findTherapistRow,
  holidaysFrom,
  insertHoliday,
  insertService,
  insertSlot,
  insertTherapist,
  insertTimeOff,
  listCatalogueRows,
  liveClientBookingsBetween,
  locationIdExists,
  lockLocation,
  lockService,
  lockTherapistRow,
  renameServiceRow,
  replaceTherapistServices,
  serviceIdsOf,
  setSlotWeekdays,
  slotsOf,
  therapistIdExists,
  timeOffFrom,
  updateLocation,
  updateTherapist,
  type HolidayRow,
  type LocationRow,
  type TherapistRow,
  type TimeOffRow,
} from '../repositories/catalogue-admin.repository.ts';

export type CatalogueActor = { adminId: number };
const who = (a: CatalogueActor) => ({ adminId: a.adminId, actor: `admin:${a.adminId}` });

const NOT_FOUND = API_MESSAGES.therapistNotFound;

/** The audit view of a therapist: its columns as the API names them, and its services. */
function auditableTherapist(t: TherapistRow, serviceIds: number[]): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    specialization: t.specialization,
    bio: t.bio,
    price: t.pricePaise === null ? null : paiseToRupees(t.pricePaise),
    image_url: t.imageUrl,
    type: t.type,
    location_id: t.locationId,
    email: t.emails,
    service_ids: serviceIds,
    is_active: t.isActive,
  };
}

async function lockTherapist(tx: DbOrTx, id: number): Promise<TherapistRow> {
  const row = await lockTherapistRow(tx, id);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return row;
}

/** Weekly hours from the template rows: a start time is on a weekday when its weekdays hold it. */
export function hoursOf(rows: { startTime: string; weekdays: number[]; isAvailable: boolean }[]): WeeklyHours {
  const hours = Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, [] as string[]])) as WeeklyHours;
  const sorted = rows.filter((r) => r.isAvailable).sort((a, b) => timeToMinutes(a.startTime) - timeToMinutes(b.startTime));
  for (const r of sorted) for (const k of WEEKDAY_KEYS) if (r.weekdays.includes(WEEKDAY_NUMBER[k])) hours[k].push(toHhMm(r.startTime));
  return hours;
}

const conflictMessages = {
  location: 'The selected location does not exist.',
  service: 'One of the selected services does not exist.',
};

function foreignKeyToField(err: unknown): never {
  if (isForeignKeyViolation(err, 'therapists_location_id_locations_id_fk')) throw fieldError('location_id', conflictMessages.location);
  if (isForeignKeyViolation(err, 'therapist_services_service_id_services_id_fk')) throw fieldError('service_ids', conflictMessages.service);
  throw err;
}

/** Every therapist, active or not, with services, weekly hours and time off from today on. */
export async function listCatalogueTherapists(db: Db, now: Date): Promise<CatalogueTherapistDto[]> {
  const today = centreNow(now).date;
  const { rows, links, slots, off } = await listCatalogueRows(db, today);
  return rows.map((t) =>
    toCatalogueDto(
      t,
      links.filter((l) => l.therapistId === t.id).map((l) => l.serviceId),
      slots.filter((s) => s.therapistId === t.id),
      off.filter((o) => o.therapistId === t.id),
    ),
  );
}

function toTimeOffDto(o: TimeOffRow): TimeOffDto {
  return { id: o.id, from_date: o.fromDate, to_date: o.toDate, reason: o.reason };
}

function toCatalogueDto(
  t: TherapistRow,
  serviceIds: number[],
  slots: { startTime: string; weekdays: number[]; isAvailable: boolean }[],
  off: TimeOffRow[],
): CatalogueTherapistDto {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    specialization: t.specialization,
    bio: t.bio,
    bio_parts: bioParts(t.bio),
    price: t.pricePaise === null ? null : paiseToRupees(t.pricePaise),
    image_url: t.imageUrl,
    type: t.type,
    location_id: t.locationId,
    service_ids: serviceIds,
    email: t.emails,
    is_active: t.isActive,
    hours: hoursOf(slots),
    time_off: off.map(toTimeOffDto),
  };
}

export async function getCatalogueTherapist(db: Db | DbOrTx, id: number, now: Date): Promise<CatalogueTherapistDto> {
  const today = centreNow(now).date;
  const t = await findTherapistRow(db, id);
  if (!t) throw new AppError('not_found', NOT_FOUND);
  const [links, slots, off] = await Promise.all([serviceIdsOf(db, id), slotsOf(db, id), timeOffFrom(db, id, today)]);
  return toCatalogueDto(t, links, slots, off);
}

/** POST /api/admin/therapists. */
export async function createTherapist(db: Db, input: TherapistCreate, by: CatalogueActor, now: Date): Promise<CatalogueTherapistDto> {
  try {
    return await db.transaction(async (tx) => {
      const row = await insertTherapist(tx, {
        name: input.name,
        title: input.title,
        specialization: input.specialization,
        bio: bioText(input.bio),
        pricePaise: input.price === null ? null : rupeesToPaise(input.price),
        type: input.type,
        locationId: input.type === 2 ? input.location_id! : null,
        emails: input.email,
        createdAt: now,
        updatedAt: now,
      });
      await replaceTherapistServices(tx, row.id, input.service_ids);
      await insertAudit(tx, {
        ...who(by),
        action: 'therapist.create',
        entityType: 'therapist',
        entityId: row.id,
        before: null,
        after: auditableTherapist(row, input.service_ids),
      });
      return getCatalogueTherapist(tx, row.id, now);
    });
  } catch (err) {
    foreignKeyToField(err);
  }
}

/** PATCH /api/admin/therapists/{id}: a price change applies to bookings made after it (bookings keep their amount). */
export async function patchTherapist(db: Db, id: number, input: TherapistPatch, by: CatalogueActor, now: Date): Promise<CatalogueTherapistDto> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockTherapist(tx, id);
      const beforeServices = await serviceIdsOf(tx, id);
      const type = input.type ?? before.type;
      const locationId = type === 1 ? null : input.location_id !== undefined ? input.location_id : before.locationId;
      if (type === 2 && !locationId) throw fieldError('location_id', CM.inPersonNeedsLocation);
      const after = await updateTherapist(tx, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.specialization !== undefined ? { specialization: input.specialization } : {}),
        ...(input.bio !== undefined ? { bio: bioText(input.bio) } : {}),
        ...(input.price !== undefined ? { pricePaise: input.price === null ? null : rupeesToPaise(input.price) } : {}),
        ...(input.email !== undefined ? { emails: input.email } : {}),
        type,
        locationId,
        updatedAt: now,
      });
      if (input.service_ids !== undefined) await replaceTherapistServices(tx, id, input.service_ids);
      await insertAudit(tx, {
        ...who(by),
        action: 'therapist.update',
        entityType: 'therapist',
        entityId: id,
        before: auditableTherapist(before, beforeServices),
        after: auditableTherapist(after, input.service_ids ?? beforeServices),
      });
      return getCatalogueTherapist(tx, id, now);
    });
  } catch (err) {
    foreignKeyToField(err);
  }
}

/** Live client bookings (not blocks) of one therapist, or of all, on dates from…to. */
async function liveBookingsBetween(db: Db | DbOrTx, therapistId: number | undefined, from: string, to: string): Promise<AffectedBookingDto[]> {
  const rows = await liveClientBookingsBetween(db, therapistId, from, to);
  return rows.map(({ b, therapistName }) => ({
    id: b.id,
    therapist_id: b.therapistId,
    therapist_name: therapistName,
    booking_date: b.bookingDate,
    booking_time_slot_start: toHhMm(b.bookingTimeSlotStart),
    booking_type: b.bookingType,
    client_full_name: b.clientFullName,
    payment_status: b.paymentStatus,
  }));
}

/** The far end of "from today on" for bookings: the admin window is 15 days; a year covers anything made. */
const FAR = (today: string) => addDays(today, 3660);

/**
 * POST /api/admin/therapists/{id}/deactivate and /activate. A deactivated therapist leaves the public
 * list and offer at once; their bookings stay, and the answer lists the live ones from today on.
 */
export async function setTherapistActive(
  db: Db,
  id: number,
  active: boolean,
  by: CatalogueActor,
  now: Date,
): Promise<{ therapist: CatalogueTherapistDto; live_bookings: AffectedBookingDto[] }> {
  return db.transaction(async (tx) => {
    const before = await lockTherapist(tx, id);
    const serviceIds = await serviceIdsOf(tx, id);
    const after = await updateTherapist(tx, id, { isActive: active, updatedAt: now });
    await insertAudit(tx, {
      ...who(by),
      action: active ? 'therapist.activate' : 'therapist.deactivate',
      entityType: 'therapist',
      entityId: id,
      before: auditableTherapist(before, serviceIds),
      after: auditableTherapist(after, serviceIds),
    });
    const today = centreNow(now).date;
    return { therapist: await getCatalogueTherapist(tx, id, now), live_bookings: active ? [] : await liveBookingsBetween(tx, id, today, FAR(today)) };
  });
}

/**
 * PUT /api/admin/therapists/{id}/hours: the weekly hours, Monday–Saturday. One template row per start
 * time, holding the weekdays it is worked on; a start time no day keeps is removed. Existing bookings
 * stay valid whatever the new hours; the answer lists the live ones from today on that fall outside them.
 */
export async function setWeeklyHours(
  db: Db,
  id: number,
  hours: WeeklyHours,
  by: CatalogueActor,
  now: Date,
): Promise<{ therapist_id: number; hours: WeeklyHours; outside_hours: AffectedBookingDto[] }> {
  return db.transaction(async (tx) => {
    const therapist = await lockTherapist(tx, id);
    const existing = await slotsOf(tx, id);
    const beforeHours = hoursOf(existing);
    const days = new Map<string, number[]>();
    for (const k of WEEKDAY_KEYS) {
      for (const start of hours[k]) days.set(start, [...(days.get(start) ?? []), WEEKDAY_NUMBER[k]]);
    }
    const keep = new Set(days.keys());
    const gone = existing.filter((r) => !keep.has(toHhMm(r.startTime))).map((r) => r.id);
    await deleteSlots(tx, gone);
    for (const [start, weekdays] of days) {
      const row = existing.find((r) => toHhMm(r.startTime) === start);
      if (row) {
        await setSlotWeekdays(tx, row.id, weekdays);
      } else {
        await insertSlot(tx, { therapistId: id, startTime: start, endTime: sessionEndTime(start), weekdays, locationId: therapist.locationId });
      }
    }
    const after = hoursOf(await slotsOf(tx, id));
    await insertAudit(tx, {
      ...who(by),
      action: 'therapist.hours',
      entityType: 'therapist',
      entityId: id,
      before: { hours: beforeHours },
      after: { hours: after },
    });
    const today = centreNow(now).date;
    const live = await liveBookingsBetween(tx, id, today, FAR(today));
    const dayKey = (date: string) => WEEKDAY_KEYS.find((k) => WEEKDAY_NUMBER[k] === new Date(`${date}T00:00:00Z`).getUTCDay());
    const outside = live.filter((b) => {
      const k = dayKey(b.booking_date);
      return !k || !after[k].includes(b.booking_time_slot_start);
    });
    return { therapist_id: id, hours: after, outside_hours: outside };
  });
}

/** POST /api/admin/therapists/{id}/time-off: the dates leave the offer; live bookings inside are listed, not cancelled. */
export async function addTimeOff(
  db: Db,
  id: number,
  input: TimeOffInput,
  by: CatalogueActor,
  now: Date,
): Promise<{ time_off: TimeOffDto; bookings_inside: AffectedBookingDto[] }> {
  const today = centreNow(now).date;
  if (input.to_date < today) throw fieldError('to_date', 'Time off must not end in the past.');
  if (input.to_date > addDays(today, 730)) throw fieldError('to_date', 'Time off can be planned up to two years ahead.');
  return db.transaction(async (tx) => {
    await lockTherapist(tx, id);
    const row = await insertTimeOff(tx, {
      therapistId: id,
      fromDate: input.from_date,
      toDate: input.to_date,
      reason: input.reason,
      createdByAdminId: by.adminId,
      createdAt: now,
    });
    const dto = toTimeOffDto(row);
    await insertAudit(tx, { ...who(by), action: 'therapist.time_off_add', entityType: 'therapist', entityId: id, before: null, after: dto });
    return { time_off: dto, bookings_inside: await liveBookingsBetween(tx, id, input.from_date, input.to_date) };
  });
}

/** DELETE /api/admin/therapists/{id}/time-off/{entry}. */
export async function deleteTimeOff(db: Db, id: number, entry: number, by: CatalogueActor): Promise<{ deleted: true; id: number }> {
  return db.transaction(async (tx) => {
    const row = await deleteTimeOffEntry(tx, id, entry);
    if (!row) throw new AppError('not_found', `Time off ${entry} of therapist ${id} was not found.`);
    await insertAudit(tx, { ...who(by), action: 'therapist.time_off_delete', entityType: 'therapist', entityId: id, before: toTimeOffDto(row), after: null });
    return { deleted: true as const, id: entry };
  });
}

function toHolidayDto(h: HolidayRow): HolidayDto {
  return { id: h.id, date: h.holidayDate, reason: h.reason };
}

/** GET /api/admin/holidays: from today on. */
export async function listHolidays(db: Db, now: Date): Promise<HolidayDto[]> {
  const rows = await holidaysFrom(db, centreNow(now).date);
  return rows.map(toHolidayDto);
}

/** POST /api/admin/holidays: the centre is closed that day; live bookings on it are listed, not cancelled. */
export async function addHoliday(
  db: Db,
  input: HolidayInput,
  by: CatalogueActor,
  now: Date,
): Promise<{ holiday: HolidayDto; bookings_inside: AffectedBookingDto[] }> {
  const today = centreNow(now).date;
  if (input.date < today) throw fieldError('date', 'A holiday must not be in the past.');
  if (input.date > addDays(today, 730)) throw fieldError('date', 'Holidays can be planned up to two years ahead.');
  try {
    return await db.transaction(async (tx) => {
      const row = await insertHoliday(tx, { holidayDate: input.date, reason: input.reason, createdByAdminId: by.adminId, createdAt: now });
      const dto = toHolidayDto(row);
      await insertAudit(tx, { ...who(by), action: 'holiday.add', entityType: 'holiday', entityId: row.id, before: null, after: dto });
      return { holiday: dto, bookings_inside: await liveBookingsBetween(tx, undefined, input.date, input.date) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'centre_holidays_holiday_date_unique')) throw new AppError('conflict', `${input.date} is already a holiday.`);
    throw err;
  }
}

/** DELETE /api/admin/holidays/{id}. */
export async function deleteHoliday(db: Db, id: number, by: CatalogueActor): Promise<{ deleted: true; id: number }> {
  return db.transaction(async (tx) => {
    const row = await deleteHolidayRow(tx, id);
    if (!row) throw new AppError('not_found', `Holiday ${id} was not found.`);
    await insertAudit(tx, { ...who(by), action: 'holiday.delete', entityType: 'holiday', entityId: id, before: toHolidayDto(row), after: null });
    return { deleted: true as const, id };
  });
}

/** POST /api/admin/services. */
export async function createService(db: Db, name: string, by: CatalogueActor): Promise<ServiceDto> {
  try {
    return await db.transaction(async (tx) => {
      const row = await insertService(tx, name);
      await insertAudit(tx, { ...who(by), action: 'service.create', entityType: 'service', entityId: row.id, before: null, after: row });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', CM.serviceNameTaken);
    throw err;
  }
}

/** PATCH /api/admin/services/{id}. */
export async function renameService(db: Db, id: number, name: string, by: CatalogueActor): Promise<ServiceDto> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockService(tx, id);
      if (!before) throw new AppError('not_found', `Service ${id} was not found.`);
      const row = await renameServiceRow(tx, id, name);
      await insertAudit(tx, { ...who(by), action: 'service.update', entityType: 'service', entityId: id, before, after: row });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', CM.serviceNameTaken);
    throw err;
  }
}

/** PATCH /api/admin/locations/{id}. */
export async function patchLocation(db: Db, id: number, input: LocationPatch, by: CatalogueActor, now: Date): Promise<LocationDto> {
  return db.transaction(async (tx) => {
    const before = await lockLocation(tx, id);
    if (!before) throw new AppError('not_found', CM.locationNotFound(id));
    const after = await updateLocation(tx, id, { ...input, updatedAt: now });
    const view = (l: LocationRow): LocationDto => ({ id: l.id, name: l.name, description: l.description, address: l.address, phone: l.phone });
    await insertAudit(tx, { ...who(by), action: 'location.update', entityType: 'location', entityId: id, before: view(before), after: view(after) });
    return view(after);
  });
}

/** Stores a new photo file name on a therapist, audited; the caller wrote the file. */
/**
 * A therapist's new photo (re-encoded already): stored under a fresh name (so no browser keeps the old
 * one), the therapist pointed at it and the photo it replaces deleted, in one transaction, audited.
 */
export async function setTherapistPhoto(
  db: Db,
  id: number,
  upload: Buffer,
  by: CatalogueActor,
  now: Date,
): Promise<{ therapist_id: number; image_url: string }> {
  if (!(await therapistIdExists(db, id))) throw new AppError('not_found', NOT_FOUND);
  const image = await reencodePhoto(upload, { width: 400, height: 400 }, 'webp');
  const name = therapistPhotoName(id);
  return db.transaction(async (tx) => {
    const before = await lockTherapist(tx, id);
    await putPhoto(tx, photoRecord(photoKey('therapists', name), image));
    // An uploaded photo it replaces goes (a shipped one stays in the code); no other therapist uses it.
    await deletePhoto(tx, photoKey('therapists', before.imageUrl));
    await updateTherapist(tx, id, { imageUrl: name, updatedAt: now });
    await insertAudit(tx, {
      ...who(by),
      action: 'therapist.photo',
      entityType: 'therapist',
      entityId: id,
      before: { image_url: before.imageUrl },
      after: { image_url: name },
    });
    return { therapist_id: id, image_url: name };
  });
}

/** A location's new photo (re-encoded already), replacing the one under its address: stored, audited, the catalogue announced. */
export async function setLocationPhoto(db: Db, id: number, upload: Buffer, by: CatalogueActor, now: Date): Promise<{ location_id: number; image_url: string }> {
  if (!(await locationIdExists(db, id))) throw new AppError('not_found', CM.locationNotFound(id));
  const image = await reencodePhoto(upload, { width: 800, height: 500 }, 'png');
  return db.transaction(async (tx) => {
    const before = await lockLocation(tx, id);
    if (!before) throw new AppError('not_found', CM.locationNotFound(id));
    await putPhoto(tx, photoRecord(photoKey('locations', `${id}.png`), image));
    // Touching the row announces the change (its trigger) and dates it.
    await updateLocation(tx, id, { updatedAt: now });
    await insertAudit(tx, { ...who(by), action: 'location.photo', entityType: 'location', entityId: id, before: null, after: { photo: `${id}.png` } });
    return { location_id: id, image_url: `/get_location_image/${id}.png` };
  });
}
