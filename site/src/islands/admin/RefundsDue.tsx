/**
 * "Refunds due at the counter" (every admin, on the dashboard, issue 31): money taken at the desk that
 * a cancellation decided to give back, until the desk hands it over. Each says the booking, the
 * client (phone to call), the session, the amount and who asked when, with "Record refund": how it was
 * handed back (cash, card, UPI, bank transfer) and how much (all that is due by default; a part
 * leaves the rest listed). The ledger gets the refund only then.
 */
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useId, useState, type FormEvent } from 'react';
import { DESK_PAYMENT_METHODS } from '../../../../shared/contract/admin.ts';
import { adminApi, errorMessage, type DeskPaymentMethod, type RefundDueItem } from '../../lib/admin-api.ts';
import { formatAmount, formatInstant, formatShortDate, formatTime, parseRefundAmount } from '../../lib/admin-format.ts';
import { AttentionPanel, useAttentionList } from './AttentionPanel.tsx';
import { METHOD_WORDS } from './LedgerTable.tsx';
import { AmountField, FormActions, Modal, type NoticeMessage } from './ui.tsx';

export const REFUNDS_DUE_TEXT = {
  title: 'Refunds due at the counter',
  empty: 'No refunds are due at the counter.',
  failed: 'Failed to load the refunds due at the counter.',
  intro: 'Money taken at the desk to hand back to the client. Record each refund when it has been handed over.',
  amountInvalid: (due: number) => `Enter an amount more than ₹0 and at most ${formatAmount(due)}, with at most two decimals.`,
} as const;

function askedBy(item: RefundDueItem): string {
  if (item.requested_by === 'CLIENT') return 'the client (Manage booking)';
  if (item.requested_by === 'ADMIN') return item.requested_by_username ?? 'an admin';
  return 'the system';
}

/** Moves on when something elsewhere on the page may have made a refund due (the owner approving a request). */
export const $refundsDueChanged = atom(0);
export const refundsDueChanged = () => $refundsDueChanged.set($refundsDueChanged.get() + 1);

/** Props: `version` moves on after the dashboard's own actions (a cancel may add a refund due). */
export default function RefundsDue(props: { version?: number }) {
  const changed = useStore($refundsDueChanged);
  const { data, loading, error, load } = useAttentionList(
    'refunds-due',
    { version: props.version ?? 0, changed },
    () => adminApi.refundsDue(),
    REFUNDS_DUE_TEXT.failed,
  );
  const [message, setMessage] = useState<NoticeMessage | null>(null);
  const [recording, setRecording] = useState<RefundDueItem | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const items = data?.items ?? [];

  async function record(item: RefundDueItem, method: DeskPaymentMethod, amount: number) {
    setRecording(null);
    setBusy(item.id);
    try {
      const res = await adminApi.recordRefund(item.booking_id, method, amount === item.amount ? undefined : amount);
      setMessage({ text: res.message, kind: 'success' });
    } catch (err) {
      setMessage({ text: `Failed to record the refund for booking ${item.booking_id}: ${errorMessage(err, 'Unknown error')}`, kind: 'error' });
    } finally {
      setBusy(null);
      // Recorded or refused (a 409: someone recorded it meanwhile), the list shows how things now stand.
      await load();
    }
  }

  return (
    <AttentionPanel
      title={REFUNDS_DUE_TEXT.title}
      openCount={items.length}
      message={message}
      onDismissMessage={() => setMessage(null)}
      loading={loading}
      loadingLabel="Loading refunds due at the counter..."
      error={error}
      onRetry={() => void load()}
      emptyText={REFUNDS_DUE_TEXT.empty}
      intro={items.length > 0 ? <p className="adm-attn__intro muted">{REFUNDS_DUE_TEXT.intro}</p> : null}
      after={recording ? <RecordRefundDialog item={recording} onCancel={() => setRecording(null)} onConfirm={(m, a) => void record(recording, m, a)} /> : null}
    >
      <ul className="adm-attn__list" aria-label={REFUNDS_DUE_TEXT.title}>
        {items.map((item) => (
          <li key={item.id} className="adm-attn__item">
            <div className="adm-attn__body">
              <p className="adm-attn__what">
                {formatAmount(item.amount)} to {item.client_full_name}
              </p>
              <p className="adm-attn__booking">
                Booking {item.booking_id} · {item.therapist_name} · {formatShortDate(item.booking_date)} at {formatTime(item.booking_time_slot_start)}
              </p>
              <p className="adm-attn__detail">
                Phone: <a href={`tel:${item.client_mobile}`}>{item.client_mobile}</a>
                {item.paid_by.length ? ` · Paid by ${item.paid_by.map((m) => METHOD_WORDS[m as DeskPaymentMethod] ?? m).join(', ')}` : ''}
              </p>
              <dl className="adm-attn__facts">
                <div>
                  <dt>Asked by</dt>
                  <dd>{askedBy(item)}</dd>
                </div>
                <div>
                  <dt>When</dt>
                  <dd>{formatInstant(item.requested_at)}</dd>
                </div>
                {item.reason ? (
                  <div>
                    <dt>Reason</dt>
                    <dd>{item.reason}</dd>
                  </div>
                ) : null}
              </dl>
            </div>
            <div className="adm-attn__actions">
              <button
                type="button"
                className="btn btn-sm btn-primary"
                disabled={busy !== null}
                aria-label={`Record refund for booking ${item.booking_id}`}
                onClick={() => setRecording(item)}
              >
                {busy === item.id ? 'Recording...' : 'Record refund'}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </AttentionPanel>
  );
}

/** Record refund: how the money was handed back and how much (all that is due unless changed). */
export function RecordRefundDialog(props: { item: RefundDueItem; onCancel: () => void; onConfirm: (method: DeskPaymentMethod, amount: number) => void }) {
  const { item, onCancel, onConfirm } = props;
  // The way it was paid is the usual way back.
  const paidBy = item.paid_by.find((m): m is DeskPaymentMethod => (DESK_PAYMENT_METHODS as readonly string[]).includes(m));
  const [method, setMethod] = useState<DeskPaymentMethod>(paidBy ?? 'CASH');
  const [amount, setAmount] = useState(String(item.amount));
  const [amountError, setAmountError] = useState<string | null>(null);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = parseRefundAmount(amount, item.amount);
    if (value === null) {
      setAmountError(REFUNDS_DUE_TEXT.amountInvalid(item.amount));
      document.getElementById(`${id}-amount`)?.focus();
      return;
    }
    onConfirm(method, value);
  }

  return (
    <Modal title={`Record refund for booking ${item.booking_id}`} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">
          {item.client_full_name}, {formatShortDate(item.booking_date)} at {formatTime(item.booking_time_slot_start)}. Due: {formatAmount(item.amount)}.
        </p>
        <div className="field">
          <label className="label" htmlFor={`${id}-method`}>
            Handed back by
          </label>
          <select id={`${id}-method`} className="select" value={method} onChange={(e) => setMethod(e.target.value as DeskPaymentMethod)}>
            {DESK_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {METHOD_WORDS[m]}
              </option>
            ))}
          </select>
        </div>
        <AmountField
          id={`${id}-amount`}
          label="Amount handed back (₹)"
          hint="All that is due, or a part of it (the rest stays listed)."
          error={amountError}
          value={amount}
          onValue={(v) => {
            setAmount(v);
            setAmountError(null);
          }}
        />
        <FormActions onCancel={onCancel} submitLabel="Record refund" />
      </form>
    </Modal>
  );
}
