/**
 * "Add to calendar" for a booked session: an .ics file (any calendar app) and a Google Calendar
 * link. Times are the centre's wall clock turned into UTC by the one helper in shared/domain/time.ts.
 */
import { centreInstant } from '../../../shared/domain/time.ts';

export type CalendarSession = {
  id: number;
  date: string;
  time: string;
  title: string;
  details: string;
  location: string;
};

const SESSION_MS = 60 * 60_000;

/** 20300108T043000Z */
function utcStamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function icsText(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** RFC 5545: lines longer than 75 octets continue on the next line after CRLF and one space. */
function fold(line: string): string {
  const enc = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = enc.encode(ch).length;
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function sessionTimes(s: Pick<CalendarSession, 'date' | 'time'>): { start: Date; end: Date } {
  const start = centreInstant(s.date, s.time);
  return { start, end: new Date(start.getTime() + SESSION_MS) };
}

export function buildSessionIcs(s: CalendarSession, stamp: Date): string {
  const { start, end } = sessionTimes(s);
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Wellbeing Centre//Booking//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:booking-${s.id}@wellbeing-booking`,
    `DTSTAMP:${utcStamp(stamp)}`,
    `DTSTART:${utcStamp(start)}`,
    `DTEND:${utcStamp(end)}`,
    `SUMMARY:${icsText(s.title)}`,
    `DESCRIPTION:${icsText(s.details)}`,
    `LOCATION:${icsText(s.location)}`,
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'DESCRIPTION:Therapy session in 1 hour',
    'TRIGGER:-PT1H',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** A data: address for the .ics download (an <a download> needs no script to save it). */
export function icsHref(s: CalendarSession, stamp: Date = new Date()): string {
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(buildSessionIcs(s, stamp))}`;
}

export function googleCalendarHref(s: CalendarSession): string {
  const { start, end } = sessionTimes(s);
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: s.title,
    dates: `${utcStamp(start)}/${utcStamp(end)}`,
    details: s.details,
    location: s.location,
    ctz: 'Asia/Kolkata',
  });
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}
