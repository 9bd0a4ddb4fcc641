/**
 * Which bookings hold a slot, and what state each of a therapist's slots is in for the admin.
 * Pure and browser-safe. The server's SQL (shared/core/repositories/live-booking.ts, the partial
 * unique index bookings_live_slot_uq) is written from the same list, and a test holds all three
 * equal, so "live" means one thing everywhere.
 */
import { sessionEndTime } from './session.ts';
import { isClosedOn, worksOn, type ClosedRange, type SlotTemplate } from './slots.ts';
import { timeToMinutes, toHhMm } from './time.ts';

/**
 * Payment statuses that give a slot back: a FAILED hold (unpaid and expired, or refused) and a
 * CANCELLED one. Everything else (COMPLETED, PENDING, INITIATED, BLOCKED) keeps holding it.
 */
export const SLOT_RELEASING_STATUSES = ['FAILED', 'CANCELLED'] as const;

/** Whether a booking holds its slot: not cancelled and its payment status does not release it. */
export function isLiveBooking(cancelled: boolean, paymentStatus: string): boolean {
  return !cancelled && !(SLOT_RELEASING_STATUSES as readonly string[]).includes(paymentStatus);
}

/**
 * A slot as the admin sees it: `booked` by a client, `blocked` by an admin (the block's booking id,
 * or null where the therapist's schedule itself blocks the slot, which no block call changes),
 * `past` when it starts at or before now today, otherwise `free`.
 */
export type AdminSlotState = 'free' | 'booked' | 'blocked' | 'past';
export type AdminSlotStateEntry = { start_time: string; end_time: string; state: AdminSlotState; booking_id: number | null };
export type AdminSlotStatesDay = { date: string; slots: AdminSlotStateEntry[] };

/** A live booking of the therapist: the caller has already kept only live ones. */
export type SlotHolder = { id: number; booking_date: string; start_time: string; is_admin_block: boolean };

export type SlotStatesInput = {
  /** Today at the centre, YYYY-MM-DD. */
  today: string;
  /** Minutes after midnight now at the centre. */
  nowMinutes: number;
  dates: readonly string[];
  templates: readonly SlotTemplate[];
  holders: readonly SlotHolder[];
  /** Holidays and the therapist's time off: no free slot on those dates. */
  closed?: readonly ClosedRange[];
};

/** The admin's view of each date's template slots (only those the schedule makes available). */
export function adminSlotStates(input: SlotStatesInput): AdminSlotStatesDay[] {
  const byKey = new Map<string, SlotHolder>();
  for (const h of input.holders) {
    const key = `${h.booking_date}|${toHhMm(h.start_time)}`;
    const seen = byKey.get(key);
    // The unique index allows one live row per slot; should two ever meet, the client's wins, so a
    // slot a client holds is never offered for unblocking.
    if (!seen || (seen.is_admin_block && !h.is_admin_block)) byKey.set(key, h);
  }
  const templates = input.templates
    .filter((t) => t.is_available)
    .slice()
    .sort((a, b) => timeToMinutes(a.start_time) - timeToMinutes(b.start_time));
  return input.dates.map((date) => {
    const closed = isClosedOn(input.closed, date);
    // The day's slots: the schedule's for this weekday (none on a closed day), and any slot a booking
    // holds outside them (hours changed after it was made, or a day off given over it): it stays visible.
    const day = closed ? [] : templates.filter((t) => worksOn(t, date));
    const starts = new Set(day.map((t) => toHhMm(t.start_time)));
    const extra: SlotTemplate[] = [];
    for (const h of byKey.values()) {
      const start = toHhMm(h.start_time);
      if (h.booking_date === date && !starts.has(start)) {
        starts.add(start);
        extra.push({ id: 0, start_time: start, end_time: sessionEndTime(start), is_available: true });
      }
    }
    const all = extra.length ? [...day, ...extra].sort((a, b) => timeToMinutes(a.start_time) - timeToMinutes(b.start_time)) : day;
    return {
      date,
      slots: all.map((t) => {
        const start = toHhMm(t.start_time);
        const entry = { start_time: start, end_time: toHhMm(t.end_time) };
        // A slot starting this very minute has passed, as in the client's offer.
        if (date < input.today || (date === input.today && timeToMinutes(start) <= input.nowMinutes)) {
          return { ...entry, state: 'past' as const, booking_id: null };
        }
        const holder = byKey.get(`${date}|${start}`);
        if (holder) return { ...entry, state: holder.is_admin_block ? ('blocked' as const) : ('booked' as const), booking_id: holder.id };
        if (t.admin_blocked) return { ...entry, state: 'blocked' as const, booking_id: null };
        return { ...entry, state: 'free' as const, booking_id: null };
      }),
    };
  });
}
