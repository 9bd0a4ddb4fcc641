import { timeToMinutes } from './time.ts';

/**
 * The times of day a waitlist client may ask for (issue 34), by a slot's start at the centre: morning
 * before 12:00, afternoon from 12:00 to before 17:00, evening from 17:00. A client who names none
 * waits for any time. Named parts of the day rather than exact starts: a freed slot is offered by
 * when it starts, and a therapist's hours may change while the client waits.
 */
export const WAITLIST_TIMES = ['morning', 'afternoon', 'evening'] as const;
export type WaitlistTime = (typeof WAITLIST_TIMES)[number];

export const WAITLIST_TIME_WORDS: Record<WaitlistTime, string> = {
  morning: 'Morning (before 12 noon)',
  afternoon: 'Afternoon (12 noon to 5 PM)',
  evening: 'Evening (from 5 PM)',
};

/** The part of the day a slot starting at `start` (HH:MM) falls in. */
export function timeOfDay(start: string): WaitlistTime {
  const minutes = timeToMinutes(start);
  if (minutes < 12 * 60) return 'morning';
  if (minutes < 17 * 60) return 'afternoon';
  return 'evening';
}
