/**
 * "Book a series" (issue 34): the same therapist and time every one or two weeks, 2 to 52 sessions, for
 * one client, paid per session by link (online), at the centre (in person), now at the desk, or from one
 * of the client's packages (a session of it each; the client's live sales are offered). The server
 * checks every date together: when some cannot be booked nothing is, and the form lists each with its
 * reason and the nearest free time that day, and offers to book the rest without them.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { centreNow } from '../../../../shared/domain/time.ts';
import { isOnlineType } from '../../../../shared/domain/therapist.ts';
import { adminApi, errorMessage, type DeskPaymentMethod, type SeriesConflict, type SeriesCreateInput } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { PackageSaleSelect } from './PackageSaleSelect.tsx';
import { SeriesConflicts } from './SeriesConflicts.tsx';
import { FieldError, FormActions, Loading, Modal } from './ui.tsx';

const loadForm = () => Promise.all([adminApi.therapists(), adminApi.locations()]);

type Payment = SeriesCreateInput['payment'];
type Form = {
  therapistId: string;
  locationId: string;
  time: string;
  firstDate: string;
  interval: '1' | '2';
  count: string;
  name: string;
  email: string;
  mobile: string;
  note: string;
  payment: Payment | '';
  method: DeskPaymentMethod | '';
  saleId: string;
};
type Errors = Partial<Record<keyof Form, string>>;

const METHODS: [DeskPaymentMethod, string][] = [
  ['CASH', 'Cash'],
  ['CARD', 'Card'],
  ['UPI', 'UPI'],
  ['BANK_TRANSFER', 'Bank transfer'],
];

function validate(f: Form): Errors {
  const e: Errors = {};
  if (!f.therapistId) e.therapistId = 'Therapist is required';
  if (!/^\d{2}:\d{2}$/.test(f.time)) e.time = 'Time is required';
  if (!f.firstDate) e.firstDate = 'First date is required';
  const n = Number(f.count);
  if (!Number.isInteger(n) || n < 2 || n > 52) e.count = 'Choose from 2 to 52 sessions';
  if (!f.name.trim()) e.name = 'Client name is required';
  if (!/^\S+@\S+\.\S+$/.test(f.email.trim())) e.email = 'Valid client email is required';
  if (!f.mobile.trim()) e.mobile = 'Valid 10-digit mobile is required';
  if (!f.payment) e.payment = 'Choose how the sessions are paid';
  if (f.payment === 'PAID_NOW' && !f.method) e.method = 'Choose how they were paid';
  if (f.payment === 'PACKAGE' && !f.saleId) e.saleId = "Choose the client's package that pays for the sessions";
  return e;
}

export default function SeriesBooking(props: { onClose: () => void; onCreated: (message: string) => void }) {
  const { onClose, onCreated } = props;
  const idp = useId();
  const lists = useQuery('series-booking', {}, loadForm);
  const [therapists, locations] = lists.data ?? [[], []];
  const [form, setForm] = useState<Form>({
    therapistId: '',
    locationId: '',
    time: '',
    firstDate: centreNow().date,
    interval: '1',
    count: '8',
    name: '',
    email: '',
    mobile: '',
    note: '',
    payment: '',
    method: '',
    saleId: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [conflicts, setConflicts] = useState<{ detail: string; items: SeriesConflict[] } | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const therapist = therapists.find((t) => String(t.id) === form.therapistId) ?? null;
  const online = therapist ? isOnlineType(therapist.type) : true;

  function set<K extends keyof Form>(key: K, value: Form[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    // Another request: the old answer's conflicts no longer describe it.
    setConflicts(null);
  }

  function chooseTherapist(id: string) {
    const t = therapists.find((x) => String(x.id) === id);
    const isOnline = t ? isOnlineType(t.type) : true;
    setForm((f) => ({
      ...f,
      therapistId: id,
      locationId: t && !isOnline && t.locations ? String(t.locations) : '',
      // Per session by link is for online sessions, at the centre for in person.
      payment: f.payment === 'PAID_NOW' || f.payment === 'PACKAGE' ? f.payment : isOnline ? 'SEND_LINK' : 'PAY_AT_CENTRE',
    }));
    setErrors((e) => ({ ...e, therapistId: undefined }));
    setConflicts(null);
  }

  function payload(skip: boolean): SeriesCreateInput {
    return {
      therapist_id: Number(form.therapistId),
      booking_type: online ? 'ONLINE' : 'OFFLINE',
      ...(online ? {} : { location_id: Number(form.locationId) }),
      booking_time_slot_start: form.time,
      first_date: form.firstDate,
      interval_weeks: form.interval === '2' ? 2 : 1,
      count: Number(form.count),
      client_full_name: form.name.trim(),
      client_email: form.email.trim(),
      client_mobile: form.mobile.trim(),
      ...(form.note.trim() ? { client_note: form.note.trim() } : {}),
      payment: form.payment as Payment,
      ...(form.payment === 'PAID_NOW' && form.method ? { payment_method: form.method } : {}),
      ...(form.payment === 'PACKAGE' && form.saleId ? { package_sale_id: Number(form.saleId) } : {}),
      ...(skip ? { on_conflict: 'skip' as const } : {}),
    };
  }

  async function submit(skip: boolean) {
    const found = validate(form);
    setErrors(found);
    setSubmitError(null);
    const firstKey = (Object.keys(found) as (keyof Form)[]).find((k) => found[k]);
    if (firstKey) return document.getElementById(`${idp}-${firstKey}`)?.focus();
    setSubmitting(true);
    try {
      const answer = await adminApi.createSeries(payload(skip));
      if (answer.ok) {
        const skipped = answer.body.conflicts.length;
        onCreated(`${answer.body.message}${skipped ? ` ${skipped} ${skipped === 1 ? 'date was' : 'dates were'} skipped.` : ''}`);
      } else {
        setConflicts({ detail: answer.conflict.detail, items: answer.conflict.conflicts });
        requestAnimationFrame(() => document.getElementById(`${idp}-conflicts`)?.focus());
      }
    } catch (err) {
      setSubmitError(errorMessage(err, 'The series could not be booked. Please try again.'));
    } finally {
      setSubmitting(false);
    }
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit(false);
  };

  const field = (k: keyof Form, label: string, control: ReactNode, full = false) => (
    <div className={full ? 'field adm-form__full' : 'field'}>
      <label className="label" htmlFor={`${idp}-${k}`}>
        {label}
      </label>
      {control}
      <FieldError id={`${idp}-${k}-error`} error={errors[k]} />
    </div>
  );
  const described = (k: keyof Form) => (errors[k] ? { 'aria-invalid': true as const, 'aria-describedby': `${idp}-${k}-error` } : {});
  const input = (k: keyof Form, type: 'text' | 'email' | 'tel' | 'date' | 'time' | 'number', extra: Record<string, unknown> = {}) => (
    <input
      id={`${idp}-${k}`}
      className="input"
      type={type}
      value={form[k]}
      onChange={(e) => set(k, e.target.value as Form[typeof k])}
      {...described(k)}
      {...extra}
    />
  );
  const bookable = conflicts ? Number(form.count) - conflicts.items.length : 0;

  return (
    <Modal title="Book a series" onClose={onClose} wide>
      {lists.error ? (
        <p className="adm-notice adm-notice--error" role="alert">
          Failed to load form data.
        </p>
      ) : !lists.data ? (
        <Loading label="Loading form..." />
      ) : (
        <form className="adm-form" onSubmit={onSubmit} noValidate aria-label="Book a series">
          <div className="adm-form__grid">
            {field(
              'therapistId',
              'Therapist',
              <select
                id={`${idp}-therapistId`}
                className="select"
                value={form.therapistId}
                onChange={(e) => chooseTherapist(e.target.value)}
                {...described('therapistId')}
              >
                <option value="">Select a therapist</option>
                {therapists.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({isOnlineType(t.type) ? 'Online' : 'Offline'})
                  </option>
                ))}
              </select>,
            )}
            {!online
              ? field(
                  'locationId',
                  'Centre',
                  <select id={`${idp}-locationId`} className="select" value={form.locationId} onChange={(e) => set('locationId', e.target.value)}>
                    {locations
                      .filter((l) => !therapist?.locations || l.id === therapist.locations)
                      .map((l) => (
                        <option key={l.id} value={l.id}>
                          {l.name}
                        </option>
                      ))}
                  </select>,
                )
              : null}
            {field('time', 'Time', input('time', 'time', { step: 3600 }))}
            {field('firstDate', 'First date', input('firstDate', 'date'))}
            {field(
              'interval',
              'Repeats',
              <select id={`${idp}-interval`} className="select" value={form.interval} onChange={(e) => set('interval', e.target.value as Form['interval'])}>
                <option value="1">Every week</option>
                <option value="2">Every two weeks</option>
              </select>,
            )}
            {field('count', 'Number of sessions', input('count', 'number', { min: 2, max: 52, inputMode: 'numeric' }))}
            {field('name', 'Client name', input('name', 'text', { autoComplete: 'off' }))}
            {field('email', 'Client email', input('email', 'email', { autoComplete: 'off' }))}
            {field('mobile', 'Client mobile', input('mobile', 'tel', { inputMode: 'tel' }))}
            {field('note', 'Note (optional)', input('note', 'text'), true)}
          </div>
          <fieldset className="adm-form__full field" aria-describedby={errors.payment ? `${idp}-payment-error` : undefined}>
            <legend className="label">How the sessions are paid</legend>
            {(online ? (['SEND_LINK', 'PAID_NOW', 'PACKAGE'] as const) : (['PAY_AT_CENTRE', 'PAID_NOW', 'PACKAGE'] as const)).map((p, i) => (
              <label key={p} className="adm-radio">
                <input
                  type="radio"
                  id={i === 0 ? `${idp}-payment` : undefined}
                  name={`${idp}-payment`}
                  checked={form.payment === p}
                  onChange={() => set('payment', p)}
                />{' '}
                {p === 'SEND_LINK'
                  ? 'Per session, by payment link (sent a week before each)'
                  : p === 'PAY_AT_CENTRE'
                    ? 'Per session, at the centre'
                    : p === 'PACKAGE'
                      ? "From the client's package (one session of it each)"
                      : 'All paid now'}
              </label>
            ))}
            <FieldError id={`${idp}-payment-error`} error={errors.payment} />
          </fieldset>
          {form.payment === 'PAID_NOW'
            ? field(
                'method',
                'Paid by',
                <select
                  id={`${idp}-method`}
                  className="select"
                  value={form.method}
                  onChange={(e) => set('method', e.target.value as Form['method'])}
                  {...described('method')}
                >
                  <option value="">Select</option>
                  {METHODS.map(([m, words]) => (
                    <option key={m} value={m}>
                      {words}
                    </option>
                  ))}
                </select>,
              )
            : null}
          {form.payment === 'PACKAGE'
            ? field(
                'saleId',
                'Package',
                <PackageSaleSelect
                  id={`${idp}-saleId`}
                  value={form.saleId}
                  onChange={(v) => set('saleId', v)}
                  clientEmail={form.email}
                  ownOnly
                  errorId={errors.saleId ? `${idp}-saleId-error` : undefined}
                />,
              )
            : null}
          {conflicts ? (
            <SeriesConflicts id={`${idp}-conflicts`} detail={conflicts.detail} conflicts={conflicts.items}>
              {bookable > 0 ? (
                <button type="button" className="btn btn-secondary" disabled={submitting} onClick={() => void submit(true)}>
                  Book the other {bookable} {bookable === 1 ? 'session' : 'sessions'}, skip these
                </button>
              ) : null}
            </SeriesConflicts>
          ) : null}
          {submitError ? (
            <p className="adm-notice adm-notice--error" role="alert">
              {submitError}
            </p>
          ) : null}
          <FormActions onCancel={onClose} submitLabel={submitting ? 'Booking...' : 'Book series'} submitting={submitting} />
        </form>
      )}
    </Modal>
  );
}
