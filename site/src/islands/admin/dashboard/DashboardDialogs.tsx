/** Whichever of the dashboard's dialogs an action opened: a refund choice, a yes/no, a payment, or a payment link. */
import type { AdminTherapist } from '../../../lib/admin-api.ts';
import { formatShortDate, formatTime } from '../../../lib/admin-format.ts';
import { CancelRefundDialog } from './CancelRefundDialog.tsx';
import { CancelBookingDialog, SlotBlockDialog } from './ConfirmDialogs.tsx';
import { PaymentLinkDialog } from './PaymentLinkDialog.tsx';
import { RecordPaymentDialog } from './RecordPaymentDialog.tsx';
import type { DashboardActions } from './useDashboardActions.ts';

export function DashboardDialogs(props: { actions: DashboardActions; therapist: AdminTherapist | null; superadmin: boolean }) {
  const { actions, therapist, superadmin } = props;
  const { refunding, pending, paying, linking } = actions;
  if (refunding) {
    return (
      <CancelRefundDialog
        booking={refunding.booking}
        superadmin={superadmin}
        onCancel={actions.closeDialog}
        onConfirm={(refund) => actions.cancelBooking(refunding.booking, refunding.at, refund)}
      />
    );
  }
  if (pending?.kind === 'cancel') {
    return (
      <CancelBookingDialog booking={pending.booking} onCancel={actions.closeDialog} onConfirm={() => actions.cancelBooking(pending.booking, pending.at)} />
    );
  }
  if (pending?.kind === 'slot' && therapist) {
    return (
      <SlotBlockDialog
        action={pending.action}
        time={formatTime(pending.slot.start_time)}
        date={formatShortDate(pending.date)}
        therapist={therapist.name}
        onCancel={actions.closeDialog}
        onConfirm={() => actions.toggleSlot(pending.slot, pending.action, pending.date)}
      />
    );
  }
  if (linking) {
    return <PaymentLinkDialog booking={linking.booking} onClose={actions.closeDialog} onChanged={actions.linkChanged} />;
  }
  if (paying) {
    return (
      <RecordPaymentDialog
        booking={paying.booking}
        onCancel={actions.closeDialog}
        onConfirm={(m, amount) => actions.recordPayment(paying.booking, paying.at, m, amount)}
      />
    );
  }
  return null;
}
