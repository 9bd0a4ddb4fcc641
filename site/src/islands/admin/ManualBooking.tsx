/** The Manual Booking modal (spec section 5): an admin-confirmed booking for a client. */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { MANUAL_BOOKING_MESSAGES as MB } from '../../../../shared/contract/messages.ts';
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
import { EMAIL_RE, MESSAGES, formatLongDate, formatTime, newTransactionId } from '../../lib/admin-format.ts';
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

export function validateManualBooking(f: Form): Errors {
  const e: Errors = {};
  if (!f.therapistId) e.therapistId = MB.therapistRequired;
  if (!f.bookingDate) e.bookingDate = MB.dateRequired;
  if (!f.slot) e.slot = MB.slotRequired;
  if (!f.clientName.trim()) e.clientName = MB.clientNameRequired;
  if (!EMAIL_RE.test(f.clientEmail.trim())) e.clientEmail = MB.clientEmailRequired;
  if (!/^\d{10}$/.test(f.clientMobile.trim())) e.clientMobile = MB.clientMobileRequired;
  if (!f.bookingType) e.bookingType = MB.bookingTypeRequired;
  if (f.bookingType === 'OFFLINE' && !f.locationId) e.locationId = MB.locationRequired;
  const amount = Number(f.amount);
  if (f.amount.trim() === '' || !Number.isFinite(amount) || amount <= 0) e.amount = MB.amountRequired;
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
    const offline = form.bookingType === 'OFFLINE';
    const payload: ManualBookingPayload = {
      therapist_id: Number(form.therapistId),
      booking_date: form.bookingDate,
      booking_time_slot_start: form.slot,
      client_full_name: form.clientName.trim(),
      client_email: form.clientEmail.trim(),
      client_mobile: form.clientMobile.trim(),
      client_note: form.notes.trim(),
      booking_type: offline ? 'OFFLINE' : 'ONLINE',
      location_id: offline ? Number(form.locationId) : 0,
      amount: Math.round(Number(form.amount) * 100) / 100,
      payment_status: offline ? 'PENDING' : 'COMPLETED',
      admin_confirmed: true,
      payment_transaction_id: transactionId,
    };
    const email = therapist ? firstEmail(therapist.email) : undefined;
    if (email) payload.therapist_email = email;
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
