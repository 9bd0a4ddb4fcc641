/** A minimal RFC 5545 invitation; times are written in UTC (…Z), which every calendar converts to local time. */
export type IcsEvent = {
  uid: string;
  start: Date;
  end: Date;
  stamp: Date;
  summary: string;
  description: string;
  location: string;
  organizer: { name: string; email: string };
  attendees: { name: string; email: string }[];
  url?: string;
  /**
   * RFC 5545 SEQUENCE: 0 for the first invitation, one more for each change sent since. With the same
   * UID, calendars replace the event they hold by the highest SEQUENCE they receive.
   */
  sequence?: number;
  /** REQUEST (a new or changed session) or CANCEL (the session is off: STATUS:CANCELLED). */
  method?: 'REQUEST' | 'CANCEL';
};

function utc(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function text(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

function param(v: string): string {
  return `"${v.replace(/["\r\n]/g, '')}"`;
}

/** UTF-8 octets of one code point. */
function octets(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * Lines longer than 75 octets continue on the next line after CRLF and one space. Most lines are short
 * ASCII and are answered by one length check; a series' calendar holds up to 52 events of 20 lines each,
 * and measuring each character of each line through a Buffer was half the worker's time per calendar.
 */
function fold(line: string): string {
  if (line.length <= 75 && Buffer.byteLength(line, 'utf8') <= 75) return line;
  const parts: string[] = [];
  let from = 0;
  let size = 0;
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    const n = octets(cp);
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(line.slice(from, i));
      from = i;
      size = 0;
    }
    size += n;
    i += cp > 0xffff ? 2 : 1;
  }
  parts.push(line.slice(from));
  return parts.join('\r\n ');
}

export function buildIcs(e: IcsEvent): string {
  return buildCalendar([e], e.method ?? 'REQUEST');
}

/**
 * One calendar file holding several events (a series' sessions, issue 34), each its own VEVENT with its
 * own UID, so a later change to one session (the same UID, SEQUENCE raised) updates that event alone.
 * One METHOD for the file: REQUEST for sessions on, CANCEL for sessions called off.
 */
export function buildCalendar(events: readonly IcsEvent[], method: 'REQUEST' | 'CANCEL'): string {
  const cancel = method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Wellbeing Centre//Booking//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...events.flatMap((e) => [
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${utc(e.stamp)}`,
      `DTSTART:${utc(e.start)}`,
      `DTEND:${utc(e.end)}`,
      `SUMMARY:${text(e.summary)}`,
      `DESCRIPTION:${text(e.description)}`,
      `LOCATION:${text(e.location)}`,
      ...(e.url ? [`URL:${e.url}`] : []),
      `ORGANIZER;CN=${param(e.organizer.name)}:mailto:${e.organizer.email}`,
      ...e.attendees.map((a) => `ATTENDEE;CN=${param(a.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${a.email}`),
      `SEQUENCE:${Math.max(0, Math.trunc(e.sequence ?? 0))}`,
      `STATUS:${cancel ? 'CANCELLED' : 'CONFIRMED'}`,
      cancel ? 'TRANSP:TRANSPARENT' : 'TRANSP:OPAQUE',
      // No reminder for a session that is off.
      ...(cancel ? [] : ['BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Therapy session in 1 hour', 'TRIGGER:-PT1H', 'END:VALARM']),
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
