/** Cancelling a paid booking: what happens to the money is chosen here, not in a yes/no confirm. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AdminBooking, CancelRefund } from '../../../lib/admin-api.ts';
import { MESSAGES, REFUND_REASON_MAX, formatAmount, formatShortDate, formatTime, parseRefundAmount } from '../../../lib/admin-format.ts';
import { FieldError, FormActions, Modal } from '../ui.tsx';

type RefundChoice = CancelRefund['refund'];
type ErrorField = 'choice' | 'amount' | 'reason';

function confirmLabelFor(choice: RefundChoice | null, paid: number, partial: number | null): string {
  if (choice === 'FULL') return MESSAGES.cancelAndRefund(paid);
  if (choice === 'PARTIAL') return MESSAGES.cancelAndRefund(partial);
  if (choice === 'NONE') return MESSAGES.cancelWithoutRefund;
  return 'Confirm cancellation';
}

/**
 * Cancelling a paid booking: the spec's question, what was paid, and what to do with it: a full or
 * partial refund (super admins only; the server answers 403 to anyone else) or none, with the policy
 * reason. The Confirm button says what will happen to the money before it is pressed.
 */
export function CancelRefundDialog(props: { booking: AdminBooking; superadmin: boolean; onCancel: () => void; onConfirm: (refund: CancelRefund) => void }) {
  const { booking, superadmin, onCancel, onConfirm } = props;
  const paid = Number(booking.amount_paid ?? 0);
  const refunded = Number(booking.amount_refunded ?? 0);
  // No default for super admins: a refund, or none, is a decision about money and is made on purpose.
  // A plain admin has one choice, so it starts chosen.
  const [choice, setChoice] = useState<RefundChoice | null>(superadmin ? null : 'NONE');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>(MESSAGES.noRefundReasonDefault);
  const [error, setError] = useState<{ field: ErrorField; text: string } | null>(null);
  const id = useId();
  const partial = parseRefundAmount(amount, paid);

  function fail(field: ErrorField, text: string, focusId: string) {
    setError({ field, text });
    document.getElementById(focusId)?.focus();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (choice === null) return fail('choice', MESSAGES.refundChoiceRequired, `${id}-FULL`);
    if ((choice === 'FULL' || choice === 'PARTIAL') && !superadmin) return fail('choice', MESSAGES.refundSuperadminOnly, `${id}-NONE`);
    if (choice === 'FULL') return onConfirm({ refund: 'FULL' });
    if (choice === 'PARTIAL') {
      if (partial === null) return fail('amount', MESSAGES.refundAmountInvalid(paid), `${id}-amount`);
      return onConfirm({ refund: 'PARTIAL', amount: partial });
    }
    const why = reason.trim();
    if (!why) return fail('reason', MESSAGES.noRefundReasonRequired, `${id}-reason`);
    onConfirm({ refund: 'NONE', reason: why });
  }

  const errorOf = (field: ErrorField) => (error?.field === field ? error.text : null);
  const option = (value: RefundChoice, label: string) => (
    <RefundOption
      id={id}
      value={value}
      label={label}
      checked={choice === value}
      locked={value !== 'NONE' && !superadmin}
      onChoose={() => {
        setChoice(value);
        setError(null);
      }}
    />
  );
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };

  return (
    <Modal title={MESSAGES.cancelConfirm(booking.id)} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">
          {booking.client_full_name || '--'}, {formatShortDate(booking.booking_date)} at {formatTime(booking.booking_time_slot_start)}
        </p>
        <p className="adm-refund__paid">
          Amount paid: <strong>{formatAmount(paid)}</strong>
          {refunded > 0 ? <span className="muted"> (already refunded {formatAmount(refunded)})</span> : null}
        </p>
        {/* aria-invalid is not allowed on a group; the error is tied to it by description instead. */}
        <fieldset className="adm-choices" {...(error?.field === 'choice' ? { 'aria-describedby': `${id}-choice-error` } : {})}>
          <legend className="label">Refund</legend>
          {!superadmin ? (
            <p id={`${id}-locked`} className="hint">
              {MESSAGES.refundSuperadminOnly}
            </p>
          ) : null}
          {option('FULL', `Full refund (${formatAmount(paid)})`)}
          {option('PARTIAL', 'Partial refund')}
          {choice === 'PARTIAL' ? (
            <RefundDetail
              id={`${id}-amount`}
              label="Refund amount (₹)"
              value={amount}
              onChange={edit(setAmount)}
              error={errorOf('amount')}
              hint={`More than ₹0 and at most ${formatAmount(paid)}.`}
              inputMode="decimal"
            />
          ) : null}
          {option('NONE', 'No refund')}
          {choice === 'NONE' ? (
            <RefundDetail
              id={`${id}-reason`}
              label="Reason"
              value={reason}
              onChange={edit(setReason)}
              error={errorOf('reason')}
              maxLength={REFUND_REASON_MAX}
            />
          ) : null}
          <FieldError id={`${id}-choice-error`} error={errorOf('choice')} />
        </fieldset>
        <FormActions onCancel={onCancel} submitLabel={confirmLabelFor(choice, paid, partial)} tone="danger" />
      </form>
    </Modal>
  );
}

/** One refund choice; a plain admin's full and partial refunds are shown but cannot be chosen. */
function RefundOption(props: { id: string; value: RefundChoice; label: string; checked: boolean; locked: boolean; onChoose: () => void }) {
  const { id, value, label, checked, locked, onChoose } = props;
  return (
    <label className={`adm-choice${locked ? ' is-disabled' : ''}`} htmlFor={`${id}-${value}`}>
      <input
        id={`${id}-${value}`}
        type="radio"
        name={`${id}-refund`}
        value={value}
        checked={checked}
        disabled={locked}
        onChange={() => {
          // Disabled already; this also holds where a disabled radio still reports a click.
          if (!locked) onChoose();
        }}
        {...(locked ? { 'aria-describedby': `${id}-locked` } : {})}
      />
      <span>{label}</span>
    </label>
  );
}

/** What a choice needs beyond itself: the partial refund's amount, or the reason for no refund. */
function RefundDetail(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint?: string;
  inputMode?: 'decimal';
  maxLength?: number;
}) {
  const { id, label, value, onChange, error, hint, inputMode, maxLength } = props;
  const describedBy = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return (
    <div className="field adm-choice__more">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        type="text"
        {...(inputMode ? { inputMode, autoComplete: 'off' } : {})}
        {...(maxLength ? { maxLength } : {})}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...(error ? { 'aria-invalid': true as const } : {})}
        {...(describedBy ? { 'aria-describedby': describedBy } : {})}
      />
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
