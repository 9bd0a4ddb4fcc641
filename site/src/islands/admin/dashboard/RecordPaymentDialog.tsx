/** Record payment: money taken at the desk (cash, card, UPI or a bank transfer). */
import { useId, useState, type FormEvent } from 'react';
import type { AdminBooking, PaymentMethod } from '../../../lib/admin-api.ts';
import { DESK_PAYMENT_METHODS } from '../../../../../shared/contract/admin.ts';
import { DESK_METHOD_WORDS, MESSAGES, formatShortDate, formatTime } from '../../../lib/admin-format.ts';
import { FieldError, FormActions, Modal } from '../ui.tsx';

/** Record payment for a booking paid at the desk: method and amount (the booking's by default). */
export function RecordPaymentDialog(props: { booking: AdminBooking; onCancel: () => void; onConfirm: (method: PaymentMethod, amount: number) => void }) {
  const { booking, onCancel, onConfirm } = props;
  const [method, setMethod] = useState<PaymentMethod>('CASH');
  const [amount, setAmount] = useState(booking.amount != null ? String(booking.amount) : '');
  const [amountError, setAmountError] = useState<string | null>(null);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = Number(amount);
    if (amount.trim() === '' || !Number.isFinite(value) || value <= 0) {
      setAmountError(MESSAGES.recordPaymentAmount);
      document.getElementById(`${id}-amount`)?.focus();
      return;
    }
    onConfirm(method, Math.round(value * 100) / 100);
  }

  return (
    <Modal title={`Record payment for booking ${booking.id}`} onClose={onCancel}>
      <form className="adm-form" onSubmit={submit} noValidate>
        <p className="muted">
          {booking.client_full_name || '--'}, {formatShortDate(booking.booking_date)} at {formatTime(booking.booking_time_slot_start)}
        </p>
        <div className="field">
          <label className="label" htmlFor={`${id}-method`}>
            Payment method
          </label>
          <select id={`${id}-method`} className="select" value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
            {DESK_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {DESK_METHOD_WORDS[m]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-amount`}>
            Amount (₹)
          </label>
          <input
            id={`${id}-amount`}
            className="input"
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setAmountError(null);
            }}
            {...(amountError ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-amount-error` } : {})}
          />
          <FieldError id={`${id}-amount-error`} error={amountError} />
        </div>
        <FormActions onCancel={onCancel} submitLabel="Confirm payment" />
      </form>
    </Modal>
  );
}
