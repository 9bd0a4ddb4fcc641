import { describe, expect, it } from 'vitest';
import { buildCalendar, type IcsEvent } from '../../shared/core/providers/mail/ics.ts';

const event = (description: string): IcsEvent => ({
  uid: 'booking-1@wellbeingcentre.in',
  start: new Date('2026-12-01T05:30:00Z'),
  end: new Date('2026-12-01T06:20:00Z'),
  stamp: new Date('2026-11-27T10:00:00Z'),
  summary: 'सत्र: Therapy session with Dr. Ānanya Krishnamurthy 😀',
  description,
  location: 'Online',
  organizer: { name: 'Wellbeing Centre', email: 'care@wellbeingcentre.in' },
  attendees: [{ name: 'Meera Pillai', email: 'meera@example.com' }],
});

describe('calendar files (RFC 5545)', () => {
  it('folds every line to at most 75 octets, never inside a character, and unfolds to the text written', () => {
    const descriptions = ['Short.', 'x'.repeat(200), 'é😀'.repeat(80), `${'a'.repeat(74)}é`, 'ह'.repeat(25)];
    const file = buildCalendar(descriptions.map(event), 'REQUEST');
    const lines = file.split('\r\n');
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    // A split inside a character would leave a lone surrogate or a broken UTF-8 sequence.
    expect(Buffer.from(file, 'utf8').toString('utf8')).toBe(file);
    expect(file).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    const unfolded = file.replace(/\r\n /g, '');
    for (const d of descriptions) expect(unfolded).toContain(`DESCRIPTION:${d}\r\n`);
    expect(unfolded).toContain('SUMMARY:सत्र: Therapy session with Dr. Ānanya Krishnamurthy 😀\r\n');
  });

  it('leaves a short line as it is', () => {
    const file = buildCalendar([event('Short.')], 'CANCEL');
    expect(file).toContain('\r\nDESCRIPTION:Short.\r\n');
    expect(file).toContain('\r\nSTATUS:CANCELLED\r\n');
  });
});
