import { addDays, centreNow, centreWallClock, timeToMinutes, toHhMm, weekday } from './time.ts';

/** Business constants of spec section 9 (the session's length: session.ts). */
export const CLIENT_OFFER_DAYS = 15;
export const ADMIN_WINDOW_DAYS = 15;
/** How far ahead an admin may block a slot: a year, today included. */
export const BLOCK_WINDOW_DAYS = 366;
/**
 * How far ahead a series may book (issue 34): two years, today included, room for 52 sessions every two
 * weeks starting within the next few months.
 */
export const SERIES_WINDOW_DAYS = 731;

export type SlotTemplate = {
  id: number;
  start_time: string;
  end_time: string;
  is_available: boolean;
  admin_blocked?: boolean;
  /** The weekdays (0 Sunday … 6 Saturday) the slot is worked on; absent: every day. */
  weekdays?: readonly number[];
};

/** Whether a template slot is worked on a date's weekday. */
export function worksOn(t: Pick<SlotTemplate, 'weekdays'>, date: string): boolean {
  return !t.weekdays || t.weekdays.includes(weekday(date));
}

/** A day off: a centre holiday (every therapist) or one therapist's time off, from and to inclusive. */
export type ClosedRange = { from: string; to: string };

/** Whether a date falls in one of the ranges. */
export function isClosedOn(closed: readonly ClosedRange[] | undefined, date: string): boolean {
  return Boolean(closed?.some((c) => c.from <= date && date <= c.to));
}

export type BookedSlot = { booking_date: string; booking_time_slot_start: string };

export type OfferedSlot = { id: number; start_time: string; end_time: string };
export type OfferDay = { date: string; slots: OfferedSlot[] };

export type OfferInput = {
  /** Today at the centre, YYYY-MM-DD. */
  today: string;
  /** Minutes after midnight now at the centre. */
  nowMinutes: number;
  templates: readonly SlotTemplate[];
  booked: readonly BookedSlot[];
  /** Holidays and the therapist's time off: those dates offer nothing. */
  closed?: readonly ClosedRange[];
};

export const bookedKey = (date: string, start: string): string => `${date}|${toHhMm(start)}`;

function sortedTemplates(templates: readonly SlotTemplate[]): SlotTemplate[] {
  return templates
    .filter((t) => t.is_available && !t.admin_blocked)
    .slice()
    .sort((a, b) => timeToMinutes(a.start_time) - timeToMinutes(b.start_time));
}

function daySlots(date: string, input: OfferInput, taken: Set<string>, templates: SlotTemplate[]): OfferedSlot[] {
  const isToday = date === input.today;
  const out: OfferedSlot[] = [];
  if (isClosedOn(input.closed, date)) return out;
  for (const t of templates) {
    if (!worksOn(t, date)) continue;
    const start = toHhMm(t.start_time);
    // A slot that starts at this very minute has passed for booking purposes.
    if (isToday && timeToMinutes(start) <= input.nowMinutes) continue;
    if (taken.has(bookedKey(date, start))) continue;
    out.push({ id: t.id, start_time: start, end_time: toHhMm(t.end_time) });
  }
  return out;
}

/** The calendar dates a client may book: the next 15 non-Sunday days starting today. */
export function clientOfferDates(today: string, count = CLIENT_OFFER_DAYS): readonly string[] {
  return lastClientWindow(today, count);
}
const lastClientWindow = rememberLast((today, count) => {
  const dates: string[] = [];
  for (let d = today; dates.length < count; d = addDays(d, 1)) {
    if (weekday(d) !== 0) dates.push(d);
  }
  return dates;
});

/** The admin's manual-booking window: 15 calendar days from today, today included. */
export function adminWindowDates(today: string, count = ADMIN_WINDOW_DAYS): readonly string[] {
  return lastAdminWindow(today, count);
}
const lastAdminWindow = rememberLast((today, count) => Array.from({ length: count }, (_, i) => addDays(today, i)));

/**
 * Every booking checks its date against a window that changes once a day; building it (a Date and a
 * regex match per day) was a fifth of what a booking request allocated. So the last window is kept,
 * frozen, since every caller shares it.
 */
function rememberLast(build: (today: string, count: number) => string[]): (today: string, count: number) => readonly string[] {
  let last: { today: string; count: number; dates: readonly string[] } | undefined;
  return (today, count) => {
    if (last?.today !== today || last.count !== count) last = { today, count, dates: Object.freeze(build(today, count)) };
    return last.dates;
  };
}

/**
 * The client's slot offer (spec section 4): for each of the next 15 non-Sunday days, every
 * available template slot unless it has started today or is already booked (or blocked).
 */
export function clientSlotOffer(input: OfferInput): OfferDay[] {
  const taken = new Set(input.booked.map((b) => bookedKey(b.booking_date, b.booking_time_slot_start)));
  const templates = sortedTemplates(input.templates);
  return clientOfferDates(input.today).map((date) => ({ date, slots: daySlots(date, input, taken, templates) }));
}

/** The admin's manual-booking offer: 15 days including today, Sundays included. */
export function adminSlotOffer(input: OfferInput): OfferDay[] {
  const taken = new Set(input.booked.map((b) => bookedKey(b.booking_date, b.booking_time_slot_start)));
  const templates = sortedTemplates(input.templates);
  return adminWindowDates(input.today).map((date) => ({ date, slots: daySlots(date, input, taken, templates) }));
}

/**
 * The terms a write path books a slot under, as the one checker reads them (slot_refusal, migration
 * 0024; slot-check.repository.ts): today and now at the centre (a slot that starts at this very minute
 * has passed), the window's last day and whether it is closed on Sundays, and the earliest start the
 * path accepts at the centre's wall clock (a reschedule's notice), null for none.
 */
export type SlotWindow = { today: string; nowTime: string; lastDate: string; sundaysClosed: boolean; earliest: string | null };

/**
 * The window of a write path: `client` the wizard's and a reschedule's (clientOfferDates), `admin` a
 * manual booking's (adminWindowDates), `block` an admin block's (a year ahead), `series` a series'
 * (SERIES_WINDOW_DAYS). `earliestStart` is the first instant a session may start, when the path needs notice.
 */
export function slotWindow(kind: 'client' | 'admin' | 'block' | 'series', now: Date, earliestStart?: Date): SlotWindow {
  const { date: today, time } = centreNow(now);
  const lastDate =
    kind === 'client'
      ? clientOfferDates(today).at(-1)!
      : kind === 'admin'
        ? adminWindowDates(today).at(-1)!
        : addDays(today, kind === 'block' ? BLOCK_WINDOW_DAYS : SERIES_WINDOW_DAYS);
  return { today, nowTime: time, lastDate, sundaysClosed: kind === 'client', earliest: earliestStart ? centreWallClock(earliestStart) : null };
}
