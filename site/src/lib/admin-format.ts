/** Pure display rules and helpers of the admin screens (spec sections 4, 5 and 9). */
import { addDays, centreNow, formatLongDate, formatTime12h, monthName, pad2, weekday, weekdayName } from '../../../shared/domain/time.ts';
import { isAttended } from '../../../shared/domain/attendance.ts';
import { sessionEndTime } from '../../../shared/domain/session.ts';
import { formatRupees } from '../../../shared/domain/money.ts';
import type { PaymentState } from '../../../shared/domain/payment-state.ts';
import { displayName } from '../../../shared/domain/therapist.ts';
import { deskPaymentDue, PAYMENT_STATE_WORDS } from '../../../shared/domain/payment-state.ts';
import type { DeskPaymentMethod } from '../../../shared/contract/admin.ts';
import type { PaymentStatus } from '../../../shared/contract/booking.ts';
import type { AdminBooking } from './admin-api.ts';

export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const CLIENT_LIST_PAGE_SIZE = 10;
export const CALENDAR_EVENTS_PER_DAY = 2;
export const MEET_PREFIX = 'https://meet.google.com/';

export { formatLongDate, formatRupees };

/** 'Mon, Nov 23, 2026': dates in admin tables carry the weekday. */
export function formatShortDate(date: string | null | undefined): string {
  if (!date) return '--';
  const iso = date.slice(0, 10);
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return date;
  return `${weekdayName(iso, 'short')}, ${monthName(m, 'short')} ${d}, ${y}`;
}

export function formatTime(time: string | null | undefined): string {
  if (!time) return '--';
  try {
    return formatTime12h(time.slice(0, 8));
  } catch {
    return time;
  }
}

/** An instant as the centre's clock shows it: 'Mon, Nov 23, 2026 at 9:30 AM'. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '--';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const { date, time } = centreNow(at);
  return `${formatShortDate(date)} at ${formatTime(time)}`;
}

export function formatAmount(amount: number | null | undefined): string {
  return formatRupees(Number(amount ?? 0));
}

export function todayAtCentre(now: Date = new Date()): string {
  return centreNow(now).date;
}

export type Page<T> = { items: T[]; page: number; totalPages: number; total: number };

/** One page of a list; the page number is clamped to the pages there are. */
export function paginate<T>(list: readonly T[], page: number, pageSize: number): Page<T> {
  const totalPages = Math.max(1, Math.ceil(list.length / pageSize));
  const p = Math.min(Math.max(1, page), totalPages);
  return { items: list.slice((p - 1) * pageSize, p * pageSize), page: p, totalPages, total: list.length };
}

/** Payment status badge colours (spec section 4). */
export function statusTone(status: string | null | undefined): 'green' | 'yellow' | 'red' | 'orange' | 'grey' {
  switch (status) {
    case 'COMPLETED':
      return 'green';
    case 'PENDING':
    case 'INITIATED':
      return 'yellow';
    case 'FAILED':
      return 'red';
    case 'BLOCKED':
      return 'orange';
    default:
      return 'grey';
  }
}

export function isBlockBooking(b: Pick<AdminBooking, 'booking_type' | 'payment_status'>): boolean {
  return b.booking_type === 'ADMIN_BLOCK' || b.payment_status === 'BLOCKED';
}

/**
 * Cancel is allowed only if the booking is not cancelled, its status is not CANCELLED or BLOCKED,
 * today (at the centre) is not after the booking date, and the session is not marked attended.
 */
export function canCancel(b: Pick<AdminBooking, 'cancelled' | 'payment_status' | 'booking_date' | 'attendance'>, today: string): boolean {
  if (b.cancelled || isAttended(b)) return false;
  if (b.payment_status === 'CANCELLED' || b.payment_status === 'BLOCKED') return false;
  return today <= b.booking_date.slice(0, 10);
}

/** A BLOCKED (not yet cancelled) booking offers Unblock through the cancel call. */
export function canUnblock(b: Pick<AdminBooking, 'cancelled' | 'payment_status' | 'booking_type'>): boolean {
  return !b.cancelled && isBlockBooking(b);
}

/**
 * Record payment: the server's own rule (deskPaymentDue) over the payment it states, in person to be
 * paid at the centre, "Payment not recorded", or an online booking the centre made awaiting its link.
 */
export function canRecordPayment(b: Pick<AdminBooking, 'payment_state' | 'payment_status'>): boolean {
  return deskPaymentDue(b.payment_state, b.payment_status);
}

/**
 * The booking's payment in words beside its status ('Paid', 'Pay at centre', 'Awaiting payment',
 * 'Payment not recorded', …), as the server states it; none where the status, the money note or the
 * hold's note says it.
 */
export function paymentWords(b: Pick<AdminBooking, 'payment_state' | 'payment_note' | 'payment_status' | 'payment_hold_expires_at'>): string | null {
  if (b.payment_note || b.payment_state === 'CANCELLED' || b.payment_state === 'BLOCKED') return null;
  if (b.payment_state === 'HELD_FOR_WAITLIST') return paymentStateWords(b);
  // An unpaid hold's own note says it waits, and until when.
  if (b.payment_status === 'INITIATED') return null;
  return PAYMENT_STATE_WORDS[b.payment_state];
}

/**
 * The payment's words as Today shows them on their own: the state's words, and for a slot held for a
 * waitlist client until when ('Held for waitlist until 2:30 PM').
 */
export function paymentStateWords(b: Pick<AdminBooking, 'payment_state' | 'payment_hold_expires_at'>): string {
  const words = PAYMENT_STATE_WORDS[b.payment_state];
  return b.payment_state === 'HELD_FOR_WAITLIST' && b.payment_hold_expires_at ? `${words} until ${formatInstantTime(b.payment_hold_expires_at)}` : words;
}

/** A booking still waiting for its payment, online or at the centre: its payment link may be sent. */
export function canSendLink(b: Pick<AdminBooking, 'payment_state'>): boolean {
  return b.payment_state === 'AWAITING_PAYMENT' || b.payment_state === 'PAY_AT_CENTRE';
}

/** How the desk took money, in the panel's words. */
export const DESK_METHOD_WORDS: Record<DeskPaymentMethod, string> = { CASH: 'Cash', CARD: 'Card', UPI: 'UPI', BANK_TRANSFER: 'Bank transfer' };

/** How a payment link was sent: 'e-mail', 'e-mail and WhatsApp'. */
export function sentToWords(to: readonly ('email' | 'whatsapp')[] | null | undefined): string {
  return (to ?? ['email']).map((c) => (c === 'email' ? 'e-mail' : 'WhatsApp')).join(' and ');
}

/**
 * 'Link sent 9:30 AM' (the time at the centre; another day's with its date), while the booking waits
 * for its payment; null when no link was sent.
 */
export function linkSentWords(b: Pick<AdminBooking, 'payment_link_sent_at' | 'payment_state'>, now: Date = new Date()): string | null {
  const at = b.payment_link_sent_at;
  if (!at || !canSendLink(b)) return null;
  return `Link sent ${centreNow(new Date(at)).date === centreNow(now).date ? formatInstantTime(at) : formatInstant(at)}`;
}

/**
 * A booking whose cancel must say what happens to the money: the server refuses a plain cancel of
 * one holding money (409), so the panel asks what becomes of it instead of a yes/no confirm. The
 * server's own reading of the ledger (payment_state) decides, not the status beside it.
 */
export function isPaidBooking(b: Pick<AdminBooking, 'payment_state'>): boolean {
  return b.payment_state === 'PAID';
}

/**
 * A partial refund typed by the receptionist, in rupees: digits with at most two decimals, more than
 * zero and at most what was paid. Null when it is not one (the dialog then says so and sends nothing).
 */
export function parseRefundAmount(text: string, paid: number): number | null {
  const t = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const value = Number(t);
  // Compare in paise so 1500.00 against a paid 1500 is not lost to floating point.
  if (!(value > 0) || Math.round(value * 100) > Math.round(paid * 100)) return null;
  return Math.round(value * 100) / 100;
}

export const REFUND_REASON_MAX = 300;

export function canGenerateLink(b: Pick<AdminBooking, 'amount' | 'id' | 'payment_transaction_id'>): boolean {
  return Boolean(b.amount && b.id && b.payment_transaction_id);
}

export const MESSAGES = {
  unauthorizedInactive: 'Unauthorized access or inactive user.',
  adminDataFailed: 'Failed to load admin data.',
  availabilityFailed: 'Failed to load therapist availability and bookings.',
  cancelConfirm: (id: number) => `Are you sure you want to cancel booking ${id}? This cannot be undone.`,
  blockConfirm: (action: 'block' | 'unblock') => `Are you sure you want to ${action} this time slot?`,
  cancelled: (id: number) => `Booking ${id} cancelled successfully.`,
  cancelFailed: (id: number, msg: string) => `Failed to cancel booking ${id}: ${msg}`,
  refundSuperadminOnly: 'Only super admins may refund payments.',
  noRefundReasonDefault: "Cancelled with less than 24 hours' notice (Terms)",
  noRefundReasonRequired: 'A reason is required when no refund is given.',
  refundChoiceRequired: 'Choose a full, partial or no refund.',
  refundAmountInvalid: (paid: number) => `Enter an amount more than ₹0 and at most ${formatRupees(paid)}, with at most two decimals.`,
  // The refund dialog's button: "Cancel booking …", saying what happens to the money.
  cancelBooking: (id: number) => `Cancel booking ${id}`,
  cancelAndRefund: (id: number, amount: number | null) =>
    amount === null ? `Cancel booking ${id} and refund` : `Cancel booking ${id} and refund ${formatRupees(amount)}`,
  cancelWithoutRefund: (id: number) => `Cancel booking ${id} without refund`,
  cancelAndAskOwner: (id: number) => `Cancel booking ${id} and ask the owner`,
  refundRequestChoiceRequired: 'Choose to ask the owner to refund, or no refund.',
  refundRequestReasonRequired: 'Please say why the client should be refunded.',
  refundRequestHint: 'The owner approves or declines the refund; the client is told by e-mail that it is being reviewed.',
  noRefundOutsideNotice: (hours: number) =>
    `No refund is only for a session starting within ${hours} hours, where the terms charge the full fee. Ask the owner to refund instead.`,
  noRefundInsideNotice:
    'This session starts within the notice window, where the terms charge the full fee: you may cancel without a refund, or ask the owner to refund.',
  refundAtCounterNote: (amount: number) =>
    `${formatRupees(amount)} of it was paid at the counter: a refund of it is handed back at the desk, and listed under “Refunds due at the counter” until then.`,
  refundOptionsFailed: 'Failed to load the refund choices.',
  slotToggled: (time: string, date: string, action: 'block' | 'unblock') => `Slot ${time} on ${date} ${action}ed successfully.`,
  slotToggleFailed: (action: 'block' | 'unblock', time: string, date: string, msg: string) => `Failed to ${action} slot ${time} on ${date}: ${msg}`,
  slotStatesMissing: 'No availability for this date yet. Please retry.',
  paymentRecorded: (id: number) => `Payment for booking ${id} recorded successfully.`,
  recordPaymentAmount: 'Amount is required and must be positive',
  linkCopied: 'Link copied to the clipboard.',
  linkCopyFailed: 'Could not copy the link: select it and copy it yourself.',
  linkMade: (id: number) => `Payment link for booking ${id} created successfully.`,
  linkSent: (id: number, to: readonly ('email' | 'whatsapp')[], at: string) =>
    `Payment link for booking ${id} sent to the client by ${sentToWords(to)} at ${formatInstantTime(at)}.`,
  linkSendFailed: (id: number, msg: string) => `Failed to send the payment link for booking ${id}: ${msg}`,
  linkFailed: (id: number, msg: string) => `Failed to generate link for booking ${id}: ${msg}`,
  linkMissing: 'API response did not include a payment link.',
  linkMissingDetails: (id: number) => `Error: Booking ${id} is missing required details (price, ID, or transaction ID) to generate a link.`,
  manualCreated: (id: number) => `Manual booking ${id} created successfully!`,
  manualFailed: 'Failed to create manual booking.',
  manualError: 'An error occurred during manual booking.',
  formDataFailed: 'Failed to load form data.',
  slotsFailed: 'Failed to fetch available time slots.',
  loginFailed: 'Login failed. Please check credentials.',
  reportFailed: (tab: string) => `Failed to load ${tab} report.`,
  incomeFailed: 'Failed to load income data.',
  calendarFailed: 'Failed to load booking events.',
  clientsFailed: 'Failed to load client data.',
  searchFailed: 'Failed to search for clients.',
  noIncome: 'No income data available.',
  noClientData: 'No client booking data available.',
  noClientsFound: 'No clients found. Try searching by name, email, or mobile number.',
  forbidden: 'Only super admins may view this page.',
  attentionEmpty: 'Nothing needs attention.',
  attentionFailed: 'Failed to load the payments needing attention.',
  reviewNoteRequired: 'Please write what you checked or did.',
} as const;

// ---- Calendar (spec section 4) ------------------------------------------------------------

export type CalendarBadge = { label: 'Cancelled' | 'Completed' | 'Pending' | 'Initiated' | 'Scheduled'; tone: 'red' | 'green' | 'yellow' | 'blue' };

export function calendarBadge(b: Pick<AdminBooking, 'cancelled' | 'payment_status'>): CalendarBadge {
  if (b.cancelled) return { label: 'Cancelled', tone: 'red' };
  switch (b.payment_status) {
    case 'COMPLETED':
      return { label: 'Completed', tone: 'green' };
    case 'PENDING':
      return { label: 'Pending', tone: 'yellow' };
    case 'INITIATED':
      return { label: 'Initiated', tone: 'yellow' };
    default:
      return { label: 'Scheduled', tone: 'blue' };
  }
}

/** The calendar leaves out cancelled bookings and those whose payment FAILED or is BLOCKED. */
export function onCalendar(b: Pick<AdminBooking, 'cancelled' | 'payment_status'>): boolean {
  return !b.cancelled && b.payment_status !== 'FAILED' && b.payment_status !== 'BLOCKED';
}

/** The part of the meeting link after the meet prefix, or N/A. */
export function meetingCode(link: string | null | undefined): string {
  if (!link) return 'N/A';
  if (link.startsWith(MEET_PREFIX)) return link.slice(MEET_PREFIX.length) || 'N/A';
  return link;
}

/** Each calendar event lasts a session from the slot start: '10:00 AM - 11:00 AM'. */
export function eventTimeRange(start: string): string {
  return `${formatTime(start)} - ${formatTime12h(sessionEndTime(start))}`;
}

export function sessionLabel(type: string | null | undefined): string {
  return type === 'ONLINE' ? 'Online' : type === 'OFFLINE' ? 'In-Person' : type === 'ADMIN_BLOCK' ? 'Blocked' : '--';
}

export function therapistLabel(name: string | null | undefined): string {
  return name ? `Dr. ${displayName(name)}` : '--';
}

/** Sunday-to-Saturday weeks covering a month: 'YYYY-MM-DD' cells, null outside the month. */
export function monthGrid(year: number, month1to12: number): (string | null)[][] {
  const first = `${year}-${pad2(month1to12)}-01`;
  const lead = weekday(first);
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = first; Number(d.slice(5, 7)) === month1to12; d = addDays(d, 1)) days.push(d);
  while (days.length % 7) days.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return weeks;
}

export function shiftMonth(year: number, month: number, delta: number): { year: number; month: number } {
  const idx = year * 12 + (month - 1) + delta;
  return { year: Math.floor(idx / 12), month: (idx % 12) + 1 };
}

/** Bookings on the calendar grouped by date, each day sorted by start time. */
export function eventsByDate(bookings: readonly AdminBooking[]): Map<string, AdminBooking[]> {
  const map = new Map<string, AdminBooking[]>();
  for (const b of bookings) {
    if (!onCalendar(b)) continue;
    const key = b.booking_date.slice(0, 10);
    const list = map.get(key) ?? [];
    list.push(b);
    map.set(key, list);
  }
  for (const list of map.values()) list.sort((a, b) => a.booking_time_slot_start.localeCompare(b.booking_time_slot_start));
  return map;
}

/** Random UUID for the manual booking form's transaction id. */
export function newTransactionId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---- Booking lists (issue 19, item 15) -----------------------------------------------------

/** The bookings that hold a slot or will: paid, to be paid at the centre, unpaid holds and blocks. */
export const ACTIVE_STATUSES = ['COMPLETED', 'PENDING', 'INITIATED', 'BLOCKED'] as const;
/** What the calendar shows (spec section 4): not cancelled, not FAILED, not BLOCKED. */
export const CALENDAR_STATUSES = ['COMPLETED', 'PENDING', 'INITIATED'] as const;

/** The status filter of the booking lists: a label and the statuses the server is asked for (none: all). */
export const STATUS_FILTERS = [
  { value: 'active', label: 'Active bookings', statuses: ACTIVE_STATUSES },
  { value: 'COMPLETED', label: 'Paid', statuses: ['COMPLETED'] },
  { value: 'PENDING', label: 'To pay at the centre', statuses: ['PENDING'] },
  { value: 'INITIATED', label: 'Unpaid holds', statuses: ['INITIATED'] },
  { value: 'BLOCKED', label: 'Blocked slots', statuses: ['BLOCKED'] },
  { value: 'CANCELLED', label: 'Cancelled', statuses: ['CANCELLED'] },
  { value: 'FAILED', label: 'Expired or failed', statuses: ['FAILED'] },
  { value: 'all', label: 'All statuses', statuses: [] },
] as const satisfies readonly { value: string; label: string; statuses: readonly PaymentStatus[] }[];

export function statusesFor(filter: string): readonly PaymentStatus[] {
  return STATUS_FILTERS.find((f) => f.value === filter)?.statuses ?? ACTIVE_STATUSES;
}

// ---- Today (issue 31, item 7) ----------------------------------------------------------------

/** The day's sessions in time order (earliest first, then by id), without blocks or cancelled ones. */
export function todaysSessions(list: readonly AdminBooking[]): AdminBooking[] {
  return list
    .filter((b) => !isBlockBooking(b) && !b.cancelled)
    .sort((a, b) => a.booking_time_slot_start.localeCompare(b.booking_time_slot_start) || a.id - b.id);
}

/** The colour of a payment's words: settled green, money still to come amber, a gap in the books red, the rest grey. */
export function paymentStateTone(state: PaymentState): 'green' | 'yellow' | 'red' | 'grey' {
  switch (state) {
    case 'PAID':
    case 'NO_CHARGE':
      return 'green';
    case 'PAY_AT_CENTRE':
    case 'AWAITING_PAYMENT':
    case 'HELD_FOR_WAITLIST':
    case 'REFUND_DUE':
    case 'REFUND_REVIEW':
      return 'yellow';
    case 'PAYMENT_NOT_RECORDED':
    case 'NOT_PAID':
      return 'red';
    default:
      return 'grey';
  }
}

/** '1 session', '3 sessions'. */
export function sessionCount(n: number): string {
  return n === 1 ? '1 session' : `${n} sessions`;
}

/** An instant's time of day at the centre: '3:20 PM'. */
export function formatInstantTime(iso: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '--';
  return formatTime12h(centreNow(instant).time);
}

/** An unpaid online hold: not cancelled, waiting for its payment. */
export function isUnpaidHold(b: Pick<AdminBooking, 'payment_status' | 'cancelled' | 'booking_type'>): boolean {
  return b.payment_status === 'INITIATED' && !b.cancelled && b.booking_type === 'ONLINE';
}

/** 'Unpaid hold · expires 3:20 PM' (or 'expired' once the hold is over), for an unpaid hold only. */
export function holdNote(
  b: Pick<AdminBooking, 'payment_status' | 'cancelled' | 'booking_type' | 'payment_hold_expires_at' | 'payment_state'>,
  now: Date = new Date(),
): string | null {
  // A waitlist client's hold says so in its payment's words (paymentStateWords), not as an unpaid booking.
  if (!isUnpaidHold(b) || b.payment_state === 'HELD_FOR_WAITLIST') return null;
  const until = b.payment_hold_expires_at;
  if (!until) return 'Unpaid hold';
  const over = new Date(until).getTime() <= now.getTime();
  return `Unpaid hold · ${over ? 'expired' : 'expires'} ${formatInstantTime(until)}`;
}

// ---- Audit log (issue 19, item 18) ---------------------------------------------------------

const AUDIT_ACTIONS: Record<string, string> = {
  'booking.cancel': 'Cancelled a booking',
  'booking.manual_create': 'Created a manual booking',
  'booking.client_reschedule': 'Moved their session (client, Manage booking)',
  'booking.client_cancel': 'Cancelled their booking (client, Manage booking)',
  'booking.payment_link_create': 'Created a payment link',
  'booking.payment_link_update': 'Updated the payment link',
  'booking.record_payment': 'Recorded a payment',
  'booking.record_refund': 'Recorded a refund handed back at the counter',
  'refund_request.approve': 'Approved a refund request',
  'refund_request.decline': 'Declined a refund request',
  'booking.payment_link_send': 'Sent the payment link',
  'slot.block': 'Blocked a slot',
  'slot.unblock': 'Unblocked a slot',
  'admin_user.create': 'Created an admin',
  'admin_user.activate': 'Activated an admin',
  'admin_user.deactivate': 'Deactivated an admin',
  'admin_user.password_change': 'Changed an admin’s password',
};

const AUDIT_FIELDS: Record<string, string> = {
  therapist_id: 'Therapist',
  booking_date: 'Date',
  booking_time_slot_start: 'Time',
  booking_type: 'Type',
  payment_status: 'Payment status',
  cancelled: 'Cancelled',
  amount_paise: 'Amount',
  payment_transaction_id: 'Transaction ID',
  payment_link_url: 'Payment link',
  razorpay_payment_link_id: 'Payment link ID',
  payment_link_sent_at: 'Payment link sent',
  payment_link_sent_to: 'Sent by',
  location_id: 'Centre',
  admin_confirmed: 'Confirmed by an admin',
  reschedule_count: 'Times moved by the client',
  username: 'Username',
  email: 'E-mail',
  is_superadmin: 'Super admin',
  is_admin: 'Admin',
  is_active: 'Active',
  'refund.choice': 'Refund',
  'refund.amount': 'Refunded',
  'refund.reason': 'Refund reason',
  'refund.at_counter': 'To hand back at the counter',
  'refund.requested_amount': 'Refund asked of the owner',
  'refund.method': 'Handed back by',
  refund_due: 'Refund due at the counter',
  'payment.method': 'Paid by',
  'payment.amount': 'Paid',
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTIONS[action] ?? action;
}

export function auditFieldLabel(field: string): string {
  return AUDIT_FIELDS[field] ?? field.replace(/[._]/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/** An audited value as the panel shows it: money in rupees, dates and times as elsewhere, yes/no. */
export function auditValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'amount_paise' && typeof value === 'number') return formatRupees(value / 100);
  if (/(^|\.)amount$/.test(field) && typeof value === 'number') return formatRupees(value);
  if (field === 'booking_date' && typeof value === 'string') return formatShortDate(value);
  if (field === 'booking_time_slot_start' && typeof value === 'string') return formatTime(value);
  if (field === 'booking_type' && typeof value === 'string') return sessionLabel(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function auditEntity(type: string, id: string): string {
  return `${type === 'booking' ? 'Booking' : type === 'admin_user' ? 'Admin' : type} ${id}`;
}

/** What the client did from Manage booking, in the panel's words beside the booking's status. */
export function clientChangeWords(b: { client_change: { kind: 'MOVED' | 'CANCELLED' } | null }): string | null {
  if (!b.client_change) return null;
  return b.client_change.kind === 'MOVED' ? 'Moved by the client' : 'Cancelled by the client';
}
