import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bookings, centreHolidays, therapists, therapistTimeOff } from '../../shared/core/db/schema.ts';
import { createLogger } from '../../shared/core/logger.ts';
import { ReadCache } from '../../shared/core/services/read-cache.service.ts';
import { insertBooking, type Admins } from '../support/admin.ts';
import { fixedClock, testApp } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { mondayDesk, seededWithAdmins } from '../support/desk.ts';
import { manualOfflineBooking, MONDAY_MORNING_IST, onlineBooking } from '../support/factories.ts';

const clock = fixedClock(MONDAY_MORNING_IST);
let database: TestDatabase, admins: Admins, app: ReturnType<typeof testApp>, imagesDir: string;
let desk: Record<string, string>, boss: Record<string, string>;

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  imagesDir = await mkdtemp(path.join(tmpdir(), 'catalogue-images-'));
  app = testApp(database, { now: clock.now, imagesDir });
});
beforeEach(() => ({ desk, boss } = mondayDesk(clock, admins)));
afterAll(async () => {
  await database.drop();
  await rm(imagesDir, { recursive: true, force: true });
});

const audits = (action: string, entityId?: string | number) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), entityId === undefined ? undefined : eq(auditLog.entityId, String(entityId))))
    .orderBy(auditLog.id);
const therapistCount = async () => (await database.db.select({ n: count() }).from(therapists))[0]!.n;
const auditCount = async () => (await database.db.select({ n: count() }).from(auditLog))[0]!.n;
const offerOn = async (therapistId: number, date: string) => {
  const res = await request(app).get(`/api/slots?therapist_id=${therapistId}`).expect(200);
  return (res.body.days as { date: string; slots: { start_time: string }[] }[]).find((d) => d.date === date)?.slots.map((s) => s.start_time);
};
const NEW_THERAPIST = {
  name: 'Dr. Kavita Rao',
  title: 'Clinical Psychologist',
  specialization: 'Adolescents and families',
  bio: {
    summary: 'Calm, practical help for teenagers and parents.',
    approaches: 'CBT, Family therapy',
    experience: '9 years of experience',
    languages: 'English, Kannada',
  },
  price: 1750.5,
  type: 1,
  email: 'kavita.rao@wellbeingcentre.in',
  service_ids: [13, 2],
};

describe('POST /api/admin/therapists', () => {
  it('creates a therapist with the GET /therapists field names, audited, and the public list shows them', async () => {
    const res = await request(app).post('/api/admin/therapists').set(boss).send(NEW_THERAPIST).expect(201);
    expect(res.body).toMatchObject({
      name: 'Dr. Kavita Rao',
      price: 1750.5,
      type: 1,
      location_id: null,
      service_ids: [13, 2],
      email: ['kavita.rao@wellbeingcentre.in'],
      is_active: true,
    });
    expect(res.body.bio).toBe('Calm, practical help for teenagers and parents.|CBT, Family therapy|9 years of experience|English, Kannada');
    const list = await request(app).get('/therapists').expect(200);
    expect(list.body.find((t: { id: number }) => t.id === res.body.id)).toMatchObject({
      name: 'Dr. Kavita Rao',
      price: 1750.5,
      offered_service_ids: [13, 2],
      email: 'kavita.rao@wellbeingcentre.in',
    });
    const [audit] = await audits('therapist.create', res.body.id);
    expect(audit).toMatchObject({ adminId: admins.superadmin.id, before: null });
    expect(audit!.after).toMatchObject({ name: 'Dr. Kavita Rao', price: 1750.5, service_ids: [13, 2] });
    // No hours yet: nothing on offer until the centre sets them.
    expect(await offerOn(res.body.id, '2026-11-24')).toEqual([]);
  });

  it('creates an in-person therapist at a location, and needs the location', async () => {
    const bad = await request(app)
      .post('/api/admin/therapists')
      .set(boss)
      .send({ ...NEW_THERAPIST, name: 'In Person', type: 2 })
      .expect(400);
    expect(bad.body.errors.location_id).toMatch(/location_id/);
    const res = await request(app)
      .post('/api/admin/therapists')
      .set(boss)
      .send({ ...NEW_THERAPIST, name: 'In Person', type: 2, location_id: 2 })
      .expect(201);
    expect(res.body).toMatchObject({ type: 2, location_id: 2 });
  });

  it('refuses bad input with a detail and writes nothing', async () => {
    const before = { therapists: await therapistCount(), audit: await auditCount() };
    const cases: [unknown, RegExp][] = [
      [{ ...NEW_THERAPIST, type: 3 }, /type must be 1/],
      [{ ...NEW_THERAPIST, name: '' }, /Name is required/],
      [{ ...NEW_THERAPIST, price: -5 }, /negative/],
      [{ ...NEW_THERAPIST, price: 10.001 }, /two decimals/],
      [{ ...NEW_THERAPIST, email: 'not-an-address' }, /valid email/],
      [{ ...NEW_THERAPIST, service_ids: [2, 2] }, /repeat/],
      [{ ...NEW_THERAPIST, bio: { summary: 'a|b' } }, /must not contain/],
      [{ ...NEW_THERAPIST, unexpected: true }, /./],
      [{ ...NEW_THERAPIST, service_ids: [999] }, /services does not exist/],
      [{ ...NEW_THERAPIST, type: 2, location_id: 999 }, /location does not exist/],
      [[1, 2], /JSON object/],
    ];
    for (const [body, detail] of cases) {
      const res = await request(app)
        .post('/api/admin/therapists')
        .set(boss)
        .send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    expect({ therapists: await therapistCount(), audit: await auditCount() }).toEqual(before);
  });

  it('is refused to a plain admin (403) and to no one signed in (401)', async () => {
    const before = await therapistCount();
    const res = await request(app).post('/api/admin/therapists').set(desk).send(NEW_THERAPIST).expect(403);
    expect(res.body.detail).toMatch(/super admins/);
    await request(app).post('/api/admin/therapists').send(NEW_THERAPIST).expect(401);
    await request(app).get('/api/admin/catalogue/therapists').set(desk).expect(403);
    expect(await therapistCount()).toBe(before);
  });
});

describe('PATCH /api/admin/therapists/{id}', () => {
  it('changes any field, audited with before and after', async () => {
    const res = await request(app)
      .patch('/api/admin/therapists/2')
      .set(boss)
      .send({ title: 'Senior Counselling Psychologist', email: ['a@wellbeingcentre.in', 'b@wellbeingcentre.in'] })
      .expect(200);
    expect(res.body).toMatchObject({ title: 'Senior Counselling Psychologist', email: ['a@wellbeingcentre.in', 'b@wellbeingcentre.in'] });
    const [audit] = await audits('therapist.update', 2);
    expect(audit!.before).toMatchObject({ title: 'Counselling Psychologist' });
    expect(audit!.after).toMatchObject({ title: 'Senior Counselling Psychologist' });
  });

  it('a new price applies to bookings made after it; existing bookings keep their amount', async () => {
    const first = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ therapist_id: 3, booking_date: '2026-11-25', booking_time_slot_start: '11:00' }))
      .expect(200);
    await request(app).patch('/api/admin/therapists/3').set(boss).send({ price: 2500 }).expect(200);
    const second = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ therapist_id: 3, booking_date: '2026-11-25', booking_time_slot_start: '12:00' }))
      .expect(200);
    const amount = async (id: number) => (await database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!.amountPaise;
    const [seeded] = await database.db.select().from(therapists).where(eq(therapists.id, 3));
    expect(seeded!.pricePaise).toBe(250_000);
    expect(await amount(first.body.booking_id)).not.toBe(250_000);
    expect(await amount(second.body.booking_id)).toBe(250_000);
    const list = await request(app).get('/therapists').expect(200);
    expect(list.body.find((t: { id: number }) => t.id === 3).price).toBe(2500);
  });

  it('refuses bad input, unknown therapists and plain admins', async () => {
    await request(app).patch('/api/admin/therapists/2').set(boss).send({}).expect(400);
    await request(app).patch('/api/admin/therapists/2').set(boss).send({ type: 2 }).expect(400);
    await request(app).patch('/api/admin/therapists/abc').set(boss).send({ name: 'X' }).expect(400);
    await request(app).patch('/api/admin/therapists/9999').set(boss).send({ name: 'X' }).expect(404);
    await request(app).patch('/api/admin/therapists/2').set(desk).send({ name: 'X' }).expect(403);
    const [row] = await database.db.select().from(therapists).where(eq(therapists.id, 2));
    expect(row!.name).toBe('Ms. Priya Nair');
  });
});

describe('deactivate and activate', () => {
  it('a deactivated therapist leaves the public list and offer at once; their bookings stay in the admin panel', async () => {
    const booking = await insertBooking(database.db, { therapistId: 4, bookingDate: '2026-11-26', bookingTimeSlotStart: '10:00' });
    const res = await request(app).post('/api/admin/therapists/4/deactivate').set(boss).expect(200);
    expect(res.body.therapist.is_active).toBe(false);
    expect(res.body.live_bookings.map((b: { id: number }) => b.id)).toContain(booking.id);
    expect((await request(app).get('/therapists')).body.map((t: { id: number }) => t.id)).not.toContain(4);
    await request(app).get('/api/slots?therapist_id=4').expect(404);
    const refused = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ therapist_id: 4, booking_time_slot_start: '11:00' }));
    expect(refused.status).toBe(400);
    const adminBookings = await request(app).get('/api/admin/bookings').set(desk).expect(200);
    expect(adminBookings.body.find((b: { id: number }) => b.id === booking.id)).toMatchObject({ therapist_id: 4 });
    const catalogue = await request(app).get('/api/admin/catalogue/therapists').set(boss).expect(200);
    expect(catalogue.body.find((t: { id: number }) => t.id === 4).is_active).toBe(false);
    expect((await audits('therapist.deactivate', 4))[0]!.after).toMatchObject({ is_active: false });

    await request(app).post('/api/admin/therapists/4/activate').set(boss).expect(200);
    expect((await request(app).get('/therapists')).body.map((t: { id: number }) => t.id)).toContain(4);
    expect(await audits('therapist.activate', 4)).toHaveLength(1);
  });

  it('is refused to a plain admin and for an unknown therapist', async () => {
    await request(app).post('/api/admin/therapists/4/deactivate').set(desk).expect(403);
    await request(app).post('/api/admin/therapists/9999/deactivate').set(boss).expect(404);
    expect((await request(app).get('/therapists')).body.map((t: { id: number }) => t.id)).toContain(4);
  });
});

describe('PUT /api/admin/therapists/{id}/hours', () => {
  const HOURS = { mon: ['10:00', '11:00', '14:00'], tue: [], wed: ['16:30'], thu: ['10:00'], fri: ['10:00', '11:00'], sat: [] };

  it('sets hours per weekday; the offer, the admin grid and manual booking follow; bookings outside stay visible', async () => {
    const outside = await insertBooking(database.db, {
      therapistId: 6,
      bookingDate: '2026-11-24',
      bookingTimeSlotStart: '15:00',
      bookingType: 'OFFLINE',
      locationId: 1,
      paymentStatus: 'PENDING',
    });
    const res = await request(app).put('/api/admin/therapists/6/hours').set(boss).send(HOURS).expect(200);
    expect(res.body.hours).toEqual(HOURS);
    expect(res.body.outside_hours.map((b: { id: number }) => b.id)).toEqual([outside.id]);
    // Monday 30 Nov, Tuesday 24, Wednesday 25, Saturday 28.
    expect(await offerOn(6, '2026-11-30')).toEqual(['10:00', '11:00', '14:00']);
    expect(await offerOn(6, '2026-11-24')).toEqual([]);
    expect(await offerOn(6, '2026-11-25')).toEqual(['16:30']);
    expect(await offerOn(6, '2026-11-28')).toEqual([]);
    // Today (Monday, 09:30): all three are still ahead.
    expect(await offerOn(6, '2026-11-23')).toEqual(['10:00', '11:00', '14:00']);

    const grid = await request(app).get('/api/admin/therapists/6/slot-states').set(desk).expect(200);
    const tuesday = grid.body.days.find((d: { date: string }) => d.date === '2026-11-24');
    expect(tuesday.slots).toEqual([{ start_time: '15:00', end_time: '16:00', state: 'booked', booking_id: outside.id }]);

    const [therapist] = await database.db.select().from(therapists).where(eq(therapists.id, 6));
    const offline = { therapist_id: 6, location_id: therapist!.locationId, booking_type: 'OFFLINE', client_state: undefined, client_city: undefined };
    const publicRefused = await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...offline, booking_date: '2026-11-24', booking_time_slot_start: '10:00' }))
      .expect(400);
    expect(publicRefused.body.errors).toHaveProperty('booking_time_slot_start');
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ ...offline, booking_date: '2026-11-25', booking_time_slot_start: '16:30' }))
      .expect(200);
    await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manualOfflineBooking({ therapist_id: 6, location_id: therapist!.locationId, booking_date: '2026-11-24', booking_time_slot_start: '10:00' }))
      .expect(400);
    await request(app)
      .post('/confirm-booking')
      .set(desk)
      .send(manualOfflineBooking({ therapist_id: 6, location_id: therapist!.locationId, booking_date: '2026-11-26', booking_time_slot_start: '10:00' }))
      .expect(200);

    const [audit] = await audits('therapist.hours', 6);
    expect((audit!.after as { hours: unknown }).hours).toEqual(HOURS);
    expect((audit!.before as { hours: { mon: string[] } }).hours.mon.length).toBeGreaterThan(0);
  });

  it('refuses bad hours and plain admins, changing nothing', async () => {
    const before = (await request(app).get('/api/admin/catalogue/therapists').set(boss)).body.find((t: { id: number }) => t.id === 7).hours;
    const cases: [unknown, RegExp][] = [
      [{ ...HOURS, mon: ['25:00'] }, /HH:MM/],
      [{ ...HOURS, mon: ['10:00', '10:30'] }, /60 minutes apart/],
      [{ ...HOURS, mon: ['05:00'] }, /between 06:00 and 22:00/],
      [{ mon: [] }, /./],
      [{ ...HOURS, sun: ['10:00'] }, /./],
      [{ ...HOURS, tue: '10:00' }, /list/],
    ];
    for (const [body, detail] of cases) {
      const res = await request(app)
        .put('/api/admin/therapists/7/hours')
        .set(boss)
        .send(body as object);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toMatch(detail);
    }
    await request(app).put('/api/admin/therapists/7/hours').set(desk).send(HOURS).expect(403);
    await request(app).put('/api/admin/therapists/9999/hours').set(boss).send(HOURS).expect(404);
    const after = (await request(app).get('/api/admin/catalogue/therapists').set(boss)).body.find((t: { id: number }) => t.id === 7).hours;
    expect(after).toEqual(before);
  });
});

describe('time off', () => {
  it('takes the dates out of the offer, lists the live bookings inside, and comes back when deleted', async () => {
    const inside = await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '12:00' });
    await insertBooking(database.db, { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '14:00', cancelled: true });
    expect(await offerOn(1, '2026-11-24')).toContain('10:00');
    const res = await request(app)
      .post('/api/admin/therapists/1/time-off')
      .set(boss)
      .send({ from_date: '2026-11-24', to_date: '2026-11-26', reason: 'Conference' })
      .expect(201);
    expect(res.body.time_off).toMatchObject({ from_date: '2026-11-24', to_date: '2026-11-26', reason: 'Conference' });
    expect(res.body.bookings_inside.map((b: { id: number }) => b.id)).toEqual([inside.id]);
    for (const date of ['2026-11-24', '2026-11-25', '2026-11-26']) expect(await offerOn(1, date)).toEqual([]);
    expect(await offerOn(1, '2026-11-27')).toContain('10:00');
    // The booking inside stays as it was.
    const [kept] = await database.db.select().from(bookings).where(eq(bookings.id, inside.id));
    expect(kept!.cancelled).toBe(false);
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-24', booking_time_slot_start: '10:00' }))
      .expect(400);
    const grid = await request(app).get('/api/admin/therapists/1/slot-states').set(desk).expect(200);
    expect(grid.body.days.find((d: { date: string }) => d.date === '2026-11-25').slots).toEqual([
      { start_time: '12:00', end_time: '13:00', state: 'booked', booking_id: inside.id },
    ]);
    expect((await audits('therapist.time_off_add', 1))[0]!.after).toMatchObject({ from_date: '2026-11-24' });

    const entry = res.body.time_off.id;
    await request(app).delete(`/api/admin/therapists/2/time-off/${entry}`).set(boss).expect(404);
    await request(app).delete(`/api/admin/therapists/1/time-off/${entry}`).set(desk).expect(403);
    await request(app).delete(`/api/admin/therapists/1/time-off/${entry}`).set(boss).expect(200);
    expect(await offerOn(1, '2026-11-24')).toContain('10:00');
    expect((await audits('therapist.time_off_delete', 1))[0]!.before).toMatchObject({ id: entry });
  });

  it('refuses bad ranges and plain admins, writing nothing', async () => {
    const before = (await database.db.select({ n: count() }).from(therapistTimeOff))[0]!.n;
    await request(app).post('/api/admin/therapists/1/time-off').set(boss).send({ from_date: '2026-11-26', to_date: '2026-11-24' }).expect(400);
    await request(app).post('/api/admin/therapists/1/time-off').set(boss).send({ from_date: '2026-11-01', to_date: '2026-11-02' }).expect(400);
    await request(app).post('/api/admin/therapists/1/time-off').set(boss).send({ from_date: '2026-02-30', to_date: '2026-03-02' }).expect(400);
    await request(app).post('/api/admin/therapists/1/time-off').set(desk).send({ from_date: '2026-11-24', to_date: '2026-11-24' }).expect(403);
    await request(app).post('/api/admin/therapists/9999/time-off').set(boss).send({ from_date: '2026-11-24', to_date: '2026-11-24' }).expect(404);
    expect((await database.db.select({ n: count() }).from(therapistTimeOff))[0]!.n).toBe(before);
  });
});

describe('centre holidays', () => {
  it('closes the day for every therapist, lists the live bookings on it, and reopens when deleted', async () => {
    const onIt = await insertBooking(database.db, { therapistId: 2, bookingDate: '2026-11-27', bookingTimeSlotStart: '09:00' });
    const res = await request(app).post('/api/admin/holidays').set(boss).send({ date: '2026-11-27', reason: 'Guru Nanak Jayanti' }).expect(201);
    expect(res.body.bookings_inside.map((b: { id: number }) => b.id)).toEqual([onIt.id]);
    for (const id of [1, 2, 5]) expect(await offerOn(id, '2026-11-27')).toEqual([]);
    expect(await offerOn(1, '2026-11-28')).toContain('10:00');
    await request(app)
      .post('/confirm-booking')
      .send(onlineBooking({ booking_date: '2026-11-27', booking_time_slot_start: '10:00' }))
      .expect(400);
    expect((await request(app).get('/api/admin/holidays').set(desk).expect(200)).body).toEqual([
      { id: res.body.holiday.id, date: '2026-11-27', reason: 'Guru Nanak Jayanti' },
    ]);
    await request(app).post('/api/admin/holidays').set(boss).send({ date: '2026-11-27' }).expect(409);
    expect((await audits('holiday.add'))[0]!.after).toMatchObject({ date: '2026-11-27' });

    await request(app).delete(`/api/admin/holidays/${res.body.holiday.id}`).set(desk).expect(403);
    await request(app).delete(`/api/admin/holidays/${res.body.holiday.id}`).set(boss).expect(200);
    expect(await offerOn(1, '2026-11-27')).toContain('10:00');
    await request(app).delete(`/api/admin/holidays/${res.body.holiday.id}`).set(boss).expect(404);
    expect(await audits('holiday.delete')).toHaveLength(1);
  });

  it('refuses bad dates and plain admins', async () => {
    await request(app).post('/api/admin/holidays').set(boss).send({ date: '27-11-2026' }).expect(400);
    await request(app).post('/api/admin/holidays').set(boss).send({ date: '2026-11-01' }).expect(400);
    await request(app).post('/api/admin/holidays').set(desk).send({ date: '2026-12-25' }).expect(403);
    expect((await database.db.select({ n: count() }).from(centreHolidays))[0]!.n).toBe(0);
  });
});

describe('services and centres', () => {
  it('lists, adds and renames services, audited; the public list follows', async () => {
    const before = (await request(app).get('/api/admin/services').set(desk).expect(200)).body.length;
    const made = await request(app).post('/api/admin/services').set(boss).send({ name: 'Career Counselling' }).expect(201);
    await request(app).post('/api/admin/services').set(boss).send({ name: 'Career Counselling' }).expect(409);
    await request(app).post('/api/admin/services').set(boss).send({ name: '' }).expect(400);
    await request(app).post('/api/admin/services').set(desk).send({ name: 'Other' }).expect(403);
    await request(app).patch(`/api/admin/services/${made.body.id}`).set(boss).send({ name: 'Career Guidance' }).expect(200);
    await request(app).patch('/api/admin/services/9999').set(boss).send({ name: 'Nothing' }).expect(404);
    const list = (await request(app).get('/services').expect(200)).body;
    expect(list).toHaveLength(before + 1);
    expect(list.at(-1)).toEqual({ id: made.body.id, name: 'Career Guidance' });
    expect((await audits('service.update', made.body.id))[0]).toMatchObject({ before: { name: 'Career Counselling' }, after: { name: 'Career Guidance' } });
  });

  it('changes a centre, audited; the public list follows', async () => {
    await request(app).patch('/api/admin/locations/2').set(boss).send({ phone: '+91 98200 33333', description: 'Step-free access.' }).expect(200);
    await request(app).patch('/api/admin/locations/2').set(boss).send({ phone: 'call me' }).expect(400);
    await request(app).patch('/api/admin/locations/2').set(boss).send({ address: '' }).expect(400);
    await request(app).patch('/api/admin/locations/2').set(desk).send({ phone: '1' }).expect(403);
    await request(app).patch('/api/admin/locations/99').set(boss).send({ phone: '1' }).expect(404);
    const loc = (await request(app).get('/locations').expect(200)).body.find((l: { id: number }) => l.id === 2);
    expect(loc).toMatchObject({ phone: '+91 98200 33333', description: 'Step-free access.' });
    expect((await audits('location.update', 2))[0]!.before).toMatchObject({ phone: '+91 98200 22222' });
  });
});

describe('photos', () => {
  const png = (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: { r: 63, g: 127, b: 122 } } })
      .png()
      .toBuffer();

  it('decodes, resizes and re-encodes a photo, served at /get_specific_image/', async () => {
    const res = await request(app)
      .put('/api/admin/therapists/2/photo')
      .set(boss)
      .set('Content-Type', 'image/png')
      .send(await png(900, 600))
      .expect(200);
    expect(res.body.image_url).toMatch(/^upload-2-[0-9a-f]{12}\.webp$/);
    const served = await request(app)
      .get(`/get_specific_image/${res.body.image_url}`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const meta = await sharp(served.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 400, height: 400 });
    expect((await request(app).get('/therapists')).body.find((t: { id: number }) => t.id === 2).image_url).toBe(res.body.image_url);
    expect((await audits('therapist.photo', 2))[0]!.after).toEqual({ image_url: res.body.image_url });
    // A JPEG and a WebP are accepted too.
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    await request(app).put('/api/admin/therapists/2/photo').set(boss).set('Content-Type', 'image/jpeg').send(jpeg).expect(200);
  });

  it('refuses what is not a PNG, JPEG or WebP image (415) and anything over 2 MB (413)', async () => {
    const before = (await database.db.select().from(therapists).where(eq(therapists.id, 8)))[0]!.imageUrl;
    const cases: [Buffer, string, number][] = [
      [Buffer.from('GIF89a not really'), 'image/gif', 415],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 415],
      [(await png(10, 10)).subarray(0, 40), 'image/png', 415],
      [
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .gif()
          .toBuffer(),
        'image/gif',
        415,
      ],
      [Buffer.alloc(0), 'image/png', 415],
      [Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'image/png', 413],
    ];
    for (const [body, type, status] of cases) {
      const res = await request(app).put('/api/admin/therapists/8/photo').set(boss).set('Content-Type', type).send(body);
      expect(res.status, type).toBe(status);
      expect(res.body.detail).toBeTruthy();
    }
    await request(app).put('/api/admin/therapists/8/photo').set(boss).send({ not: 'an image' }).expect(415);
    await request(app)
      .put('/api/admin/therapists/8/photo')
      .set(desk)
      .set('Content-Type', 'image/png')
      .send(await png(10, 10))
      .expect(403);
    await request(app)
      .put('/api/admin/therapists/9999/photo')
      .set(boss)
      .set('Content-Type', 'image/png')
      .send(await png(10, 10))
      .expect(404);
    expect((await database.db.select().from(therapists).where(eq(therapists.id, 8)))[0]!.imageUrl).toBe(before);
  });

  it('replaces a centre photo', async () => {
    await request(app)
      .put('/api/admin/locations/1/photo')
      .set(boss)
      .set('Content-Type', 'image/webp')
      .send(
        await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#abc' } })
          .webp()
          .toBuffer(),
      )
      .expect(200);
    const served = await request(app)
      .get('/get_location_image/1.png')
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(await sharp(served.body as Buffer).metadata()).toMatchObject({ format: 'png', width: 800, height: 500 });
    expect(await audits('location.photo', 1)).toHaveLength(1);
  });
});

describe('the read cache follows the new tables', () => {
  it('drops a cached offer when time off or a holiday is written by any process', async () => {
    const cache = new ReadCache(database.url, createLogger({ level: 'silent' }));
    await cache.start();
    try {
      const cached = testApp(database, { now: clock.now, readCache: cache });
      const startsOn = async (date: string) =>
        ((await request(cached).get('/api/slots?therapist_id=2').expect(200)).body.days as { date: string; slots: { start_time: string }[] }[]).find(
          (d) => d.date === date,
        )!.slots.length;
      const eventually = async (check: () => Promise<void>) => {
        for (let i = 0; ; i++) {
          try {
            return await check();
          } catch (err) {
            if (i > 100) throw err;
            await sleep(50);
          }
        }
      };
      expect(await startsOn('2026-12-01')).toBeGreaterThan(0);
      expect(await startsOn('2026-12-02')).toBeGreaterThan(0);
      // Written straight to the database, as another process would: only the triggers can tell the cache.
      await database.db.insert(therapistTimeOff).values({ therapistId: 2, fromDate: '2026-12-01', toDate: '2026-12-01' });
      await eventually(async () => expect(await startsOn('2026-12-01')).toBe(0));
      await database.db.insert(centreHolidays).values({ holidayDate: '2026-12-02' });
      await eventually(async () => expect(await startsOn('2026-12-02')).toBe(0));
      await database.db.delete(centreHolidays).where(eq(centreHolidays.holidayDate, '2026-12-02'));
      await eventually(async () => expect(await startsOn('2026-12-02')).toBeGreaterThan(0));
    } finally {
      await cache.stop();
    }
  });
});
