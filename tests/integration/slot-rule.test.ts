import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES as AM } from '../../shared/contract/admin.ts';
import { API_MESSAGES as M } from '../../shared/contract/messages.ts';
import { availabilitySlots, bookings, centreHolidays, packageCredits, therapists, therapistTimeOff } from '../../shared/core/db/schema.ts';
import { LIVE_BOOKING_SQL } from '../../shared/core/repositories/live-booking.ts';
import { checkSlots, SLOT_REFUSALS, type SlotHolder } from '../../shared/core/repositories/slot-check.repository.ts';
import { therapistSlotStates } from '../../shared/core/services/admin-booking.service.ts';
import { manageTokenFor, packageTokenFor } from '../../shared/core/services/booking-token.ts';
import { MANAGE_MESSAGES } from '../../shared/core/services/manage.service.ts';
import { slotOfferFor } from '../../shared/core/services/slot-offer.service.ts';
import { slotWindow } from '../../shared/domain/slots.ts';
import { addDays, centreNow } from '../../shared/domain/time.ts';
import { bearer, insertBooking, tokenFor, type Admins } from '../support/admin.ts';
import { fixedClock, testApp, testConfig } from '../support/app.ts';
import type { TestDatabase } from '../support/db.ts';
import { seededWithAdmins } from '../support/desk.ts';
import { offlineBooking, onlineBooking } from '../support/factories.ts';

/**
 * "Is this slot bookable?" (issue 33): one table of cases run against every path that writes a slot:
 * the wizard's booking (POST /confirm-booking, by a client or with an admin's session), the admin's
 * manual booking, the admin's block, a series (POST /api/admin/series), the client's reschedule (POST /api/manage/{token}/reschedule; there is no admin reschedule) and
 * "Book the same time next week" (POST /api/manage/{token}/book-again, the wizard's path, its refusals 409). Each path
 * refuses in its own words, or writes; a refusal changes nothing. Then the offers that show slots
 * (the wizard's /api/slots and the admin's grid) are held to the same checker.
 *
 * Monday 23 November 2026, 10:30 at the centre; changes need 24 hours' notice. Dr. Asha Mehta (1,
 * online) works 10, 11, 12, 14, 15, 16 and 17:00 every day; here her 16:00 is blocked by the schedule
 * and her 17:00 worked Monday to Friday. 1 December is a centre holiday, 2 December her time off.
 * Dr. Farah Shaikh (4, online, the same hours) is deactivated; Dr. Rohan Kapoor (5) works in person at
 * the West Branch (1).
 */

const NOW = '2026-11-23T10:30:00+05:30';
const clock = fixedClock(NOW);
let database: TestDatabase;
let admins: Admins;
let app: ReturnType<typeof testApp>;
let desk: Record<string, string>;
/** The last booking the fixtures wrote: anything after it a case wrote, and is removed. */
let fixturesUpTo = 0;
/** A package sale covering every therapist and format, with sessions enough for every case, and its client's token. */
let sale: { id: number; token: string };
/** A confirmed session of each therapist a client may move, with its Manage token and its slot. */
const movable: Record<number, { id: number; token: string; date: string; time: string }> = {};

beforeAll(async () => {
  ({ database, admins } = await seededWithAdmins());
  app = testApp(database, { now: clock.now });
  const { db } = database;
  await db
    .update(availabilitySlots)
    .set({ adminBlocked: true })
    .where(and(eq(availabilitySlots.therapistId, 1), eq(availabilitySlots.startTime, '16:00')));
  await db
    .update(availabilitySlots)
    .set({ weekdays: [1, 2, 3, 4, 5] })
    .where(and(eq(availabilitySlots.therapistId, 1), eq(availabilitySlots.startTime, '17:00')));
  await db.insert(centreHolidays).values({ holidayDate: '2026-12-01', reason: 'Holiday' });
  await db.insert(therapistTimeOff).values({ therapistId: 1, fromDate: '2026-12-02', toDate: '2026-12-02' });
  await insertBooking(db, { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '11:00', bookingType: 'ADMIN_BLOCK', paymentStatus: 'BLOCKED' });
  await insertBooking(db, { therapistId: 1, bookingDate: '2026-11-25', bookingTimeSlotStart: '12:00', paymentStatus: 'INITIATED' });
  await insertBooking(db, { therapistId: 1, bookingDate: '2026-12-04', bookingTimeSlotStart: '12:00', paymentStatus: 'INITIATED' });
  for (const therapistId of [1, 4]) {
    const b = await insertBooking(db, {
      therapistId,
      bookingDate: '2026-12-05',
      bookingTimeSlotStart: '15:00',
      clientEmail: `mover${therapistId}@example.com`,
    });
    const { token, hash } = manageTokenFor(testConfig.jwtSecret, b.id);
    await db.update(bookings).set({ manageTokenHash: hash }).where(eq(bookings.id, b.id));
    movable[therapistId] = { id: b.id, token, date: '2026-12-05', time: '15:00' };
    fixturesUpTo = b.id;
  }
  const owner = bearer(tokenFor(admins.superadmin, clock.now()));
  const pkg = await request(app).post('/api/admin/packages').set(owner).send({ name: 'Every case', sessions_count: 100, price: 1000, validity_days: 365 });
  const sold = await request(app).post('/api/admin/package-sales').set(owner).send({
    package_id: pkg.body.package.id,
    client_full_name: 'Rahul Verma',
    client_email: 'rahul.verma@example.com',
    client_mobile: '9123456780',
    payment_method: 'CASH',
  });
  sale = { id: sold.body.sale.id, token: packageTokenFor(testConfig.jwtSecret, sold.body.sale.id).token };
  await db.update(therapists).set({ isActive: false }).where(eq(therapists.id, 4));
});
beforeEach(() => {
  clock.set(NOW);
  desk = bearer(tokenFor(admins.admin, clock.now()));
});
afterAll(() => database.drop());

/** What a slot is asked as: the therapist, date and start, and for a booking its type and centre. */
type Slot = { therapist: number; date: string; time: string; type?: 'ONLINE' | 'OFFLINE'; location?: number };
/** A path's answer: written, refused with this status and detail, or a question the path cannot ask. */
type Outcome = 'written' | [status: number, detail: string] | 'not asked';
type CasePath = 'wizard' | 'wizard, admin signed in' | 'manual' | 'block' | 'reschedule' | 'series' | 'book again';
/**
 * The paths that book with a package credit (issue 34) ask the checker as the path they follow does,
 * and answer every case as it does: the desk's "From a package" as a manual booking, the client's
 * booking by their package's private link as the wizard.
 */
const SAME_AS = { 'manual, from a package': 'manual', 'package link': 'wizard' } as const satisfies Record<string, CasePath>;
type Path = CasePath | keyof typeof SAME_AS;
const outcomeOf = (c: { expect: Record<CasePath, Outcome> }, path: Path): Outcome =>
  path in SAME_AS ? c.expect[SAME_AS[path as keyof typeof SAME_AS]] : c.expect[path as CasePath];

const bad = (detail: string): Outcome => [400, detail];
const conflict = (detail: string): Outcome => [409, detail];

/** Every path writes. */
const ALL_WRITTEN = {
  wizard: 'written',
  'wizard, admin signed in': 'written',
  manual: 'written',
  block: 'written',
  reschedule: 'written',
  series: 'written',
} as const satisfies Partial<Record<CasePath, Outcome>>;
/** Past the client's window: the wizard and a reschedule say so, an admin in the wizard by the admin's window. */
const OUTSIDE_WINDOW = {
  wizard: bad(M.dateOutsideWindow),
  'wizard, admin signed in': bad('Please choose a date within the next 15 days, starting today.'),
  manual: bad(AM.manualDateWindow),
  reschedule: bad(M.dateOutsideWindow),
};
/** Not on the therapist's schedule, as the wizard (with or without an admin) and a reschedule word it. */
const NOT_OFFERED = { wizard: bad(M.slotNotOffered), 'wizard, admin signed in': bad(M.slotNotOffered), reschedule: bad(M.slotNotOffered) };
/** The centre closed or the therapist away that day. */
const CLOSED_DAY: Record<CasePath, Outcome> = {
  ...NOT_OFFERED,
  manual: bad(AM.manualDayClosed),
  block: 'written',
  series: conflict('The centre is closed or the therapist is away on this date (holiday or time off).'),
  'book again': conflict(M.slotNotOffered),
};
/** Held by another client's booking. */
const TAKEN = {
  wizard: conflict(M.slotTaken),
  'wizard, admin signed in': conflict(M.slotTaken),
  manual: conflict(AM.manualSlotTaken),
  block: conflict(AM.slotHeldByClient),
  reschedule: conflict(M.slotTaken),
  series: conflict('Already booked by another client.'),
};

const CASES: { name: string; slot: Slot; expect: Record<CasePath, Outcome> }[] = [
  { name: 'a bookable slot', slot: { therapist: 1, date: '2026-11-26', time: '14:00' }, expect: { ...ALL_WRITTEN, 'book again': 'not asked' } },
  {
    name: 'a Sunday',
    slot: { therapist: 1, date: '2026-11-29', time: '10:00' },
    expect: { ...ALL_WRITTEN, wizard: bad(M.sundayClosed), reschedule: bad(M.sundayClosed), 'book again': 'not asked' },
  },
  {
    name: 'a past day',
    slot: { therapist: 1, date: '2026-11-21', time: '14:00' },
    expect: { ...OUTSIDE_WINDOW, block: bad(AM.slotPast), series: conflict('This date has passed.'), 'book again': 'not asked' },
  },
  {
    name: 'a slot passed today',
    slot: { therapist: 1, date: '2026-11-23', time: '10:00' },
    expect: {
      wizard: bad(M.slotPassed),
      'wizard, admin signed in': bad(M.slotPassed),
      manual: bad(AM.manualSlotPassed),
      block: bad(AM.slotPast),
      reschedule: bad(M.slotPassed),
      series: conflict('This time has already passed today.'),
      'book again': 'not asked',
    },
  },
  {
    name: 'inside the notice a change needs',
    slot: { therapist: 1, date: '2026-11-24', time: '10:00' },
    expect: { ...ALL_WRITTEN, reschedule: bad(MANAGE_MESSAGES.newSlotInsideNotice(24)), 'book again': 'not asked' },
  },
  {
    name: 'past the client’s window (16 working days ahead)',
    slot: { therapist: 1, date: '2026-12-10', time: '14:00' },
    expect: { ...OUTSIDE_WINDOW, block: 'written', series: 'written', 'book again': conflict(M.dateOutsideWindow) },
  },
  {
    name: 'more than a year ahead',
    slot: { therapist: 1, date: '2027-11-30', time: '14:00' },
    expect: { ...OUTSIDE_WINDOW, block: bad('Please choose a date within the next year.'), series: 'written', 'book again': conflict(M.dateOutsideWindow) },
  },
  {
    name: 'outside the therapist’s hours',
    slot: { therapist: 1, date: '2026-11-26', time: '13:00' },
    expect: {
      ...NOT_OFFERED,
      manual: bad(AM.manualSlotNotOffered),
      block: bad(AM.slotNotOnSchedule),
      series: conflict("This time is not on the therapist's schedule."),
      'book again': 'not asked',
    },
  },
  {
    name: 'a weekday the slot is not worked',
    slot: { therapist: 1, date: '2026-11-28', time: '17:00' },
    expect: {
      ...NOT_OFFERED,
      manual: bad(AM.manualSlotNotOffered),
      block: 'written',
      series: conflict('The therapist does not work at this time on this weekday.'),
      'book again': 'not asked',
    },
  },
  {
    name: 'blocked by the weekly schedule',
    slot: { therapist: 1, date: '2026-11-26', time: '16:00' },
    expect: {
      ...NOT_OFFERED,
      manual: bad(AM.manualSlotNotOffered),
      block: conflict(AM.slotAlreadyBlocked('16:00', '2026-11-26')),
      series: conflict("This time is blocked on the therapist's weekly schedule."),
      'book again': 'not asked',
    },
  },
  { name: 'a centre holiday', slot: { therapist: 1, date: '2026-12-01', time: '14:00' }, expect: CLOSED_DAY },
  { name: 'the therapist’s time off', slot: { therapist: 1, date: '2026-12-02', time: '14:00' }, expect: CLOSED_DAY },
  {
    name: 'blocked by an admin',
    slot: { therapist: 1, date: '2026-11-25', time: '11:00' },
    expect: {
      ...TAKEN,
      block: conflict(AM.slotAlreadyBlocked('11:00', '2026-11-25')),
      reschedule: bad(M.slotNotOffered),
      series: conflict('Blocked by the centre.'),
      'book again': 'not asked',
    },
  },
  { name: 'taken by another client', slot: { therapist: 1, date: '2026-11-25', time: '12:00' }, expect: { ...TAKEN, 'book again': 'not asked' } },
  {
    name: 'an inactive therapist',
    slot: { therapist: 4, date: '2026-11-26', time: '14:00' },
    expect: {
      wizard: bad(M.therapistNotFound),
      'wizard, admin signed in': bad(M.therapistNotFound),
      manual: bad(AM.therapistNotFound),
      block: [404, AM.therapistNotFound],
      reschedule: bad(M.slotNotOffered),
      series: bad(AM.therapistNotFound),
      'book again': 'not asked',
    },
  },
  {
    name: 'a therapist of the other session type',
    slot: { therapist: 5, date: '2026-11-26', time: '14:00', type: 'ONLINE' },
    expect: {
      wizard: bad(M.therapistTypeMismatch),
      'wizard, admin signed in': bad(M.therapistTypeMismatch),
      manual: bad(AM.therapistTypeMismatch),
      block: 'not asked',
      reschedule: 'not asked',
      series: bad(AM.therapistTypeMismatch),
      'book again': 'not asked',
    },
  },
  {
    name: 'a therapist of another centre',
    slot: { therapist: 5, date: '2026-11-26', time: '14:00', type: 'OFFLINE', location: 2 },
    expect: {
      wizard: bad(M.locationMismatch),
      'wizard, admin signed in': bad(M.locationMismatch),
      manual: bad(AM.locationMismatch),
      block: 'not asked',
      reschedule: 'not asked',
      series: bad(AM.locationMismatch),
      'book again': 'not asked',
    },
  },
  { name: 'a bookable slot over a week ahead', slot: { therapist: 1, date: '2026-12-04', time: '14:00' }, expect: { ...ALL_WRITTEN, 'book again': 'written' } },
  {
    name: 'taken by another client, over a week ahead',
    slot: { therapist: 1, date: '2026-12-04', time: '12:00' },
    expect: { ...TAKEN, 'book again': conflict(M.slotTaken) },
  },
];

function wizardBooking(s: Slot) {
  const asked = { therapist_id: s.therapist, booking_date: s.date, booking_time_slot_start: s.time };
  return s.type === 'OFFLINE' ? offlineBooking({ ...asked, location_id: s.location }) : onlineBooking(asked);
}

/** The desk's manual booking of a slot, paid or from a package as each path adds. */
function manualBooking(s: Slot) {
  return {
    therapist_id: s.therapist,
    booking_date: s.date,
    booking_time_slot_start: s.time,
    client_full_name: 'Rahul Verma',
    client_email: 'rahul.verma@example.com',
    client_mobile: '9123456780',
    booking_type: s.type ?? 'ONLINE',
    location_id: s.location ?? 0,
    payment_transaction_id: randomUUID(),
    admin_confirmed: true,
  };
}

/** Each path's request for a slot. */
const PATHS: Record<Path, (slot: Slot) => request.Test> = {
  wizard: (s) => request(app).post('/confirm-booking').send(wizardBooking(s)),
  // A wizard booking sent with an admin's session keeps to the admin's window.
  'wizard, admin signed in': (s) => request(app).post('/confirm-booking').set(desk).send(wizardBooking(s)),
  manual: (s) =>
    request(app)
      .post('/confirm-booking')
      .set(desk)
      .send({ ...manualBooking(s), amount: 1500, payment_status: 'COMPLETED' }),
  block: (s) =>
    request(app).post('/api/admin/availability/block').set(desk).send({ therapist_id: s.therapist, date: s.date, start_time: s.time, action: 'block' }),
  reschedule: (s) => request(app).post(`/api/manage/${movable[s.therapist]!.token}/reschedule`).send({ booking_date: s.date, booking_time_slot_start: s.time }),
  // The case's slot is the first of two sessions two weeks apart (the second always bookable when the first is).
  series: (s) =>
    request(app)
      .post('/api/admin/series')
      .set(desk)
      .send({
        therapist_id: s.therapist,
        booking_type: s.type ?? 'ONLINE',
        ...(s.type === 'OFFLINE' ? { location_id: s.location } : {}),
        booking_time_slot_start: s.time,
        first_date: s.date,
        interval_weeks: 2,
        count: 2,
        client_full_name: 'Rahul Verma',
        client_email: 'rahul.verma@example.com',
        client_mobile: '9123456780',
        payment: s.type === 'OFFLINE' ? 'PAY_AT_CENTRE' : 'SEND_LINK',
      }),
  'book again': () => request(app).post(`/api/manage/${bookAgainFrom!}/book-again`).send({ weeks_ahead: 1 }),
  'manual, from a package': (s) =>
    request(app)
      .post('/confirm-booking')
      .set(desk)
      .send({ ...manualBooking(s), package_sale_id: sale.id }),
  'package link': (s) =>
    request(app)
      .post(`/api/packages/${sale.token}/book`)
      .send({
        therapist_id: s.therapist,
        booking_type: s.type ?? 'ONLINE',
        ...(s.type === 'OFFLINE' ? { location_id: s.location } : {}),
        booking_date: s.date,
        booking_time_slot_start: s.time,
      }),
};

/**
 * "Book the same time next week" books a week after a session whose Manage link still works (it has
 * not ended), so it asks only the cases a week or more after now: the session a week before each is
 * written first, before the table's "nothing changed" look, and removed with what the case wrote.
 */
let bookAgainFrom: string | undefined;
const SETUP: Partial<Record<Path, (slot: Slot) => Promise<void>>> = {
  'book again': async (s) => {
    const b = await insertBooking(database.db, {
      therapistId: s.therapist,
      bookingDate: addDays(s.date, -7),
      bookingTimeSlotStart: s.time,
      clientEmail: 'again@example.com',
      clientAge: 30,
      sessionType: 'individual',
      clientState: 'Maharashtra',
      clientCity: 'Mumbai',
    });
    const { token, hash } = manageTokenFor(testConfig.jwtSecret, b.id);
    await database.db.update(bookings).set({ manageTokenHash: hash }).where(eq(bookings.id, b.id));
    bookAgainFrom = token;
  },
};

/** What a path answers when it writes: a series is created (201), the rest answer 200. */
const WRITTEN_STATUS: Partial<Record<Path, number>> = { series: 201 };

/** The refusal's words: a series names each date it cannot book, the others answer one detail. */
function detailOf(body: { detail?: string; conflicts?: { booking_date: string; reason: string }[] }, slot: Slot): string | undefined {
  return body.conflicts?.find((c) => c.booking_date === slot.date)?.reason ?? body.detail;
}

/** Every booking row as it stands, to show that a refusal changed nothing. */
const allBookings = () => database.db.select().from(bookings).orderBy(bookings.id);

/** What a case wrote is undone, so the next path finds the slot as the fixtures left it. */
async function undo(): Promise<void> {
  // The package credits ledger is append-only (a trigger): the test's own rollback passes by it.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.delete(packageCredits).where(and(gt(packageCredits.bookingId, fixturesUpTo), eq(packageCredits.kind, 'used')));
  });
  await database.db.delete(bookings).where(gt(bookings.id, fixturesUpTo));
  for (const m of Object.values(movable)) {
    await database.db
      .update(bookings)
      .set({ bookingDate: m.date, bookingTimeSlotStart: m.time, rescheduleCount: 0, clientChange: null, clientChangedAt: null })
      .where(eq(bookings.id, m.id));
  }
}

describe('one table of cases, every path that writes a slot', () => {
  for (const path of Object.keys(PATHS) as Path[]) {
    it(`${path}: refuses each case in its own words, or writes it`, async () => {
      for (const c of CASES) {
        const outcome = outcomeOf(c, path);
        if (outcome === 'not asked') continue;
        await SETUP[path]?.(c.slot);
        const before = await allBookings();
        const res = await PATHS[path](c.slot);
        if (outcome === 'written') {
          expect([c.name, res.status, res.body.detail]).toEqual([c.name, WRITTEN_STATUS[path] ?? 200, undefined]);
        } else {
          expect([c.name, res.status, detailOf(res.body, c.slot)]).toEqual([c.name, ...outcome]);
          expect(await allBookings()).toEqual(before);
        }
        await undo();
      }
    });
  }

  it('the checker answers the codes its callers word, in the order slot-check.repository.ts lists them', async () => {
    const { rows } = await database.pool.query<{ prosrc: string }>(`select prosrc from pg_proc where proname = 'slot_refusal'`);
    const source = rows[0]!.prosrc;
    const holders: SlotHolder[] = ['block', 'booking'];
    expect([...source.matchAll(/\b(?:then|else) '(\w+)'/g)].map((m) => m[1])).toEqual([...SLOT_REFUSALS, ...holders]);
    // Who holds the slot is read with the live-slot index's own predicate.
    expect(source).toContain(`and ${LIVE_BOOKING_SQL}\n`);
  });
});

describe('the offers show exactly the slots the checker would book', () => {
  /** Every hour from 08:00 to 20:00 of every day from yesterday to three weeks ahead. */
  const candidates = (therapistId: number, today: string) =>
    Array.from({ length: 23 }, (_, d) => addDays(today, d - 1)).flatMap((date) =>
      Array.from({ length: 13 }, (_, h) => ({ therapistId, date, start: `${String(8 + h).padStart(2, '0')}:00` })),
    );
  const accepted = async (therapistId: number, kind: 'client' | 'admin', now: Date) => {
    const asked = candidates(therapistId, centreNow(now).date);
    const checks = await checkSlots(database.db, asked, slotWindow(kind, now));
    return asked.filter((_, i) => checks[i]!.refusal === null && checks[i]!.holder === null).map((c) => `${c.date} ${c.start}`);
  };
  // Mid-morning, late on a Saturday night (tomorrow a Sunday), and at the very start of a slot.
  const clocks = ['2026-11-23T10:30:00+05:30', '2026-11-28T23:59:00+05:30', '2026-11-24T14:00:00+05:30'];

  it('the wizard’s offer (/api/slots)', async () => {
    for (const at of clocks) {
      const now = new Date(at);
      for (const therapistId of [1, 2, 5]) {
        const offer = await slotOfferFor(database.db, therapistId, now);
        const shown = offer.days.flatMap((d) => d.slots.map((s) => `${d.date} ${s.start_time}`));
        expect([at, therapistId, shown]).toEqual([at, therapistId, await accepted(therapistId, 'client', now)]);
      }
    }
  });

  it('the admin’s grid: its free slots are the ones a manual booking may take', async () => {
    for (const at of clocks) {
      const now = new Date(at);
      for (const therapistId of [1, 2, 5]) {
        const grid = await therapistSlotStates(database.db, therapistId, {}, now);
        const free = grid.days.flatMap((d) => d.slots.filter((s) => s.state === 'free').map((s) => `${d.date} ${s.start_time}`));
        expect([at, therapistId, free]).toEqual([at, therapistId, await accepted(therapistId, 'admin', now)]);
      }
    }
  });

  it('an inactive therapist is offered nothing and can be booked for nothing', async () => {
    const now = new Date(NOW);
    await expect(slotOfferFor(database.db, 4, now)).rejects.toMatchObject({ code: 'not_found' });
    expect(await accepted(4, 'client', now)).toEqual([]);
    expect(await accepted(4, 'admin', now)).toEqual([]);
  });
});
