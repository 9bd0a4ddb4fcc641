import { randomBytes } from 'node:crypto';
import type { MeetingsProvider } from './meetings.provider.ts';

/** Jitsi rooms exist by name: an unguessable name (128 random bits) is the whole access control. */
export function jitsiProvider(opts: { domain: string }): MeetingsProvider {
  return {
    name: 'jitsi',
    async createMeeting() {
      return { url: `https://${opts.domain}/WellbeingSession-${randomBytes(16).toString('hex')}` };
    },
    // A Jitsi room has no time: the same link serves the moved session, and a cancelled one is simply not joined.
    async updateMeeting() {
      return 'unchanged';
    },
  };
}
