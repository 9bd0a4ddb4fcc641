import { useStore } from '@nanostores/react';
import { useRef, useState, type FormEvent } from 'react';
import { $booking, updateClientInfo, type ClientInfo } from '../../stores/booking.ts';
import { NavButtons, StepHeading } from './common.tsx';
import { FeeNotes, NotesField, TermsField, WhatsappField } from './details/AgreementFields.tsx';
import { ContactFields, GuardianConsent } from './details/ContactFields.tsx';
import { fieldsProps, type Field } from './details/parts.tsx';
import { PlaceFields, SessionTypeField } from './details/SessionFields.tsx';
import { checkBooking, type FormErrors } from './payload.ts';

const ORDER: Field[] = ['fullName', 'email', 'mobile', 'age', 'guardianConsent', 'sessionType', 'state', 'city', 'notes', 'whatsappReminders', 'termsAccepted'];

export function DetailsStep({ onBack, onNext }: { onBack: () => void; onNext: () => void }) {
  const state = useStore($booking);
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

  const p = fieldsProps(state.clientInfo, errors, change);
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
        <ContactFields p={p} />
        <GuardianConsent p={p} />
        <SessionTypeField p={p} />
        <PlaceFields p={p} online={online} />
        <NotesField p={p} />
        <WhatsappField p={p} />
        <FeeNotes online={online} />
        <TermsField p={p} />
        <NavButtons onBack={onBack} continueType="submit" continueLabel="Continue to Payment" />
      </form>
    </section>
  );
}
