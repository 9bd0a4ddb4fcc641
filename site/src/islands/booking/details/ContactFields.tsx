/** Name, e-mail, mobile and age; and, under 18, a parent's or guardian's consent. */
import { needsGuardianConsent } from '../../../../../shared/contract/booking.ts';
import { MOBILE_HINT, tidyMobileInput } from '../../../../../shared/domain/contact.ts';
import { CheckboxField, Req, TextField, type FieldsProps } from './parts.tsx';

export function ContactFields({ p }: { p: FieldsProps }) {
  const { c, err, describe, change } = p;
  const text = (field: 'fullName' | 'email', type: 'text' | 'email', autoComplete: string) => (
    <input
      id={`f-${field}`}
      data-field={field}
      className="input"
      type={type}
      autoComplete={autoComplete}
      value={c[field]}
      onChange={(e) => change({ [field]: e.target.value })}
      aria-invalid={Boolean(err(field))}
      aria-describedby={describe(field)}
      aria-required="true"
    />
  );
  return (
    <div className="form-grid">
      <TextField label="Full name" field="fullName" required error={err('fullName')}>
        {text('fullName', 'text', 'name')}
      </TextField>
      <TextField label="Email" field="email" required error={err('email')}>
        {text('email', 'email', 'email')}
      </TextField>
      <TextField label="Mobile number" field="mobile" required error={err('mobile')} hint={MOBILE_HINT}>
        <input
          id="f-mobile"
          data-field="mobile"
          className="input"
          type="tel"
          autoComplete="tel"
          value={c.mobile}
          onChange={(e) => change({ mobile: e.target.value })}
          // A pasted or typed +91 / 0 / spaces / dashes form shows as the 10 digits that are saved.
          onBlur={(e) => {
            const shown = tidyMobileInput(e.target.value);
            if (shown !== e.target.value) change({ mobile: shown });
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
  );
}

export function GuardianConsent({ p }: { p: FieldsProps }) {
  if (!needsGuardianConsent(p.c.age)) return null;
  return (
    <div className="field callout callout--warm guardian">
      <p id="hint-guardianConsent">Our terms ask that clients under 18 book with the consent of a parent or guardian.</p>
      <CheckboxField
        p={p}
        field="guardianConsent"
        id="f-guardianConsent"
        hint="hint-guardianConsent"
        label={
          <>
            A parent or guardian agrees to this booking. <Req />
          </>
        }
      />
    </div>
  );
}
