/** The Manual Booking modal (spec section 5): an admin-confirmed booking for a client. */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { manualBookingSchema } from '../../../../shared/contract/admin.ts';
import { fieldErrorsOf } from '../../../../shared/contract/booking.ts';
import { adminWindowDates } from '../../../../shared/domain/slots.ts';
import { centreNow } from '../../../../shared/domain/time.ts';
import { isOnlineType } from '../../../../shared/domain/therapist.ts';
import {
  adminApi,
  errorMessage,
  type AdminSlotStatesResponse,
  type AdminTherapist,
  type Location,
  type ManualBookingPayload,
} from '../../lib/admin-api.ts';
import { MESSAGES, formatLongDate, formatTime, newTransactionId } from '../../lib/admin-format.ts';
import { Loading, Modal } from './ui.tsx';

type Form = {
  therapistId: string;
  bookingDate: string;
  slot: string;
  clientName: string;
  clientEmail: string;
  clientMobile: string;
  bookingType: '' | 'ONLINE' | 'OFFLINE';
  locationId: string;
  amount: string;
  notes: string;
};

type Errors = Partial<Record<keyof Form, string>>;

const EMPTY: Form = {
  therapistId: '',
  bookingDate: '',
  slot: '',
  clientName: '',
  clientEmail: '',
  clientMobile: '',
  bookingType: '',
  locationId: '',
  amount: '',
  notes: '',
};

/** The request the form sends: what manualBookingSchema reads, on the server as here. */
function payloadOf(f: Form, transactionId: string, therapistEmail: string | undefined): ManualBookingPayload {
  const offline = f.bookingType === 'OFFLINE';
  const payload: ManualBookingPayload = {
    therapist_id: Number(f.therapistId),
    booking_date: f.bookingDate,
    booking_time_slot_start: f.slot,
    client_full_name: f.clientName.trim(),
    client_email: f.clientEmail.trim(),
    client_mobile: f.clientMobile.trim(),
    client_note: f.notes.trim(),
    booking_type: (f.bookingType || undefined) as ManualBookingPayload['booking_type'],
    location_id: offline ? Number(f.locationId) : 0,
    // Blank or not a number reads as 0, which the schema refuses as it refuses a blank: a number that is
    // not one would end the parse before the form-wide rule (an offline booking's centre) is checked.
    amount: Number.isFinite(Number(f.amount)) ? Math.round(Number(f.amount) * 100) / 100 : 0,
    payment_status: offline ? 'PENDING' : 'COMPLETED',
    admin_confirmed: true,
    payment_transaction_id: transactionId,
  };
  if (therapistEmail) payload.therapist_email = therapistEmail;
  return payload;
}

/** The request's fields as the form names them, for the schema's messages. */
const FORM_FIELD: Partial<Record<string, keyof Form>> = {
  therapist_id: 'therapistId',
  booking_date: 'bookingDate',
  booking_time_slot_start: 'slot',
  client_full_name: 'clientName',
  client_email: 'clientEmail',
  client_mobile: 'clientMobile',
  booking_type: 'bookingType',
  location_id: 'locationId',
  amount: 'amount',
  client_note: 'notes',
};

/** The form checked with the server's own schema (manualBookingSchema), its messages under the form's fields. */
export function validateManualBooking(f: Form): Errors {
  const parsed = manualBookingSchema.safeParse(payloadOf(f, '', undefined));
  if (parsed.success) return {};
  const e: Errors = {};
  for (const [field, message] of Object.entries(fieldErrorsOf(parsed.error))) {
    const key = FORM_FIELD[field];
    if (key && message) e[key] ??= message;
  }
  return e;
}

function firstEmail(email: AdminTherapist['email']): string | undefined {
  return (Array.isArray(email) ? email[0] : email) || undefined;
}

export default function ManualBooking(props: { onClose: () => void; onCreated: (message: string) => void }) {
  const { onClose, onCreated } = props;
  const [therapists, setTherapists] = useState<AdminTherapist[]>([]);
  const [locations, setLocations] = useState<Location[]>([]);
  const [slotStates, setSlotStates] = useState<AdminSlotStatesResponse | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [slotsError, setSlotsError] = useState<string | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // A fresh transaction id for each form.
  const [transactionId] = useState(newTransactionId);
  const idp = useId();

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const [t, l] = await Promise.all([adminApi.therapists(), adminApi.locations()]);
        if (!live) return;
        setTherapists(t);
        setLocations(l);
      } catch {
        if (live) setLoadError(MESSAGES.formDataFailed);
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const therapist = therapists.find((t) => String(t.id) === form.therapistId) ?? null;

  useEffect(() => {
    setSlotStates(null);
    if (!therapist) return;
    let live = true;
    setSlotsError(null);
    // The server's states: the same rule for a live booking as the database's, per therapist.
    adminApi
      .slotStates(therapist.id)
      .then((s) => live && setSlotStates(s))
      .catch(() => live && setSlotsError(MESSAGES.slotsFailed));
    return () => {
      live = false;
    };
  }, [therapist]);

  const now = centreNow();
  // Only free slots are offered: past, booked and blocked ones are not (spec: manual booking slot window).
  const daySlots = useMemo(
    () =>
      slotStates && therapist && slotStates.therapist_id === therapist.id
        ? (slotStates.days.find((d) => d.date === form.bookingDate)?.slots.filter((s) => s.state === 'free') ?? [])
        : [],
    [slotStates, therapist, form.bookingDate],
  );
  const dates = adminWindowDates(now.date);
  // Only what the chosen therapist offers: their type of session, and their centre in person.
  const types: ('ONLINE' | 'OFFLINE')[] = therapist ? [isOnlineType(therapist.type) ? 'ONLINE' : 'OFFLINE'] : ['ONLINE', 'OFFLINE'];
  const centres = therapist && !isOnlineType(therapist.type) && therapist.locations ? locations.filter((l) => l.id === therapist.locations) : locations;

  function set<K extends keyof Form>(key: K, value: Form[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  }

  /**
   * A therapist decides the type (theirs), the centre (theirs, in person) and the price: the form
   * fills them in, and a message about any of them from an earlier Create goes with the blank it was about.
   */
  function chooseTherapist(id: string) {
    const t = therapists.find((x) => String(x.id) === id);
    const filled = t
      ? {
          bookingType: (isOnlineType(t.type) ? 'ONLINE' : 'OFFLINE') as Form['bookingType'],
          locationId: !isOnlineType(t.type) && t.locations ? String(t.locations) : '',
          ...(t.price != null ? { amount: String(t.price) } : {}),
        }
      : {};
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
    if (Object.values(found).some(Boolean)) {
      const firstKey = (Object.keys(found) as (keyof Form)[]).find((k) => found[k]);
      if (firstKey) document.getElementById(`${idp}-${firstKey}`)?.focus();
      return;
    }
    const payload = payloadOf(form, transactionId, therapist ? firstEmail(therapist.email) : undefined);
    setSubmitting(true);
    try {
      const res = await adminApi.createManualBooking(payload);
      if (res && res.booking_id) onCreated(MESSAGES.manualCreated(res.booking_id));
      else setSubmitError(MESSAGES.manualFailed);
    } catch (err) {
      setSubmitError(errorMessage(err, MESSAGES.manualError));
    } finally {
      setSubmitting(false);
    }
  }

  const fid = (k: keyof Form) => `${idp}-${k}`;
  const described = (k: keyof Form) => (errors[k] ? { 'aria-invalid': true as const, 'aria-describedby': `${fid(k)}-error` } : {});
  const err = (k: keyof Form) =>
    errors[k] ? (
      <p id={`${fid(k)}-error`} className="error-text">
        {errors[k]}
      </p>
    ) : null;

  return (
    <Modal title="Manual Booking" onClose={onClose} wide>
      {loading ? (
        <Loading label="Loading form..." />
      ) : loadError ? (
        <p className="adm-notice adm-notice--error" role="alert">
          {loadError}
        </p>
      ) : (
        <form className="adm-form" onSubmit={onSubmit} noValidate>
          <div className="adm-form__grid">
            <div className="field">
              <label className="label" htmlFor={fid('therapistId')}>
                Therapist
              </label>
              <select id={fid('therapistId')} className="select" value={form.therapistId} onChange={(e) => chooseTherapist(e.target.value)} {...described('therapistId')}>
                <option value="">Select a therapist</option>
                {therapists.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({isOnlineType(t.type) ? 'Online' : 'Offline'})
                  </option>
                ))}
              </select>
              {err('therapistId')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('bookingType')}>
                Booking Type
              </label>
              <select
                id={fid('bookingType')}
                className="select"
                value={form.bookingType}
                onChange={(e) => set('bookingType', e.target.value as Form['bookingType'])}
                {...described('bookingType')}
              >
                <option value="">Select a type</option>
                {types.map((t) => (
                  <option key={t} value={t}>
                    {t === 'ONLINE' ? 'Online' : 'Offline (In-Person)'}
                  </option>
                ))}
              </select>
              {err('bookingType')}
            </div>
            {form.bookingType === 'OFFLINE' ? (
              <div className="field">
                <label className="label" htmlFor={fid('locationId')}>
                  Location
                </label>
                <select id={fid('locationId')} className="select" value={form.locationId} onChange={(e) => set('locationId', e.target.value)} {...described('locationId')}>
                  <option value="">Select a location</option>
                  {centres.map((l) => (
                    <option key={l.id} value={l.id}>
                      {l.name}
                    </option>
                  ))}
                </select>
                {err('locationId')}
              </div>
            ) : null}
            <div className="field">
              <label className="label" htmlFor={fid('bookingDate')}>
                Booking Date
              </label>
              <select
                id={fid('bookingDate')}
                className="select"
                value={form.bookingDate}
                onChange={(e) => {
                  set('bookingDate', e.target.value);
                  setForm((f) => ({ ...f, slot: '' }));
                }}
                {...described('bookingDate')}
              >
                <option value="">Select a date</option>
                {dates.map((d) => (
                  <option key={d} value={d}>
                    {formatLongDate(d)}
                  </option>
                ))}
              </select>
              {err('bookingDate')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('slot')}>
                Time Slot
              </label>
              <select id={fid('slot')} className="select" value={form.slot} onChange={(e) => set('slot', e.target.value)} disabled={!therapist || !form.bookingDate} {...described('slot')}>
                <option value="">{therapist && form.bookingDate && daySlots.length === 0 ? 'No available slots' : 'Select a time'}</option>
                {daySlots.map((s) => (
                  <option key={s.start_time} value={s.start_time}>
                    {formatTime(s.start_time)}
                  </option>
                ))}
              </select>
              {slotsError ? (
                <p className="error-text" role="alert">
                  {slotsError}
                </p>
              ) : null}
              {err('slot')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('clientName')}>
                Client Name
              </label>
              <input id={fid('clientName')} className="input" autoComplete="off" value={form.clientName} onChange={(e) => set('clientName', e.target.value)} {...described('clientName')} />
              {err('clientName')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('clientEmail')}>
                Client Email
              </label>
              <input id={fid('clientEmail')} className="input" type="email" autoComplete="off" value={form.clientEmail} onChange={(e) => set('clientEmail', e.target.value)} {...described('clientEmail')} />
              {err('clientEmail')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('clientMobile')}>
                Client Mobile
              </label>
              <input
                id={fid('clientMobile')}
                className="input"
                type="tel"
                inputMode="numeric"
                maxLength={10}
                autoComplete="off"
                value={form.clientMobile}
                onChange={(e) => set('clientMobile', e.target.value.replace(/\D/g, '').slice(0, 10))}
                {...described('clientMobile')}
              />
              {err('clientMobile')}
            </div>
            <div className="field">
              <label className="label" htmlFor={fid('amount')}>
                Amount (₹)
              </label>
              <input
                id={fid('amount')}
                className="input"
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={form.amount}
                onChange={(e) => set('amount', e.target.value)}
                {...described('amount')}
              />
              {err('amount')}
            </div>
            <div className="field adm-form__full">
              <label className="label" htmlFor={fid('notes')}>
                Notes <span className="muted">(optional)</span>
              </label>
              <textarea id={fid('notes')} className="textarea" value={form.notes} onChange={(e) => set('notes', e.target.value)} />
            </div>
          </div>
          <p className="hint">
            {form.bookingType === 'OFFLINE'
              ? 'In-person bookings are saved as Pending; payment is collected at the visit.'
              : form.bookingType === 'ONLINE'
                ? 'Online bookings are saved as Completed.'
                : 'The booking is confirmed by you as an admin.'}
          </p>
          {submitError ? (
            <p className="adm-notice adm-notice--error" role="alert">
              {submitError}
            </p>
          ) : null}
          <div className="btn-row adm-form__actions">
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={submitting}>
              {submitting ? 'Creating...' : 'Create Booking'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
