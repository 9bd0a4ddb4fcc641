import { describe, expect, it } from 'vitest';
import { bookingCreateSchema, fieldErrorsOf } from '../../shared/contract/booking.ts';
import { manualBookingSchema } from '../../shared/contract/admin.ts';
import { formatMobile, isEmailAddress, mobileTelHref, normaliseIndianMobile, tidyMobileInput } from '../../shared/domain/contact.ts';
import { centreInstant, centreWallClock, formatTimeIst } from '../../shared/domain/time.ts';
import { onlineBooking } from '../support/factories.ts';

describe('Indian mobile numbers as people write them', () => {
  it.each([
    ['9876543210', '9876543210'],
    ['09876543210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['+919876543210', '9876543210'],
    ['919876543210', '9876543210'],
    ['91-98765-43210', '9876543210'],
    ['0091 98765 43210', '9876543210'],
    ['+91 (0) 98765-43210', '9876543210'],
    [' 98765.43210 ', '9876543210'],
  ])('%s → %s', (written, digits) => {
    expect(normaliseIndianMobile(written)).toBe(digits);
  });

  it('leaves what is no Indian mobile for the 10-digit rule to refuse', () => {
    for (const bad of ['98765', '+44 7700 900123', '98765432101', '+91 98765 4321', 'abc']) {
      expect(/^\d{10}$/.test(normaliseIndianMobile(bad)), bad).toBe(false);
    }
  });

  it('the shared schemas store the 10 digits, for the public booking and the manual one alike', () => {
    const pub = bookingCreateSchema.parse(onlineBooking({ client_mobile: '+91 98765 43210' }));
    expect(pub.client_mobile).toBe('9876543210');
    const spaced = bookingCreateSchema.parse(onlineBooking({ client_mobile: '0987654321 0' }));
    expect(spaced.client_mobile).toBe('9876543210');
    const short = bookingCreateSchema.safeParse(onlineBooking({ client_mobile: '+91 98765' }));
    expect(!short.success && fieldErrorsOf(short.error).client_mobile).toBe('Mobile number must be 10 digits');
    const manual = manualBookingSchema.parse({
      therapist_id: 5,
      booking_date: '2026-11-24',
      booking_time_slot_start: '12:00',
      client_full_name: 'Walk In',
      client_email: 'walk.in@example.com',
      client_mobile: '098765-43210',
      booking_type: 'OFFLINE',
      location_id: 1,
      amount: 1800,
    });
    expect(manual.client_mobile).toBe('9876543210');
  });
});

describe('e-mail addresses', () => {
  it('accepts ordinary addresses', () => {
    for (const ok of ['meera@example.in', 'meera.sharma+care@mail.example.co.in', 'a_b@x-y.com', 'ரமா@உதாரணம்.இந்தியா']) expect(isEmailAddress(ok), ok).toBe(true);
  });
  it('refuses an empty part between dots, a dot at either end of the name, a bad label or top-level domain', () => {
    for (const bad of [
      'user@example..com',
      '.user@example.com',
      'user.@example.com',
      'us..er@example.com',
      'user@-example.com',
      'user@example-.com',
      'user@example.c',
      'user@example',
      'user@@example.com',
      'user example@x.com',
      'user@example.com.',
      'user@.example.com',
      'user@example.c0m',
    ]) {
      expect(isEmailAddress(bad), bad).toBe(false);
    }
  });
});

describe('times at the centre', () => {
  it('says IST beside a time, and turns a centre wall-clock time into its instant', () => {
    expect(formatTimeIst('14:00')).toBe('2:00 PM IST');
    expect(centreInstant('2030-01-08', '10:00').toISOString()).toBe('2030-01-08T04:30:00.000Z');
    expect(centreInstant('2030-01-01', '00:30').toISOString()).toBe('2029-12-31T19:00:00.000Z');
    // And back: the wall clock an instant shows at the centre, to the millisecond.
    expect(centreWallClock(new Date('2029-12-31T19:00:00.250Z'))).toBe('2030-01-01 00:30:00.250');
    expect(centreWallClock(centreInstant('2030-01-08', '10:00'))).toBe('2030-01-08 10:00:00.000');
  });
});

describe('a mobile field and a saved mobile (issue 31, item 3)', () => {
  it('a field shows the 10 digits once left, or what was typed, whole, for the rule to refuse', () => {
    expect(tidyMobileInput('919920033333')).toBe('9920033333');
    expect(tidyMobileInput('+91 99200 33333')).toBe('9920033333');
    expect(tidyMobileInput('+44 7700 900123')).toBe('+44 7700 900123');
    expect(tidyMobileInput('99200 3333')).toBe('99200 3333');
  });

  it('a saved mobile dials as +91 and reads in two groups of five', () => {
    expect(mobileTelHref('9920033333')).toBe('tel:+919920033333');
    expect(formatMobile('9920033333')).toBe('99200 33333');
    // An older record kept as written still dials what it says.
    expect(mobileTelHref('+44 7700 900123')).toBe('tel:+447700900123');
    expect(formatMobile('+44 7700 900123')).toBe('+44 7700 900123');
  });
});
