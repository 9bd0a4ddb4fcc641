/**
 * Calendar arithmetic on plain dates ('YYYY-MM-DD') and wall-clock times ('HH:MM'), always in the
 * centre's zone. Pure and browser-safe: nothing here reads the host's time zone.
 */
export const CENTRE_TIME_ZONE = 'Asia/Kolkata';

const partsFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: CENTRE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export type CentreNow = { date: string; minutes: number; time: string };

// Since 1945 the centre's offset has been whole minutes, so one UTC minute is one centre minute.
// formatToParts is the slowest step of a cached slot read; remembering the last minute's answer skips it.
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1946, 0, 1);
let lastMinute = Number.NaN;
let lastNow: CentreNow | undefined;

/** "Today" and "now" at the centre for an instant (defaults to the current instant). */
export function centreNow(instant: Date = new Date()): CentreNow {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === lastMinute && lastNow) return { ...lastNow };
  const parts: Record<string, string> = {};
  for (const p of partsFormatter.formatToParts(instant)) parts[p.type] = p.value;
  const hour = Number(parts.hour) % 24;
  const min = Number(parts.minute);
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const now = { date, minutes: hour * 60 + min, time: `${pad2(hour)}:${pad2(min)}` };
  if (instant.getTime() >= WHOLE_MINUTE_OFFSETS_SINCE) {
    lastMinute = minute;
    lastNow = now;
  }
  return { ...now };
}

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written as YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function toUtc(date: string): Date {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`Not a date: ${date}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}

function fromUtc(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

export function addDays(date: string, days: number): string {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

/** 0 = Sunday … 6 = Saturday, for the calendar date itself. */
export function weekday(date: string): number {
  return toUtc(date).getUTCDay();
}

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

export function isHhMm(value: string): boolean {
  return TIME_RE.test(value);
}

/** Minutes after midnight for 'HH:MM' or 'HH:MM:SS'. */
export function timeToMinutes(time: string): number {
  const m = TIME_RE.exec(time);
  if (!m) throw new RangeError(`Not a time: ${time}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** 'HH:MM:SS' (as PostgreSQL returns `time`) or 'HH:MM' to 'HH:MM'. */
export function toHhMm(time: string): string {
  return time.slice(0, 5);
}

/** '14:00' → '2:00 PM'. */
export function formatTime12h(time: string): string {
  const minutes = timeToMinutes(time);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const suffix = h < 12 ? 'AM' : 'PM';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${pad2(m)} ${suffix}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export function weekdayName(date: string, style: 'long' | 'short' = 'long'): string {
  const name = WEEKDAYS[weekday(date)]!;
  return style === 'long' ? name : name.slice(0, 3);
}

export function monthName(month1to12: number, style: 'long' | 'short' = 'long'): string {
  const name = MONTHS[month1to12 - 1]!;
  return style === 'long' ? name : name.slice(0, 3);
}

/** '2026-11-23' → 'Monday, November 23, 2026'. */
export function formatLongDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${weekdayName(date)}, ${monthName(m)} ${d}, ${y}`;
}

/** The centre's zone as clients read it beside a time. */
export const CENTRE_ZONE_LABEL = 'IST';

/** '14:00' → '2:00 PM IST': a time the client reads, wherever they are. */
export function formatTimeIst(time: string): string {
  return `${formatTime12h(time)} ${CENTRE_ZONE_LABEL}`;
}

// India has kept UTC+05:30 with no daylight saving since 1945, so a wall-clock time at the centre
// is that fixed offset from UTC.
const CENTRE_OFFSET_MINUTES = 330;

/** The instant a wall-clock date and time at the centre happen ('2030-01-08', '10:00' → 04:30Z). */
export function centreInstant(date: string, time: string): Date {
  const d = toUtc(date);
  return new Date(d.getTime() + (timeToMinutes(time) - CENTRE_OFFSET_MINUTES) * 60_000);
}

/**
 * The centre's wall clock at an instant, to the millisecond ('2030-01-08 10:00:00.000'), as PostgreSQL
 * reads a `timestamp`: the inverse of centreInstant.
 */
export function centreWallClock(instant: Date): string {
  return new Date(instant.getTime() + CENTRE_OFFSET_MINUTES * 60_000).toISOString().slice(0, 23).replace('T', ' ');
}

/** The instant a session starts: the booking's wall-clock date and time at the centre. */
export function sessionStart(b: { bookingDate: string; bookingTimeSlotStart: string }): Date {
  return centreInstant(b.bookingDate, b.bookingTimeSlotStart);
}
