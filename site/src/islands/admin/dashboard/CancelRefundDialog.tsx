/** Cancelling a paid booking: what happens to the money is chosen here, not in a yes/no confirm. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { adminApi, errorMessage, type AdminBooking, type CancelRefund, type RefundOptionsResponse } from '../../../lib/admin-api.ts';
import { MESSAGES, REFUND_REASON_MAX, formatAmount, formatShortDate, formatTime, parseRefundAmount } from '../../../lib/admin-format.ts';
import { useQuery } from '../../../lib/query.ts';
import { FieldError, FormActions, Loading, Modal } from '../ui.tsx';

type RefundChoice = CancelRefund['refund'];
type ErrorField = 'choice' | 'amount' | 'reason' | 'request';

function confirmLabelFor(id: number, choice: RefundChoice | null, paid: number, partial: number | null): string {
  if (choice === 'FULL') return MESSAGES.cancelAndRefund(id, paid);
  if (choice === 'PARTIAL') return MESSAGES.cancelAndRefund(id, partial);
  if (choice === 'NONE') return MESSAGES.cancelWithoutRefund(id);
  if (choice === 'REQUEST') return MESSAGES.cancelAndAskOwner(id);
  return MESSAGES.cancelBooking(id);
}

/**
 * Cancelling a paid booking: the spec's question, what was paid, and what to do with it. The server
 * says what this admin may choose (GET refund-options, the rule the cancel itself checks): a super
 * admin refunds in full or in part, or not at all for the policy reason; a plain admin asks the owner
 * to refund (with the reason), and may keep the money only for a session inside the notice window.
 * Money taken at the counter goes back at the desk, and the dialog says so. The buttons read "Keep
 * booking" and "Cancel booking …", the latter saying what will happen to the money.
 */
export function CancelRefundDialog(props: { booking: AdminBooking; superadmin: boolean; onCancel: () => void; onConfirm: (refund: CancelRefund) => void }) {
  const { booking, onCancel } = props;
  const options = useQuery('refund-options', { id: booking.id }, ({ id }) => adminApi.refundOptions(id));
  return (
    <Modal title={MESSAGES.cancelConfirm(booking.id)} onClose={onCancel}>
      {options.data ? (
        <RefundForm {...props} options={options.data} />
      ) : options.error ? (
        <div role="alert">
          <p className="error-text">{errorMessage(options.error, MESSAGES.refundOptionsFailed)}</p>
          <div className="btn-row adm-form__actions">
            <button type="button" className="btn btn-secondary" onClick={onCancel}>
              Keep booking
            </button>
            <button type="button" className="btn btn-primary" onClick={options.refresh}>
              Retry
            </button>
          </div>
        </div>
      ) : (
        <Loading label="Loading the refund choices..." />
      )}
    </Modal>
  );
}

function RefundForm(props: {
  booking: AdminBooking;
  superadmin: boolean;
  options: RefundOptionsResponse;
  onCancel: () => void;
  onConfirm: (refund: CancelRefund) => void;
}) {
  const { booking, superadmin, options, onCancel, onConfirm } = props;
  const paid = Number(booking.amount_paid ?? 0);
  const refunded = Number(booking.amount_refunded ?? 0);
  const held = options.held;
  // Super admins decide directly (Full / Partial / No refund); a plain admin passes a refund to the owner.
  const offered: RefundChoice[] = superadmin ? ['FULL', 'PARTIAL', 'NONE'] : ['REQUEST', 'NONE'];
  const allowed = (c: RefundChoice) => options.choices.includes(c);
  // No default where there is a choice: a refund, or none, is a decision about money made on purpose.
  const only = offered.filter(allowed);
  const [choice, setChoice] = useState<RefundChoice | null>(only.length === 1 ? only[0]! : null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>(MESSAGES.noRefundReasonDefault);
  const [why, setWhy] = useState('');
  const [error, setError] = useState<{ field: ErrorField; text: string } | null>(null);
  const id = useId();
  const partial = parseRefundAmount(amount, held);

  function fail(field: ErrorField, text: string, focusId: string) {
    setError({ field, text });
    document.getElementById(focusId)?.focus();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (choice === null)
      return fail('choice', superadmin ? MESSAGES.refundChoiceRequired : MESSAGES.refundRequestChoiceRequired, `${id}-${offered.find(allowed)}`);
    if (!allowed(choice))
      return fail('choice', choice === 'NONE' ? MESSAGES.noRefundOutsideNotice(options.notice_hours) : MESSAGES.refundSuperadminOnly, `${id}-${choice}`);
    if (choice === 'FULL') return onConfirm({ refund: 'FULL' });
    if (choice === 'PARTIAL') {
      if (partial === null) return fail('amount', MESSAGES.refundAmountInvalid(held), `${id}-amount`);
      return onConfirm({ refund: 'PARTIAL', amount: partial });
    }
    if (choice === 'REQUEST') {
      const text = why.trim();
      if (!text) return fail('request', MESSAGES.refundRequestReasonRequired, `${id}-request`);
      return onConfirm({ refund: 'REQUEST', reason: text });
    }
    const text = reason.trim();
    if (!text) return fail('reason', MESSAGES.noRefundReasonRequired, `${id}-reason`);
    onConfirm({ refund: 'NONE', reason: text });
  }

  const errorOf = (field: ErrorField) => (error?.field === field ? error.text : null);
  const lockedNote = !superadmin ? (allowed('NONE') ? MESSAGES.noRefundInsideNotice : MESSAGES.noRefundOutsideNotice(options.notice_hours)) : null;
  const option = (value: RefundChoice, label: string) => (
    <RefundOption
      id={id}
      value={value}
      label={label}
      checked={choice === value}
      locked={!allowed(value)}
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
  const labels: Record<RefundChoice, string> = {
    FULL: `Full refund (${formatAmount(held)})`,
    PARTIAL: 'Partial refund',
    NONE: 'No refund',
    REQUEST: 'Ask the owner to refund',
  };

  return (
    <form className="adm-form" onSubmit={submit} noValidate>
      <p className="muted">
        {booking.client_full_name || '--'}, {formatShortDate(booking.booking_date)} at {formatTime(booking.booking_time_slot_start)}
      </p>
      <p className="adm-refund__paid">
        Amount paid: <strong>{formatAmount(paid)}</strong>
        {refunded > 0 ? <span className="muted"> (already refunded {formatAmount(refunded)})</span> : null}
      </p>
      {options.held_at_counter > 0 ? <p className="hint">{MESSAGES.refundAtCounterNote(options.held_at_counter)}</p> : null}
      {/* aria-invalid is not allowed on a group; the error is tied to it by description instead. */}
      <fieldset className="adm-choices" {...(error?.field === 'choice' ? { 'aria-describedby': `${id}-choice-error` } : {})}>
        <legend className="label">Refund</legend>
        {lockedNote ? (
          <p id={`${id}-locked`} className="hint">
            {lockedNote}
          </p>
        ) : null}
        {offered.map((value) =>
          // A plain admin is shown "No refund" only where it may be chosen (inside the notice window).
          !superadmin && value === 'NONE' && !allowed('NONE') ? null : (
            <div key={value}>
              {option(value, labels[value])}
              {choice === value && value === 'PARTIAL' ? (
                <RefundDetail
                  id={`${id}-amount`}
                  label="Refund amount (₹)"
                  value={amount}
                  onChange={edit(setAmount)}
                  error={errorOf('amount')}
                  hint={`More than ₹0 and at most ${formatAmount(held)}.`}
                  inputMode="decimal"
                />
              ) : null}
              {choice === value && value === 'REQUEST' ? (
                <RefundDetail
                  id={`${id}-request`}
                  label="Why should the client be refunded?"
                  value={why}
                  onChange={edit(setWhy)}
                  error={errorOf('request')}
                  hint={MESSAGES.refundRequestHint}
                  maxLength={REFUND_REASON_MAX}
                />
              ) : null}
              {choice === value && value === 'NONE' ? (
                <RefundDetail
                  id={`${id}-reason`}
                  label="Reason"
                  value={reason}
                  onChange={edit(setReason)}
                  error={errorOf('reason')}
                  maxLength={REFUND_REASON_MAX}
                />
              ) : null}
            </div>
          ),
        )}
        <FieldError id={`${id}-choice-error`} error={errorOf('choice')} />
      </fieldset>
      <FormActions onCancel={onCancel} cancelLabel="Keep booking" submitLabel={confirmLabelFor(booking.id, choice, held, partial)} tone="danger" />
    </form>
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
