import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * A form's field: its label and its input (with the input's own attributes), and what follows it (a
 * hint). `onValue` is given the new text. For the admin panel's forms and the public ones alike.
 */
export function LabelledInput({
  id,
  label,
  onValue,
  fieldClass = 'field',
  children,
  ...input
}: { id: string; label: ReactNode; value: string; onValue: (value: string) => void; fieldClass?: string; children?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'children'
>) {
  return (
    <div className={fieldClass}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" {...input} onChange={(e) => onValue(e.target.value)} />
      {children}
    </div>
  );
}
