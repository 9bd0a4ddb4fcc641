import { afterEach, describe, expect, it } from 'vitest';
import { adminSlotOffer, adminWindowDates, clientOfferDates, clientSlotOffer, slotWindow, type SlotTemplate } from '../../shared/domain/slots.ts';
import { centreNow, formatLongDate, formatTime12h, weekday } from '../../shared/domain/time.ts';
import { reminderAt, sessionEnd, sessionEndTime } from '../../shared/domain/session.ts';

const templates: SlotTemplate[] = [
  { id: 3, start_time: '14:00', end_time: '15:00', is_available: true },
  { id: 1, start_time: '10:00:00', end_time: '11:00:00', is_available: true },
  { id: 2, start_time: '11:00', end_time: '12:00', is_available: false },
  { id: 4, start_time: '23:00', end_time: '23:59', is_available: true },
  { id: 5, start_time: '16:00', end_time: '17:00', is_available: true, admin_blocked: true },
];

/** The offer as a server in any TZ computes it for an instant. */
function offerAt(instant: string, booked: { booking_date: string; booking_time_slot_start: string }[] = []) {
  const now = centreNow(new Date(instant));
  return clientSlotOffer({ today: now.date, nowMinutes: now.minutes, templates, booked });
}

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

describe('centreNow', () => {
  it('is the date and time in Asia/Kolkata, not UTC', () => {
    // 20:00 UTC on Saturday is 01:30 on Sunday in India.
    expect(centreNow(new Date('2026-11-21T20:00:00Z'))).toEqual({ date: '2026-11-22', minutes: 90, time: '01:30' });
    expect(centreNow(new Date('2026-11-21T18:29:00Z'))).toEqual({ date: '2026-11-21', minutes: 23 * 60 + 59, time: '23:59' });
  });

  it('answers each instant of a minute alike and turns over with the next minute, also when asked again', () => {
    const last = { date: '2026-11-21', minutes: 23 * 60 + 59, time: '23:59' };
    const next = { date: '2026-11-22', minutes: 0, time: '00:00' };
    for (const round of [1, 2]) {
      expect(centreNow(new Date('2026-11-21T18:29:00.000Z')), `round ${round}`).toEqual(last);
      expect(centreNow(new Date('2026-11-21T18:29:59.999Z')), `round ${round}`).toEqual(last);
      expect(centreNow(new Date('2026-11-21T18:30:00.000Z')), `round ${round}`).toEqual(next);
    }
    // A caller changing its answer changes no one else's.
    const mine = centreNow(new Date('2026-11-21T18:30:30Z'));
    mine.time = '99:99';
    expect(centreNow(new Date('2026-11-21T18:30:40Z'))).toEqual(next);
    // Before 1946 India's offset had seconds in it; those instants are worked out afresh.
    expect(centreNow(new Date('1900-01-01T00:00:00Z')).date).toBe('1900-01-01');
  });
});

describe('client slot offer', () => {
  const edges = {
    'Saturday 23:59 IST': '2026-11-21T23:59:00+05:30',
    'Sunday 10:00 IST': '2026-11-22T10:00:00+05:30',
    'Monday 10:00 IST exactly': '2026-11-23T10:00:00+05:30',
    'Monday 09:59 IST': '2026-11-23T09:59:00+05:30',
  };

  it('gives the same answer whatever the server time zone', () => {
    for (const instant of Object.values(edges)) {
      const answers = ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Kiritimati'].map((tz) => {
        process.env.TZ = tz;
        return JSON.stringify(offerAt(instant));
      });
      expect(new Set(answers).size).toBe(1);
    }
  });

  it('Saturday 23:59: today is still Saturday and has no slot left', () => {
    process.env.TZ = 'America/Los_Angeles';
    const offer = offerAt(edges['Saturday 23:59 IST']);
    expect(offer).toHaveLength(15);
    expect(offer[0]).toEqual({ date: '2026-11-21', slots: [] });
    expect(offer[1]!.date).toBe('2026-11-23'); // Sunday skipped
  });

  it('on a Sunday the offer starts on Monday and still holds 15 days', () => {
    process.env.TZ = 'UTC';
    const offer = offerAt(edges['Sunday 10:00 IST']);
    expect(offer[0]!.date).toBe('2026-11-23');
    expect(offer).toHaveLength(15);
    expect(offer.every((d) => weekday(d.date) !== 0)).toBe(true);
    expect(offer[0]!.slots.map((s) => s.start_time)).toEqual(['10:00', '14:00', '23:00']);
  });

  it('at 10:00 exactly the 10:00 slot has passed; at 09:59 it has not', () => {
    expect(offerAt(edges['Monday 10:00 IST exactly'])[0]!.slots.map((s) => s.start_time)).toEqual(['14:00', '23:00']);
    expect(offerAt(edges['Monday 09:59 IST'])[0]!.slots.map((s) => s.start_time)).toEqual(['10:00', '14:00', '23:00']);
  });

  it('drops unavailable, admin-blocked and booked slots, and sorts by time', () => {
    const offer = offerAt(edges['Monday 09:59 IST'], [{ booking_date: '2026-11-24', booking_time_slot_start: '14:00:00' }]);
    expect(offer[1]).toEqual({
      date: '2026-11-24',
      slots: [
        { id: 1, start_time: '10:00', end_time: '11:00' },
        { id: 4, start_time: '23:00', end_time: '23:59' },
      ],
    });
  });

  it('spans 15 non-Sunday days across a month and year end', () => {
    const dates = clientOfferDates('2026-12-24');
    expect(dates).toHaveLength(15);
    expect(dates).toContain('2027-01-01');
    expect(dates).not.toContain('2026-12-27');
    expect(dates.at(-1)).toBe('2027-01-09');
  });

  it('is the same frozen list for the same day, and a new one when the day or length changes', () => {
    const first = clientOfferDates('2026-12-24');
    expect(clientOfferDates('2026-12-24')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(clientOfferDates('2026-12-25')[0]).toBe('2026-12-25');
    expect(clientOfferDates('2026-12-25', 3)).toEqual(['2026-12-25', '2026-12-26', '2026-12-28']);
    expect(clientOfferDates('2026-12-24')).toEqual(first);
    expect(adminWindowDates('2026-12-24', 3)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26']);
    expect(adminWindowDates('2026-12-25', 3)).toEqual(['2026-12-25', '2026-12-26', '2026-12-27']);
  });
});

describe('admin window', () => {
  it('is 15 calendar days from today including today, Sundays included', () => {
    const now = centreNow(new Date('2026-11-21T12:00:00+05:30'));
    const offer = adminSlotOffer({ today: now.date, nowMinutes: now.minutes, templates, booked: [] });
    expect(offer).toHaveLength(15);
    expect(offer[0]!.date).toBe('2026-11-21');
    expect(offer[1]!.date).toBe('2026-11-22');
    expect(offer[0]!.slots.map((s) => s.start_time)).toEqual(['14:00', '23:00']);
  });
});

describe('the window a write path books under', () => {
  it('the client’s ends on the offer’s last day and closes Sundays; the admin’s ends 14 days on; a block’s a year on', () => {
    const now = new Date('2026-12-24T16:05:30+05:30');
    expect(slotWindow('client', now)).toEqual({ today: '2026-12-24', nowTime: '16:05', lastDate: '2027-01-09', sundaysClosed: true, earliest: null });
    expect(slotWindow('admin', now)).toEqual({ today: '2026-12-24', nowTime: '16:05', lastDate: '2027-01-07', sundaysClosed: false, earliest: null });
    expect(slotWindow('block', now)).toEqual({ today: '2026-12-24', nowTime: '16:05', lastDate: '2027-12-25', sundaysClosed: false, earliest: null });
    // A reschedule's notice, as the centre's wall clock.
    expect(slotWindow('client', now, new Date(now.getTime() + 24 * 3600_000)).earliest).toBe('2026-12-25 16:05:30.000');
  });
});

describe('formatting', () => {
  it('shows 12-hour times and long dates with the weekday', () => {
    expect(formatTime12h('00:30')).toBe('12:30 AM');
    expect(formatTime12h('12:00')).toBe('12:00 PM');
    expect(formatTime12h('17:00:00')).toBe('5:00 PM');
    expect(formatLongDate('2026-11-23')).toBe('Monday, November 23, 2026');
  });
});

describe('a session (shared/domain/session.ts)', () => {
  it('ends an hour after it starts, on the instant and on the centre clock', () => {
    expect(sessionEnd(new Date('2030-01-08T04:30:00Z')).toISOString()).toBe('2030-01-08T05:30:00.000Z');
    expect(sessionEndTime('10:00')).toBe('11:00');
    expect(sessionEndTime('21:30:00')).toBe('22:30');
  });

  it('is reminded of 24 hours before it starts', () => {
    expect(reminderAt(new Date('2030-01-08T04:30:00Z')).toISOString()).toBe('2030-01-07T04:30:00.000Z');
  });
});
