/** The details form's building blocks: the required mark, a field's error, and a labelled field. */
import type { ReactNode } from 'react';
import type { ClientInfo } from '../../../stores/booking.ts';
import type { FormErrors } from '../payload.ts';

export type Field = keyof ClientInfo;

/** What each group of fields gets from the form: the values, the errors, and how to change them. */
export type FieldsProps = {
  c: ClientInfo;
  err: (f: Field) => string | undefined;
  describe: (f: Field, hint?: string) => string | undefined;
  change: (changes: Partial<ClientInfo>) => void;
};

export function fieldsProps(c: ClientInfo, errors: FormErrors, change: FieldsProps['change']): FieldsProps {
  return {
    c,
    change,
    err: (f) => errors[f],
    describe: (f, hint) => [hint, errors[f] ? `err-${f}` : undefined].filter(Boolean).join(' ') || undefined,
  };
}

export function Req() {
  return (
    <span className="req" aria-hidden="true">
      *
    </span>
  );
}

export function ErrorText({ field, error }: { field: Field; error: string | undefined }) {
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

export function TextField({
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

/** A checkbox field (guardian consent, terms): its label may hold links. */
export function CheckboxField({
  p,
  field,
  id,
  label,
  hint,
}: {
  p: FieldsProps;
  field: 'guardianConsent' | 'termsAccepted';
  id: string;
  label: ReactNode;
  hint?: string;
}) {
  return (
    <>
      <div className="checkbox">
        <input
          id={id}
          data-field={field}
          type="checkbox"
          checked={p.c[field]}
          onChange={(e) => p.change({ [field]: e.target.checked })}
          aria-invalid={Boolean(p.err(field))}
          aria-describedby={p.describe(field, hint)}
          aria-required="true"
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <ErrorText field={field} error={p.err(field)} />
    </>
  );
}
