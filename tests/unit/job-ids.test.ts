import { describe, expect, it } from 'vitest';
import { bookingJobIds, fillBookingJobId, jobIds } from '../../shared/core/jobs/jobs.ts';
import { followupsForConfirmedBooking, intentsForConfirmedBooking } from '../../shared/core/services/booking-followups.service.ts';

/**
 * A booking's job ids are its idempotency keys in the outbox and in BullMQ: the same booking and
 * purpose must always make the same id, whether built from the booking id at once or from the parts
 * the booking statement fills in (book_batch, migration 0018).
 */
describe('booking job ids', () => {
  const start = new Date('2026-11-30T04:30:00.000Z');

  it('are what they always were', () => {
    expect(jobIds.meeting(12)).toBe('meeting.12');
    expect(jobIds.confirmationMail(12, 'client')).toBe('mail-confirmation.12.client');
    expect(jobIds.confirmationMail(12, 'therapist')).toBe('mail-confirmation.12.therapist');
    expect(jobIds.reminderMail(12, start)).toBe(`mail-reminder.12.${start.getTime()}`);
  });

  it('are the same made from their parts around the id, as the booking statement makes them', () => {
    expect(fillBookingJobId(bookingJobIds.meeting(), 7)).toBe(jobIds.meeting(7));
    expect(fillBookingJobId(bookingJobIds.confirmationMail('therapist'), 7)).toBe(jobIds.confirmationMail(7, 'therapist'));
    expect(fillBookingJobId(bookingJobIds.reminderMail(start), 7)).toBe(jobIds.reminderMail(7, start));
  });

  it('a confirmed booking’s jobs are its follow-ups with its id filled in', () => {
    const now = new Date('2026-11-23T04:00:00.000Z');
    const offline = { bookingType: 'OFFLINE' as const, bookingDate: '2026-11-30', bookingTimeSlotStart: '10:00', googleMeetLink: null };
    const sql = followupsForConfirmedBooking(offline, now).map((f) => ({
      job_id: `${f.idParts.prefix}41${f.idParts.suffix}`,
      payload: { bookingId: 41, ...f.payload },
      runAt: f.runAt,
    }));
    expect(intentsForConfirmedBooking({ id: 41, ...offline }, now).map((i) => ({ job_id: i.jobId, payload: i.payload, runAt: i.runAt }))).toEqual(sql);
    expect(sql.map((j) => j.job_id)).toEqual(['mail-confirmation.41.client', 'mail-confirmation.41.therapist', `mail-reminder.41.${start.getTime()}`]);
    expect(intentsForConfirmedBooking({ id: 41, ...offline, bookingType: 'ONLINE' }, now).map((i) => i.jobId)).toEqual(['meeting.41']);
    expect(intentsForConfirmedBooking({ id: 41, ...offline, bookingType: 'ADMIN_BLOCK' }, now)).toEqual([]);
  });
});
