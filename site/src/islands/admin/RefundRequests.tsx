/**
 * Refund requests on the owner's "Payments needing attention" (issue 31, item 5): a plain admin
 * cancelled a paid booking and asked the owner to refund it. Approve runs the refund (in full, or a
 * part), as a super admin's cancel would: through the payments provider, or due at the counter for
 * money taken there. Decline keeps the money, for the reason the client is told. Each decision once.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { adminApi, errorMessage, type ApproveRefundInput, type RefundReviewItem } from '../../lib/admin-api.ts';
import { REFUND_REASON_MAX, formatAmount, formatInstant, formatShortDate, formatTime, parseRefundAmount } from '../../lib/admin-format.ts';
import { refundsDueChanged } from './RefundsDue.tsx';
import { AmountField, FieldError, FormActions, Modal, NoteDialog, type NoticeMessage } from './ui.tsx';

export const REFUND_REQUEST_TEXT = {
  heading: 'Refund requests',
  decidedHeading: 'Refund requests decided in the last 7 days',
  choiceRequired: 'Choose a full or a partial refund.',
  amountInvalid: (held: number) => `Enter an amount more than ₹0 and at most ${formatAmount(held)}, with at most two decimals.`,
  declineReasonRequired: 'Please give the reason: the client is told it.',
} as const;

function bookingLine(item: RefundReviewItem): string {
  return `Booking ${item.booking_id} · ${item.client_full_name} · ${item.therapist_name} · ${formatShortDate(item.booking_date)} at ${formatTime(item.booking_time_slot_start)}`;
}

/** What the booking holds now, and how much of it was paid at the counter (handed back there if refunded). */
function heldText(item: RefundReviewItem): string {
  const counter = item.held_at_counter > 0 ? ` (${formatAmount(item.held_at_counter)} paid at the counter, handed back at the desk)` : '';
  return `${formatAmount(item.held)}${counter}`;
}

type Decision = { kind: 'approve' | 'decline'; item: RefundReviewItem };

/** The decisions' state: which dialog is open, which request is being saved, and the dialog itself. */
export function useRefundDecisions(say: (message: NoticeMessage) => void, reload: () => Promise<void> | void) {
  const [open, setOpen] = useState<Decision | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  async function decide(d: Decision, send: () => Promise<{ message: string }>) {
    setOpen(null);
    setBusy(d.item.id);
    try {
      say({ text: (await send()).message, kind: 'success' });
      // An approved refund of money taken at the counter is now due there.
      if (d.kind === 'approve') refundsDueChanged();
    } catch (err) {
      say({ text: `Failed to ${d.kind} refund request ${d.item.id}: ${errorMessage(err, 'Unknown error')}`, kind: 'error' });
    } finally {
      setBusy(null);
      // Decided or refused (a 409: decided meanwhile), the list shows how things now stand.
      await reload();
    }
  }

  const dialog: ReactNode = !open ? null : open.kind === 'approve' ? (
    <ApproveRefundDialog
      item={open.item}
      onCancel={() => setOpen(null)}
      onConfirm={(refund) => void decide(open, () => adminApi.approveRefundRequest(open.item.id, refund))}
    />
  ) : (
    <DeclineRefundDialog
      item={open.item}
      onCancel={() => setOpen(null)}
      onConfirm={(reason) => void decide(open, () => adminApi.declineRefundRequest(open.item.id, reason))}
    />
  );
  return { busy, dialog, start: (kind: Decision['kind'], item: RefundReviewItem) => setOpen({ kind, item }) };
}

export type RefundDecisions = ReturnType<typeof useRefundDecisions>;

function Facts(props: { item: RefundReviewItem }) {
  const { item } = props;
  return (
    <dl className="adm-attn__facts">
      <div>
        <dt>Asked by</dt>
        <dd>{item.requested_by_username ?? 'an admin'}</dd>
      </div>
      <div>
        <dt>When</dt>
        <dd>{formatInstant(item.requested_at)}</dd>
      </div>
      <div>
        <dt>Held now</dt>
        <dd>{heldText(item)}</dd>
      </div>
    </dl>
  );
}

export function RefundRequestList(props: { items: RefundReviewItem[]; busy: boolean; decisions: RefundDecisions }) {
  const { items, busy, decisions } = props;
  const headingId = useId();
  return (
    <>
      <h3 id={headingId} className="adm-subhead">
        {REFUND_REQUEST_TEXT.heading}
      </h3>
      <ul className="adm-attn__list" aria-labelledby={headingId}>
        {items.map((item) => (
          <li key={item.id} className="adm-attn__item">
            <div className="adm-attn__body">
              <p className="adm-attn__what">
                Refund of {formatAmount(item.amount)} asked for {item.client_full_name}
              </p>
              <p className="adm-attn__booking">{bookingLine(item)}</p>
              <p className="adm-attn__detail">Reason: {item.reason}</p>
              <Facts item={item} />
            </div>
            <div className="adm-attn__actions">
              <button
                type="button"
                className="btn btn-sm btn-primary"
                disabled={busy}
                aria-label={`Approve refund request ${item.id}`}
                onClick={() => decisions.start('approve', item)}
              >
                {decisions.busy === item.id ? 'Saving...' : 'Approve'}
              </button>
              <button
                type="button"
                className="btn btn-sm btn-secondary"
                disabled={busy}
                aria-label={`Decline refund request ${item.id}`}
                onClick={() => decisions.start('decline', item)}
              >
                Decline
              </button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

export function RefundRequestsDecided(props: { items: RefundReviewItem[] }) {
  if (props.items.length === 0) return null;
  return (
    <>
      <h3 className="adm-subhead">{REFUND_REQUEST_TEXT.decidedHeading}</h3>
      <ul className="adm-attn__list adm-attn__list--resolved" aria-label={REFUND_REQUEST_TEXT.decidedHeading}>
        {props.items.map((item) => (
          <li key={item.id} className="adm-attn__item">
            <div className="adm-attn__body">
              <p className="adm-attn__what">
                Refund of {formatAmount(item.amount)} asked for {item.client_full_name}
              </p>
              <p className="adm-attn__booking">{bookingLine(item)}</p>
              <p className="adm-attn__resolution">
                <span className={`adm-badge ${item.status === 'APPROVED' ? 'adm-badge--green' : 'adm-badge--red'}`}>
                  {item.status === 'APPROVED' ? 'Approved' : 'Declined'}
                </span>{' '}
                {item.resolution}
                <span className="muted">
                  {' '}
                  — {item.resolved_by ? `by ${item.resolved_by}` : ''}, {formatInstant(item.resolved_at)}
                </span>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Approve: a full refund of what the booking holds, or a part of it. */
export function ApproveRefundDialog(props: { item: RefundReviewItem; onCancel: () => void; onConfirm: (refund: ApproveRefundInput) => void }) {
  const { item, onCancel, onConfirm } = props;
  const [choice, setChoice] = useState<'FULL' | 'PARTIAL' | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<{ field: 'choice' | 'amount'; text: string } | null>(null);
  const id = useId();
  const partial = parseRefundAmount(amount, item.held);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (choice === null) {
      setError({ field: 'choice', text: REFUND_REQUEST_TEXT.choiceRequired });
      document.getElementById(`${id}-FULL`)?.focus();
      return;
    }
    if (choice === 'FULL') return onConfirm({ refund: 'FULL' });
    if (partial === null) {
      setError({ field: 'amount', text: REFUND_REQUEST_TEXT.amountInvalid(item.held) });
      document.getElementById(`${id}-amount`)?.focus();
      return;
    }
    onConfirm({ refund: 'PARTIAL', amount: partial });
  }

  const radio = (value: 'FULL' | 'PARTIAL', label: string) => (
    <label className="adm-choice" htmlFor={`${id}-${value}`}>
      <input
        id={`${id}-${value}`}
        type="radio"
        name={`${id}-refund`}
        value={value}
        checked={choice === value}
        onChange={() => {
          setChoice(value);
          setError(null);
        }}
      />
      <span>{label}</span>
    </label>
  );
  const submitLabel =
    choice === 'FULL'
      ? `Approve refund of ${formatAmount(item.held)}`
      : choice === 'PARTIAL' && partial !== null
        ? `Approve refund of ${formatAmount(partial)}`
        : 'Approve refund';

  return (
    <Modal title={`Approve refund request ${item.id}`} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">{bookingLine(item)}</p>
        <p>Reason given: {item.reason}</p>
        <p className="adm-refund__paid">
          Held now: <strong>{heldText(item)}</strong>
        </p>
        <fieldset className="adm-choices" {...(error?.field === 'choice' ? { 'aria-describedby': `${id}-choice-error` } : {})}>
          <legend className="label">Refund</legend>
          {radio('FULL', `Full refund (${formatAmount(item.held)})`)}
          {radio('PARTIAL', 'Partial refund')}
          {choice === 'PARTIAL' ? (
            <AmountField
              id={`${id}-amount`}
              fieldClass="field adm-choice__more"
              label="Refund amount (₹)"
              hint={`More than ₹0 and at most ${formatAmount(item.held)}.`}
              error={error?.field === 'amount' ? error.text : null}
              value={amount}
              onValue={(v) => {
                setAmount(v);
                setError(null);
              }}
            />
          ) : null}
          <FieldError id={`${id}-choice-error`} error={error?.field === 'choice' ? error.text : null} />
        </fieldset>
        <FormActions onCancel={onCancel} submitLabel={submitLabel} />
      </form>
    </Modal>
  );
}

/** Decline: the reason, which the client is told by e-mail. */
export function DeclineRefundDialog(props: { item: RefundReviewItem; onCancel: () => void; onConfirm: (reason: string) => void }) {
  const { item } = props;
  return (
    <NoteDialog
      title={`Decline refund request ${item.id}`}
      name="reason"
      label="Why is the refund declined?"
      hint={`The client is told this reason by e-mail (at most ${REFUND_REASON_MAX} characters).`}
      required={REFUND_REQUEST_TEXT.declineReasonRequired}
      max={REFUND_REASON_MAX}
      rows={3}
      submitLabel="Decline refund"
      tone="danger"
      onCancel={props.onCancel}
      onConfirm={props.onConfirm}
    >
      <p className="muted">{bookingLine(item)}</p>
      <p>Reason given: {item.reason}</p>
    </NoteDialog>
  );
}
