/** The dashboard's questions before cancelling a booking or blocking/unblocking a slot. */
import { displayName } from '../../../../../shared/domain/therapist.ts';
import type { AdminBooking } from '../../../lib/admin-api.ts';
import {
  MESSAGES,
  canUnblock,
  formatAmount,
  formatInstantTime,
  formatShortDate,
  formatTime,
  holdNote,
  isUnpaidHold,
  sessionLabel,
} from '../../../lib/admin-format.ts';
import { ConfirmDialog } from '../ui.tsx';

/**
 * The spec's question before cancelling an unpaid booking or lifting a block, in the panel's own
 * dialog, with what will follow: what was (not) paid, the hold's end, the freed slot, the client's e-mail.
 */
export function CancelBookingDialog(props: { booking: AdminBooking; onCancel: () => void; onConfirm: () => void }) {
  const { booking: b, onCancel, onConfirm } = props;
  const when = `${formatShortDate(b.booking_date)} at ${formatTime(b.booking_time_slot_start)}`;
  const therapist = displayName(b.therapist_name ?? '') || '--';
  if (canUnblock(b)) {
    return (
      <ConfirmDialog
        title={MESSAGES.blockConfirm('unblock')}
        confirmLabel="Unblock slot"
        cancelLabel="Keep it blocked"
        tone="warn"
        onCancel={onCancel}
        onConfirm={onConfirm}
      >
        <p>
          {when} with {therapist} becomes free: clients can book it again.
        </p>
      </ConfirmDialog>
    );
  }
  const paid = Number(b.amount_paid ?? 0);
  const hold = holdNote(b);
  const money = isUnpaidHold(b)
    ? `This is an unpaid hold${b.payment_hold_expires_at ? ` (it ${hold?.includes('expired') ? 'expired' : 'expires'} at ${formatInstantTime(b.payment_hold_expires_at)})` : ''}: nothing has been paid, and its payment link stops taking payment.`
    : paid > 0
      ? `This booking was paid ${formatAmount(paid)}; it is not refunded.`
      : b.booking_type === 'OFFLINE' && b.payment_status === 'PENDING'
        ? `Nothing has been paid yet: the fee of ${formatAmount(b.amount)} was to be collected at the visit.`
        : `No payment has been recorded for this booking (price ${formatAmount(b.amount)}).`;
  return (
    <ConfirmDialog
      title={MESSAGES.cancelConfirm(b.id)}
      confirmLabel={`Cancel booking ${b.id}`}
      cancelLabel="Keep booking"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p className="adm-confirm__what">
        {b.client_full_name || '--'} with {therapist}, {when} ({sessionLabel(b.booking_type)}).
      </p>
      <ul className="adm-confirm__list">
        <li>{money}</li>
        <li>The slot becomes free for other clients.</li>
        <li>The client is told by e-mail that the session is cancelled.</li>
      </ul>
    </ConfirmDialog>
  );
}

/** The spec's question before blocking or unblocking a slot of the grid, with what it means for clients. */
export function SlotBlockDialog(props: {
  action: 'block' | 'unblock';
  time: string;
  date: string;
  therapist: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { action, time, date, therapist, onCancel, onConfirm } = props;
  return (
    <ConfirmDialog
      title={MESSAGES.blockConfirm(action)}
      confirmLabel={action === 'block' ? 'Block slot' : 'Unblock slot'}
      cancelLabel={action === 'block' ? "Don't block" : 'Keep it blocked'}
      tone={action === 'block' ? 'primary' : 'warn'}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        {action === 'block'
          ? `Clients can no longer book ${time} on ${date} with ${therapist}. You can unblock it later.`
          : `${time} on ${date} with ${therapist} becomes free: clients can book it again.`}
      </p>
    </ConfirmDialog>
  );
}
