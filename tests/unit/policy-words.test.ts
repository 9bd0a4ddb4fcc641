/**
 * Issue 31: the change policy in one wording (shared/contract/policy.ts), used by the wizard's details
 * and review steps, the confirmation page, the Manage booking page and the e-mails; and a therapist's
 * one display name (shared/domain/therapist.ts).
 */
import { describe, expect, it } from 'vitest';
import { changePolicyText, shortNoticeText } from '../../shared/contract/policy.ts';
import { displayName } from '../../shared/domain/therapist.ts';

const SUPPORT = { phone: '+91 22 4000 1234', email: 'care@wellbeingcentre.in' };

describe('changePolicyText', () => {
  it('the default policy, with whom to call', () => {
    expect(changePolicyText({ noticeHours: 24, maxReschedules: 2 }, SUPPORT)).toBe(
      'You can move your session to another time with the same therapist (at most twice) or cancel it yourself with your Manage booking link until 24 hours before it starts. A paid session cancelled in time is refunded in full. Within 24 hours of the session, changes can only be made by the centre (call +91 22 4000 1234 or write to care@wellbeingcentre.in), and the cancellation policy applies: 100% of the session fee is charged.',
    );
  });

  it('follows the configuration: rescheduling off, one hour, no contacts to give', () => {
    expect(changePolicyText({ noticeHours: 1, maxReschedules: 0 })).toBe(
      'You can cancel your session yourself with your Manage booking link until 1 hour before it starts; to move it, please contact the centre. A paid session cancelled in time is refunded in full. Within 1 hour of the session, changes can only be made by the centre, and the cancellation policy applies: 100% of the session fee is charged.',
    );
    expect(changePolicyText({ noticeHours: 48, maxReschedules: 3 })).toContain('(at most 3 times)');
  });

  it('never the old words that contradicted it', () => {
    const words = changePolicyText({ noticeHours: 24, maxReschedules: 2 }, SUPPORT);
    expect(words).not.toMatch(/please contact us at least/);
  });
});

describe('shortNoticeText', () => {
  it('a session within the notice cannot be moved or cancelled online', () => {
    expect(shortNoticeText({ noticeHours: 24, maxReschedules: 2 }, SUPPORT)).toBe(
      'Your session starts in less than 24 hours, so it cannot be moved or cancelled online: changes can only be made by the centre (call +91 22 4000 1234 or write to care@wellbeingcentre.in), and the cancellation policy applies: 100% of the session fee is charged.',
    );
  });
});

describe('displayName: one name for a therapist everywhere a client reads it', () => {
  it.each([
    ['Dr. Asha Mehta', 'Asha Mehta'],
    ['Ms.  Priya Nair ', 'Priya Nair'],
    ['Asha Mehta', 'Asha Mehta'],
    // Nothing after the period: the name as it is, never an empty one.
    ['Dr.', 'Dr.'],
  ])('%s → %s', (name, shown) => {
    expect(displayName(name)).toBe(shown);
  });
});
