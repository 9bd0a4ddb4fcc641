/**
 * The Manual Booking form's settlement (issue 31): how the session was paid. Online: "Paid now" (with
 * the method) or "Not paid yet: send a payment link". In person: "Pay at the centre" or "Paid now".
 * The amount stays the form's Amount, the therapist's price unless changed.
 */
import { DESK_PAYMENT_METHODS } from '../../../../../shared/contract/admin.ts';
import { DESK_METHOD_WORDS } from '../../../lib/admin-format.ts';
import { PackageSaleSelect } from '../PackageSaleSelect.tsx';
import { FieldError } from '../ui.tsx';
import type { Blanks } from './fields.tsx';
import type { Form, Settlement } from './form.ts';

const CHOICES: Record<'ONLINE' | 'OFFLINE', { value: Exclude<Settlement, ''>; label: string }[]> = {
  ONLINE: [
    { value: 'PAID_NOW', label: 'Paid now' },
    { value: 'SEND_LINK', label: 'Not paid yet: send a payment link' },
    { value: 'FROM_PACKAGE', label: 'From a package' },
  ],
  OFFLINE: [
    { value: 'PAY_AT_CENTRE', label: 'Pay at the centre' },
    { value: 'PAID_NOW', label: 'Paid now' },
    { value: 'FROM_PACKAGE', label: 'From a package' },
  ],
};

const HINTS: Record<Exclude<Settlement, ''>, string> = {
  PAID_NOW: 'Saved as Completed with the payment recorded; the client is e-mailed the confirmation.',
  SEND_LINK: 'Saved as awaiting payment: the client is e-mailed a payment link, and the booking is confirmed once it is paid.',
  PAY_AT_CENTRE: 'Saved as Pending; payment is collected at the visit.',
  FROM_PACKAGE:
    'One session of the package is used and no payment is taken; the booking is confirmed. Cancelled with the notice the terms ask for, the session goes back to the package.',
};

export function SettlementBlanks({ b }: { b: Blanks }) {
  const { form, errors, set, idp } = b;
  if (!form.bookingType) return null;
  const choiceError = errors.settlement ? `${idp}-settlement-error` : undefined;
  const methodError = errors.paymentMethod ? `${idp}-paymentMethod-error` : undefined;
  return (
    // aria-invalid is not allowed on a group; the error is tied to it (and to each choice) by description.
    <fieldset className="adm-choices adm-form__full" {...(choiceError ? { 'aria-describedby': choiceError } : {})}>
      <legend className="label">Payment</legend>
      {CHOICES[form.bookingType].map((c, i) => (
        <label key={c.value} className="adm-choice" htmlFor={i === 0 ? `${idp}-settlement` : `${idp}-settlement-${c.value}`}>
          <input
            // The first choice carries the group's id: a Create with nothing chosen moves focus here.
            id={i === 0 ? `${idp}-settlement` : `${idp}-settlement-${c.value}`}
            type="radio"
            name={`${idp}-settlement`}
            value={c.value}
            checked={form.settlement === c.value}
            onChange={() => set('settlement', c.value)}
            {...(choiceError ? { 'aria-describedby': choiceError } : {})}
          />
          <span>{c.label}</span>
        </label>
      ))}
      <FieldError id={`${idp}-settlement-error`} error={errors.settlement} />
      {form.settlement === 'PAID_NOW' ? (
        <div className="field">
          <label className="label" htmlFor={`${idp}-paymentMethod`}>
            Payment method
          </label>
          <select
            id={`${idp}-paymentMethod`}
            className="select"
            value={form.paymentMethod}
            onChange={(e) => set('paymentMethod', e.target.value as Form['paymentMethod'])}
            {...(methodError ? { 'aria-invalid': true as const, 'aria-describedby': methodError } : {})}
          >
            <option value="">Select a method</option>
            {DESK_PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>
                {DESK_METHOD_WORDS[m]}
              </option>
            ))}
          </select>
          <FieldError id={`${idp}-paymentMethod-error`} error={errors.paymentMethod} />
        </div>
      ) : null}
      {form.settlement === 'FROM_PACKAGE' ? <PackageSalePicker b={b} /> : null}
      {form.settlement ? <p className="hint">{HINTS[form.settlement]}</p> : null}
    </fieldset>
  );
}

/** The sale a session "From a package" is taken from (the typed client's sales first). */
function PackageSalePicker({ b }: { b: Blanks }) {
  const { form, errors, set, idp } = b;
  const error = errors.packageSaleId ? `${idp}-packageSaleId-error` : undefined;
  return (
    <div className="field">
      <label className="label" htmlFor={`${idp}-packageSaleId`}>
        Package
      </label>
      <PackageSaleSelect
        id={`${idp}-packageSaleId`}
        value={form.packageSaleId}
        onChange={(v) => set('packageSaleId', v)}
        clientEmail={form.clientEmail}
        errorId={error}
      />
      <FieldError id={`${idp}-packageSaleId-error`} error={errors.packageSaleId} />
    </div>
  );
}
