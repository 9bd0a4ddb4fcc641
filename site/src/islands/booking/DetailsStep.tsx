import { useStore } from '@nanostores/react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { needsGuardianConsent, WHATSAPP_CONSENT } from '../../../../shared/contract/booking.ts';
import { MOBILE_INPUT_MAX, normaliseIndianMobile } from '../../../../shared/domain/contact.ts';
import { citiesOf, STATE_NAMES } from '../../../../shared/domain/india.ts';
import { $booking, updateClientInfo, type ClientInfo } from '../../stores/booking.ts';
import { NavButtons, StepHeading } from './common.tsx';
import { checkBooking, type FormErrors } from './payload.ts';

type Field = keyof ClientInfo;
const ORDER: Field[] = ['fullName', 'email', 'mobile', 'age', 'guardianConsent', 'sessionType', 'state', 'city', 'notes', 'whatsappReminders', 'termsAccepted'];

export function DetailsStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const state = useStore($booking);
  const c = state.clientInfo;
  const online = state.bookingType !== 'offline';
  const [errors, setErrors] = useState<FormErrors>({});
  const [summary, setSummary] = useState('');
  const formRef = useRef<HTMLFormElement>(null);

  /** Editing a field clears its own error (spec section 5). */
  const change = (changes: Partial<ClientInfo>) => {
    updateClientInfo(changes);
    const keys = Object.keys(changes) as Field[];
    if (keys.some((k) => errors[k])) {
      const next = { ...errors };
      for (const k of keys) delete next[k];
      setErrors(next);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = checkBooking($booking.get());
    const form = r.ok ? {} : r.form;
    const fields = ORDER.filter((f) => form[f]);
    setErrors(form);
    if (fields.length > 0) {
      setSummary(`Please correct ${fields.length === 1 ? 'the highlighted field' : `the ${fields.length} highlighted fields`}.`);
      const first = fields[0]!;
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setSummary('');
    onNext();
  };

  const err = (f: Field) => errors[f];
  const describe = (f: Field, hint?: string) => [hint, errors[f] ? `err-${f}` : undefined].filter(Boolean).join(' ') || undefined;
  const cities = c.state ? citiesOf(c.state) : [];

  return (
    <section className="wizard-step" aria-labelledby="step-details-title">
      <StepHeading id="step-details-title">Your Information</StepHeading>
      <p className="muted">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">with an asterisk</span> are required.
      </p>
      <form ref={formRef} className="details-form card" noValidate onSubmit={submit}>
        <div role="alert" className={summary ? 'notice notice--error' : 'visually-hidden'}>
          {summary}
        </div>
        <div className="form-grid">
          <TextField label="Full name" field="fullName" required error={err('fullName')} describedBy={describe('fullName')}>
            <input
              id="f-fullName"
              data-field="fullName"
              className="input"
              type="text"
              autoComplete="name"
              value={c.fullName}
              onChange={(e) => change({ fullName: e.target.value })}
              aria-invalid={Boolean(err('fullName'))}
              aria-describedby={describe('fullName')}
              aria-required="true"
            />
          </TextField>
          <TextField label="Email" field="email" required error={err('email')}>
            <input
              id="f-email"
              data-field="email"
              className="input"
              type="email"
              autoComplete="email"
              value={c.email}
              onChange={(e) => change({ email: e.target.value })}
              aria-invalid={Boolean(err('email'))}
              aria-describedby={describe('email')}
              aria-required="true"
            />
          </TextField>
          <TextField label="Mobile number" field="mobile" required error={err('mobile')} hint="10-digit mobile number; +91 or a leading 0 is fine">
            <input
              id="f-mobile"
              data-field="mobile"
              className="input"
              type="tel"
              autoComplete="tel"
              maxLength={MOBILE_INPUT_MAX}
              value={c.mobile}
              onChange={(e) => change({ mobile: e.target.value })}
              // A pasted or typed +91 / 0 / spaces / dashes form shows as the 10 digits that are saved.
              onBlur={(e) => {
                const digits = normaliseIndianMobile(e.target.value);
                if (/^\d{10}$/.test(digits) && digits !== e.target.value) change({ mobile: digits });
              }}
              aria-invalid={Boolean(err('mobile'))}
              aria-describedby={describe('mobile', 'hint-mobile')}
              aria-required="true"
            />
          </TextField>
          <TextField label="Age" field="age" required error={err('age')}>
            <input
              id="f-age"
              data-field="age"
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
              step={1}
              value={c.age ?? ''}
              onChange={(e) => change({ age: e.target.value === '' ? null : Number(e.target.value) })}
              aria-invalid={Boolean(err('age'))}
              aria-describedby={describe('age')}
              aria-required="true"
            />
          </TextField>
        </div>

        {needsGuardianConsent(c.age) && (
          <div className="field callout callout--warm guardian">
            <p id="hint-guardianConsent">
              Our terms ask that clients under 18 book with the consent of a parent or guardian.
            </p>
            <div className="checkbox">
              <input
                id="f-guardianConsent"
                data-field="guardianConsent"
                type="checkbox"
                checked={c.guardianConsent}
                onChange={(e) => change({ guardianConsent: e.target.checked })}
                aria-invalid={Boolean(err('guardianConsent'))}
                aria-describedby={describe('guardianConsent', 'hint-guardianConsent')}
                aria-required="true"
              />
              <label htmlFor="f-guardianConsent">
                A parent or guardian agrees to this booking. <Req />
              </label>
            </div>
            <ErrorText field="guardianConsent" error={err('guardianConsent')} />
          </div>
        )}

        <fieldset className="field field--full" aria-describedby={describe('sessionType')}>
          <legend className="label">
            Session type <Req />
          </legend>
          <div className="segmented">
            {(['individual', 'couple'] as const).map((v, i) => (
              <label key={v} className={`segment${c.sessionType === v ? ' is-selected' : ''}`}>
                <input
                  type="radio"
                  name="session-type"
                  value={v}
                  data-field={i === 0 ? 'sessionType' : undefined}
                  checked={c.sessionType === v}
                  onChange={() => change({ sessionType: v })}
                  aria-invalid={Boolean(err('sessionType'))}
                />
                <span>{v === 'individual' ? 'Individual' : 'Couple'}</span>
              </label>
            ))}
          </div>
          <ErrorText field="sessionType" error={err('sessionType')} />
        </fieldset>

        <div className="form-grid">
          <TextField label="State" field="state" required={online} optional={!online} error={err('state')}>
            <select
              id="f-state"
              data-field="state"
              className="select"
              value={c.state}
              onChange={(e) => change({ state: e.target.value, city: '' })}
              aria-invalid={Boolean(err('state'))}
              aria-describedby={describe('state')}
              aria-required={online}
            >
              <option value="">Select a state</option>
              {STATE_NAMES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </TextField>
          <TextField label="City" field="city" required={online} optional={!online} error={err('city')} hint={c.state ? undefined : 'Choose a state first'}>
            <select
              id="f-city"
              data-field="city"
              className="select"
              value={c.city}
              disabled={!c.state}
              onChange={(e) => change({ city: e.target.value })}
              aria-invalid={Boolean(err('city'))}
              aria-describedby={describe('city', c.state ? undefined : 'hint-city')}
              aria-required={online}
            >
              <option value="">{c.state ? 'Select a city' : 'Select a state first'}</option>
              {cities.map((city) => (
                <option key={city} value={city}>
                  {city}
                </option>
              ))}
            </select>
          </TextField>
        </div>

        <TextField label="Notes" field="notes" optional error={err('notes')} hint="Anything you would like your therapist to know before the session.">
          <textarea
            id="f-notes"
            data-field="notes"
            className="textarea"
            rows={4}
            maxLength={2000}
            value={c.notes}
            onChange={(e) => change({ notes: e.target.value })}
            aria-invalid={Boolean(err('notes'))}
            aria-describedby={describe('notes', 'hint-notes')}
          />
        </TextField>

        <div className="field">
          <div className="checkbox">
            <input
              id="f-whatsappReminders"
              data-field="whatsappReminders"
              type="checkbox"
              checked={c.whatsappReminders}
              onChange={(e) => change({ whatsappReminders: e.target.checked })}
              aria-describedby="hint-whatsappReminders"
            />
            {/* The wording sits under the label, in line with it: what ticking the box agrees to. */}
            <div>
              <label htmlFor="f-whatsappReminders">
                {WHATSAPP_CONSENT.label} <span className="optional">(optional)</span>
              </label>
              <p id="hint-whatsappReminders" className="hint">
                {WHATSAPP_CONSENT.detail}
              </p>
            </div>
          </div>
        </div>

        <div className="notes-box">
          {!online && <p className="callout callout--warm">Please arrive 10 minutes early for your in-person session.</p>}
          <ul className="fee-notes">
            <li>Each session lasts 60 minutes. Additional charges apply for every 15 minutes beyond the scheduled 60 minutes.</li>
            {!online && <li>The session fee is collected at the centre on the day of your visit.</li>}
            <li>To reschedule or cancel, please contact us at least 24 hours in advance; otherwise 100% of the fee is charged.</li>
          </ul>
        </div>

        <div className="field">
          <div className="checkbox">
            <input
              id="f-terms"
              data-field="termsAccepted"
              type="checkbox"
              checked={c.termsAccepted}
              onChange={(e) => change({ termsAccepted: e.target.checked })}
              aria-invalid={Boolean(err('termsAccepted'))}
              aria-describedby={describe('termsAccepted')}
              aria-required="true"
            />
            <label htmlFor="f-terms">
              I accept the{' '}
              <a href="/terms-and-conditions" target="_blank" rel="noopener">
                terms and conditions<span className="visually-hidden"> (opens in a new tab)</span>
              </a>{' '}
              and the{' '}
              <a href="/privacy-policy" target="_blank" rel="noopener">
                privacy policy<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
              . <Req />
            </label>
          </div>
          <ErrorText field="termsAccepted" error={err('termsAccepted')} />
        </div>

        <NavButtons onBack={onBack} continueType="submit" continueLabel="Continue to Payment" />
      </form>
    </section>
  );
}

function Req() {
  return (
    <span className="req" aria-hidden="true">
      *
    </span>
  );
}

function ErrorText({ field, error }: { field: Field; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`err-${field}`} className="error-text">
      <span aria-hidden="true" className="error-icon">
        ⚠
      </span>
      <span>{error}</span>
    </p>
  );
}

function TextField({
  label,
  field,
  required = false,
  optional = false,
  error,
  hint,
  children,
}: {
  label: string;
  field: Field;
  required?: boolean;
  optional?: boolean;
  error: string | undefined;
  hint?: string | undefined;
  describedBy?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="label" htmlFor={`f-${field}`}>
        {label} {required && <Req />}
        {optional && <span className="optional">(optional)</span>}
      </label>
      {children}
      {hint && (
        <p id={`hint-${field}`} className="hint">
          {hint}
        </p>
      )}
      <ErrorText field={field} error={error} />
    </div>
  );
}
