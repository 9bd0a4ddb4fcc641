/** The Manual Booking modal (spec section 5): an admin-confirmed booking for a client. */
import { useId, useState, type FormEvent } from 'react';
import { adminWindowDates } from '../../../../shared/domain/slots.ts';
import { centreNow } from '../../../../shared/domain/time.ts';
import { isOnlineType } from '../../../../shared/domain/therapist.ts';
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { MESSAGES, newTransactionId } from '../../lib/admin-format.ts';
import { useQuery } from '../../lib/query.ts';
import { ClientBlanks, SessionBlanks, type Blanks } from './manual-booking/fields.tsx';
import { SettlementBlanks } from './manual-booking/settlement.tsx';
import { EMPTY, filledBy, toPayload, validateManualBooking, type Errors, type Form } from './manual-booking/form.ts';
import { FormActions, Loading, Modal } from './ui.tsx';

const loadForm = () => Promise.all([adminApi.therapists(), adminApi.locations()]);

export default function ManualBooking(props: { onClose: () => void; onCreated: (message: string) => void }) {
  const { onClose, onCreated } = props;
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // A fresh transaction id for each form.
  const [transactionId] = useState(newTransactionId);
  const idp = useId();
  const lists = useQuery('manual-booking', {}, loadForm);
  const [therapists, locations] = lists.data ?? [[], []];
  const therapist = therapists.find((t) => String(t.id) === form.therapistId) ?? null;
  // The server's states: the same rule for a live booking as the database's, per therapist.
  const states = useQuery('manual-booking-slots', therapist ? { therapistId: therapist.id } : null, (q) => adminApi.slotStates(q.therapistId));

  // Only free slots are offered: past, booked and blocked ones are not (spec: manual booking slot window).
  const daySlots =
    states.data && therapist && states.data.therapist_id === therapist.id
      ? (states.data.days.find((d) => d.date === form.bookingDate)?.slots.filter((s) => s.state === 'free') ?? [])
      : [];
  // Only what the chosen therapist offers: their centre in person.
  const centres = therapist && !isOnlineType(therapist.type) && therapist.locations ? locations.filter((l) => l.id === therapist.locations) : locations;

  function set<K extends keyof Form>(key: K, value: Form[K]) {
    // Another date: the slot chosen for the old one is not offered on it. Another type: its own settlement.
    setForm((f) => ({
      ...f,
      [key]: value,
      ...(key === 'bookingDate' ? { slot: '' } : {}),
      ...(key === 'bookingType' && value !== f.bookingType ? { settlement: value === 'OFFLINE' ? 'PAY_AT_CENTRE' : '', paymentMethod: '' } : {}),
    }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  }

  /**
   * A therapist decides the type (theirs), the centre (theirs, in person) and the price: the form
   * fills them in, and a message about any of them from an earlier Create goes with the blank it was about.
   */
  function chooseTherapist(id: string) {
    const filled = filledBy(therapists.find((x) => String(x.id) === id));
    setForm((f) => ({ ...f, therapistId: id, slot: '', ...filled }));
    setErrors((e) => {
      const next = { ...e, therapistId: undefined, slot: undefined };
      for (const key of Object.keys(filled) as (keyof Form)[]) next[key] = undefined;
      return next;
    });
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = validateManualBooking(form);
    setErrors(found);
    setSubmitError(null);
    const firstKey = (Object.keys(found) as (keyof Form)[]).find((k) => found[k]);
    if (firstKey) return document.getElementById(`${idp}-${firstKey}`)?.focus();
    setSubmitting(true);
    try {
      const res = await adminApi.createManualBooking(toPayload(form, therapist, transactionId));
      if (res?.booking_id) onCreated(MESSAGES.manualCreated(res.booking_id));
      else setSubmitError(MESSAGES.manualFailed);
    } catch (err) {
      setSubmitError(errorMessage(err, MESSAGES.manualError));
    } finally {
      setSubmitting(false);
    }
  }

  const b: Blanks = { idp, form, errors, set };
  return (
    <Modal title="Manual Booking" onClose={onClose} wide>
      {lists.error ? (
        <p className="adm-notice adm-notice--error" role="alert">
          {MESSAGES.formDataFailed}
        </p>
      ) : !lists.data ? (
        <Loading label="Loading form..." />
      ) : (
        <form className="adm-form" onSubmit={onSubmit} noValidate>
          <div className="adm-form__grid">
            <SessionBlanks
              b={b}
              therapists={therapists}
              therapist={therapist}
              centres={centres}
              dates={adminWindowDates(centreNow().date)}
              daySlots={daySlots}
              slotsError={states.error ? MESSAGES.slotsFailed : null}
              onTherapist={chooseTherapist}
            />
            <ClientBlanks b={b} />
          </div>
          {form.bookingType ? <SettlementBlanks b={b} /> : <p className="hint">The booking is confirmed by you as an admin.</p>}
          {submitError ? (
            <p className="adm-notice adm-notice--error" role="alert">
              {submitError}
            </p>
          ) : null}
          <FormActions onCancel={onClose} submitLabel={submitting ? 'Creating...' : 'Create Booking'} submitting={submitting} />
        </form>
      )}
    </Modal>
  );
}
