/** The dashboard's actions on bookings and slots: who is busy, what waits for a yes, and the message after. */
import { useState } from 'react';
import type { Attendance } from '../../../../../shared/domain/attendance.ts';
import type { AdminBooking, AdminSlotStateEntry, CancelRefund, PaymentMethod } from '../../../lib/admin-api.ts';
import { canUnblock, isPaidBooking } from '../../../lib/admin-format.ts';
import * as act from './booking-actions.ts';
import type { NoticeMessage } from '../ui.tsx';
import type { Message, NoticeAt, Pending } from './notice.ts';

type OnBooking = { booking: AdminBooking; at: NoticeAt } | null;

/**
 * `reload` redraws the grid and both lists after an action that may have changed them, refused or
 * not (a 409 "is paid" means the booking was paid since the list was loaded); `reloadLists` redraws
 * the lists only.
 */
export function useDashboardActions(therapistId: number | null, reload: () => void, reloadLists: () => void) {
  const [message, setMessage] = useState<Message | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [paying, setPaying] = useState<OnBooking>(null);
  // A paid booking being cancelled: its refund is chosen in a dialog, not a yes/no confirm.
  const [refunding, setRefunding] = useState<OnBooking>(null);
  // A booking's payment link panel: the link, Copy and Send.
  const [linking, setLinking] = useState<OnBooking>(null);

  /** `after`: 'reload' whatever the answer; 'lists' only when the action was done. */
  async function run(busyKey: string, at: NoticeAt, work: () => Promise<act.Outcome>, after: 'reload' | 'lists') {
    setMessage(null);
    setBusy(busyKey);
    try {
      const { text, ok } = await work();
      setMessage({ at, text, kind: ok ? 'success' : 'error' });
      if (ok && after === 'lists') reloadLists();
    } finally {
      setBusy(null);
      if (after === 'reload') reload();
    }
  }

  return {
    message,
    busy,
    pending,
    paying,
    refunding,
    linking,
    say: (message: NoticeMessage, at: NoticeAt = { kind: 'top' }) => setMessage({ ...message, at }),
    dismiss: () => setMessage(null),
    ask: setPending,
    startPayment: (booking: AdminBooking, at: NoticeAt) => setPaying({ booking, at }),
    closeDialog: () => {
      setPending(null);
      setPaying(null);
      setRefunding(null);
      setLinking(null);
    },
    /** Cancel or Unblock: a paid booking asks what happens to the money; anything else asks in a dialog. */
    startCancel(booking: AdminBooking, at: NoticeAt) {
      if (!canUnblock(booking) && isPaidBooking(booking)) setRefunding({ booking, at });
      else setPending({ kind: 'cancel', booking, at });
    },
    cancelBooking(b: AdminBooking, at: NoticeAt, refund?: CancelRefund) {
      setRefunding(null);
      setPending(null);
      void run(`cancel-${b.id}`, at, () => act.cancelBooking(b, refund), 'reload');
    },
    toggleSlot(slot: AdminSlotStateEntry, action: 'block' | 'unblock', date: string) {
      if (therapistId === null) return;
      setPending(null);
      const at: NoticeAt = { kind: 'slot', date, start: slot.start_time };
      void run(`slot-${slot.start_time}`, at, () => act.setSlotBlock(therapistId, slot, action, date), 'reload');
    },
    recordPayment(b: AdminBooking, at: NoticeAt, method: PaymentMethod, amount: number) {
      setPaying(null);
      void run(`pay-${b.id}`, at, () => act.recordPayment(b, method, amount), 'reload');
    },
    /** The booking's payment link panel (PaymentLinkDialog): the link, Copy and Send. */
    startLink: (booking: AdminBooking, at: NoticeAt) => setLinking({ booking, at }),
    /** The panel changed the booking (a link made, or sent): the lists show it ("Link sent …"). */
    linkChanged: reloadLists,
    /** Sessions of a series were cancelled or moved (SeriesSessions): said, and the grid and lists redrawn. */
    seriesChanged(text: string, at: NoticeAt) {
      setMessage({ text, kind: 'success', at });
      reload();
    },
    markAttendance(b: AdminBooking, status: Attendance, at: NoticeAt) {
      void run(`attend-${b.id}`, at, () => act.markAttendance(b, status), 'lists');
    },
  };
}

export type DashboardActions = ReturnType<typeof useDashboardActions>;
