/**
 * What the dashboard's actions do, each as one call that never throws: it asks the server and says,
 * in the spec's words, what happened (`ok` false when the server refused or could not be reached).
 */
import { ATTENDANCE_WORDS, type Attendance } from '../../../../../shared/domain/attendance.ts';
import {
  adminApi,
  catalogueApi,
  errorMessage,
  type AdminBooking,
  type AdminSlotStateEntry,
  type CancelRefund,
  type PaymentMethod,
  type SendPaymentLinkResponse,
} from '../../../lib/admin-api.ts';
import { MESSAGES, canUnblock, formatShortDate, formatTime } from '../../../lib/admin-format.ts';

export type Outcome = { text: string; ok: boolean };

const UNKNOWN = 'Unknown error';

export async function cancelBooking(b: AdminBooking, refund?: CancelRefund): Promise<Outcome> {
  const unblock = canUnblock(b);
  const time = formatTime(b.booking_time_slot_start);
  const date = formatShortDate(b.booking_date);
  try {
    const res = await adminApi.cancelBooking(b.id, refund);
    // The server's message says what became of the money (" ₹500.00 refunded.", " No refund.").
    return { ok: true, text: unblock ? MESSAGES.slotToggled(time, date, 'unblock') : res?.message || MESSAGES.cancelled(b.id) };
  } catch (err) {
    const msg = errorMessage(err, UNKNOWN);
    return { ok: false, text: unblock ? MESSAGES.slotToggleFailed('unblock', time, date, msg) : MESSAGES.cancelFailed(b.id, msg) };
  }
}

export async function setSlotBlock(therapistId: number, slot: AdminSlotStateEntry, action: 'block' | 'unblock', date: string): Promise<Outcome> {
  const time = formatTime(slot.start_time);
  const shownDate = formatShortDate(date);
  try {
    // The server does what was asked or refuses; the notice reports what it did.
    const res = await adminApi.setBlock(therapistId, slot.start_time, date, action);
    return { ok: true, text: MESSAGES.slotToggled(time, shownDate, res?.blocked ? 'block' : 'unblock') };
  } catch (err) {
    return { ok: false, text: MESSAGES.slotToggleFailed(action, time, shownDate, errorMessage(err, UNKNOWN)) };
  }
}

export async function recordPayment(b: AdminBooking, method: PaymentMethod, amount: number): Promise<Outcome> {
  try {
    const res = await adminApi.recordPayment(b.id, method, amount);
    return { ok: true, text: res?.message || MESSAGES.paymentRecorded(b.id) };
  } catch (err) {
    return { ok: false, text: errorMessage(err, UNKNOWN) };
  }
}

/** A new payment link for the booking (the shareable link; the one it had is closed), to copy or send. */
export async function createLink(b: AdminBooking): Promise<Outcome & { url?: string }> {
  try {
    const url = (await adminApi.createShareableLink(Number(b.amount), b.id, b.payment_transaction_id!))?.payment_link_url;
    if (!url) return { ok: false, text: MESSAGES.linkMissing };
    return { ok: true, text: MESSAGES.linkMade(b.id), url };
  } catch (err) {
    return { ok: false, text: MESSAGES.linkFailed(b.id, errorMessage(err, UNKNOWN)) };
  }
}

/** The booking's payment link sent to the client (made if needed), and how and when it went. */
export async function sendLink(b: AdminBooking): Promise<Outcome & { sent?: SendPaymentLinkResponse }> {
  try {
    const sent = await adminApi.sendPaymentLink(b.id);
    return { ok: true, text: MESSAGES.linkSent(b.id, sent.sent_to, sent.sent_at), sent };
  } catch (err) {
    return { ok: false, text: MESSAGES.linkSendFailed(b.id, errorMessage(err, UNKNOWN)) };
  }
}

/** The link copied for the receptionist to paste elsewhere. */
export async function copyLink(url: string): Promise<Outcome> {
  try {
    await copyText(url);
    return { ok: true, text: MESSAGES.linkCopied };
  } catch {
    return { ok: false, text: MESSAGES.linkCopyFailed };
  }
}

export async function markAttendance(b: AdminBooking, status: Attendance): Promise<Outcome> {
  try {
    await catalogueApi.markAttendance(b.id, status);
    return { ok: true, text: `Booking ${b.id} marked ${ATTENDANCE_WORDS[status].toLowerCase()} successfully.` };
  } catch (err) {
    return { ok: false, text: `Failed to mark booking ${b.id}: ${errorMessage(err, UNKNOWN)}` };
  }
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall back to a hidden textarea where the async clipboard is unavailable.
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.append(ta);
  ta.select();
  const ok = document.execCommand?.('copy');
  ta.remove();
  if (!ok) throw new Error('Could not copy to the clipboard.');
}
