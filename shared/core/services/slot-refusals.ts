import { ADMIN_MESSAGES as AM } from '../../contract/admin.ts';
import { API_MESSAGES as M } from '../../contract/messages.ts';
import type { SlotRefusal } from '../repositories/slot-check.repository.ts';

type FieldMessage = [field: string, message: string];

/**
 * What the checker's refusals (slot_refusal, slot-check.repository.ts) mean to the wizard's client: the
 * field at fault and its message. A booking's window has no notice, so `notice` never comes.
 */
export const BOOKING_REFUSALS: Record<SlotRefusal, FieldMessage> = {
  sunday: ['booking_date', M.sundayClosed],
  before_window: ['booking_date', M.dateOutsideWindow],
  after_window: ['booking_date', M.dateOutsideWindow],
  passed: ['booking_time_slot_start', M.slotPassed],
  notice: ['booking_time_slot_start', M.slotNotOffered],
  therapist: ['therapist_id', M.therapistNotFound],
  therapist_type: ['therapist_id', M.therapistTypeMismatch],
  location: ['location_id', M.locationMismatch],
  not_on_schedule: ['booking_time_slot_start', M.slotNotOffered],
  schedule_blocked: ['booking_time_slot_start', M.slotNotOffered],
  off_schedule: ['booking_time_slot_start', M.slotNotOffered],
  day_closed: ['booking_time_slot_start', M.slotNotOffered],
  service: ['service_id', M.serviceNotFound],
};

/**
 * The same refusals in the manual booking form's words, where they differ. The admin's window has
 * Sundays and no notice, so those never come.
 */
export const MANUAL_REFUSALS: Record<SlotRefusal, FieldMessage> = {
  ...BOOKING_REFUSALS,
  sunday: ['booking_date', AM.manualDateWindow],
  before_window: ['booking_date', AM.manualDateWindow],
  after_window: ['booking_date', AM.manualDateWindow],
  // A centre holiday or the therapist's time off: the day is closed for manual bookings too.
  day_closed: ['booking_date', AM.manualDayClosed],
};
