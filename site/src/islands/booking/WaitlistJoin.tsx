import { type InputHTMLAttributes, useId, useState, type FormEvent } from 'react';
import { WAITLIST_WHATSAPP_CONSENT } from '../../../../shared/contract/booking.ts';
import { isEmailAddress, MOBILE_HINT, normaliseIndianMobile } from '../../../../shared/domain/contact.ts';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { formatLongDate } from '../../../../shared/domain/time.ts';
import { WAITLIST_TIME_WORDS, WAITLIST_TIMES, type WaitlistTime } from '../../../../shared/domain/waitlist.ts';
import { ApiError, joinWaitlist } from '../../lib/api.ts';
import { ErrorBeside } from './common.tsx';

export const WAITLIST_TEXT = {
  open: 'None of these times suit you? Join the waitlist',
  title: 'Join the waitlist',
  intro: (name: string) =>
    `Tell us when you could come. If a time with ${name} in that range comes free, we hold it for you and e-mail you at once; the first to join is offered first.`,
  submit: 'Join the waitlist',
  anyTime: 'Any time of day, if none is ticked.',
  failed: 'Something went wrong. Please try again.',
  nameRequired: 'Please enter your full name',
  emailInvalid: 'Please enter a valid e-mail address',
  mobileInvalid: 'Please enter a 10-digit mobile number',
  rangeOrder: 'The last date must be on or after the first.',
} as const;

type Props = {
  therapist: { id: number; name: string };
  /** The dates the client may book (clientOfferDates), as the server's window: the range's bounds. */
  dates: readonly string[];
  /** The client's details as far as the wizard knows them. */
  client: { fullName: string; email: string; mobile: string };
};

type Errors = Partial<Record<'from' | 'to' | 'fullName' | 'email' | 'mobile', string>>;

/**
 * "Join the waitlist" (issue 34) on the wizard's date and time step: a date range within the booking
 * window, the times of day, and the client's contact details, sent to POST /api/waitlist. Checked here
 * by the rules the server keeps (no zod on public pages), and the server's refusal (a hold limit, the
 * window) shown in its words.
 */
export function WaitlistJoin({ therapist, dates, client }: Props) {
  const id = useId();
  const firstDate = dates[0] ?? '';
  const lastDate = dates[dates.length - 1] ?? '';
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(firstDate);
  const [to, setTo] = useState(lastDate);
  const [times, setTimes] = useState<WaitlistTime[]>([]);
  const [fullName, setFullName] = useState(client.fullName);
  const [email, setEmail] = useState(client.email);
  const [mobile, setMobile] = useState(client.mobile);
  const [whatsapp, setWhatsapp] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [joined, setJoined] = useState('');
  const name = displayName(therapist.name);

  if (joined) {
    return (
      <div className="notice notice--ok waitlist-done" role="status">
        {joined}
      </div>
    );
  }
  if (!open) {
    return (
      <button type="button" className="btn btn-secondary waitlist-open" aria-expanded="false" onClick={() => setOpen(true)}>
        {WAITLIST_TEXT.open}
      </button>
    );
  }

  const check = (): Errors => {
    const found: Errors = {};
    if (!from || from < firstDate || from > lastDate) found.from = `Please choose a date from ${formatLongDate(firstDate)} to ${formatLongDate(lastDate)}.`;
    if (!to || to < firstDate || to > lastDate) found.to = `Please choose a date from ${formatLongDate(firstDate)} to ${formatLongDate(lastDate)}.`;
    else if (from && to < from) found.to = WAITLIST_TEXT.rangeOrder;
    if (!fullName.trim()) found.fullName = WAITLIST_TEXT.nameRequired;
    if (!isEmailAddress(email.trim())) found.email = WAITLIST_TEXT.emailInvalid;
    if (!/^\d{10}$/.test(normaliseIndianMobile(mobile))) found.mobile = WAITLIST_TEXT.mobileInvalid;
    return found;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = check();
    setErrors(found);
    setError('');
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const res = await joinWaitlist({
        therapist_id: therapist.id,
        from_date: from,
        to_date: to,
        times,
        client_full_name: fullName.trim(),
        client_email: email.trim(),
        client_mobile: normaliseIndianMobile(mobile),
        ...(whatsapp ? { whatsapp_offers: true } : {}),
      });
      setJoined(res.message);
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : WAITLIST_TEXT.failed);
    } finally {
      setBusy(false);
    }
  };

  /** A labelled input of the form, its hint and its error read with it. */
  const field = (
    key: keyof Errors,
    label: string,
    value: string,
    set: (value: string) => void,
    attrs: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
    <div className="field">
      <label className="label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        {...attrs}
        value={value}
        onChange={(e) => set(e.target.value)}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={[hint ? `${id}-${key}-hint` : '', errors[key] ? `${id}-${key}-err` : ''].filter(Boolean).join(' ') || undefined}
      />
      {hint && (
        <p id={`${id}-${key}-hint`} className="hint">
          {hint}
        </p>
      )}
      {errors[key] && (
        <p id={`${id}-${key}-err`} className="error-text">
          {errors[key]}
        </p>
      )}
    </div>
  );
  const dateInput = { type: 'date', min: firstDate, max: lastDate };

  return (
    <form className="card waitlist-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} noValidate>
      <h3 id={`${id}-title`} className="waitlist-title">
        {WAITLIST_TEXT.title}
      </h3>
      <p className="muted">{WAITLIST_TEXT.intro(name)}</p>
      <div className="form-grid">
        {field('from', 'From', from, setFrom, dateInput)}
        {field('to', 'To', to, setTo, dateInput)}
      </div>
      <fieldset className="field field--full">
        <legend className="label">Times of day</legend>
        {WAITLIST_TIMES.map((t) => (
          <div className="checkbox" key={t}>
            <input
              id={`${id}-time-${t}`}
              type="checkbox"
              checked={times.includes(t)}
              onChange={(e) => setTimes((now) => (e.target.checked ? [...now, t] : now.filter((x) => x !== t)))}
            />
            <label htmlFor={`${id}-time-${t}`}>{WAITLIST_TIME_WORDS[t]}</label>
          </div>
        ))}
        <p className="hint">{WAITLIST_TEXT.anyTime}</p>
      </fieldset>
      <div className="form-grid">
        {field('fullName', 'Full name', fullName, setFullName, { type: 'text', autoComplete: 'name' })}
        {field('email', 'Email', email, setEmail, { type: 'email', autoComplete: 'email' })}
        {field('mobile', 'Mobile number', mobile, setMobile, { type: 'tel', autoComplete: 'tel' }, MOBILE_HINT)}
      </div>
      {/* The WhatsApp opt-in as the wizard's details step asks it: unticked, its wording under the label. */}
      <div className="field">
        <div className="checkbox">
          <input
            id={`${id}-whatsapp`}
            type="checkbox"
            checked={whatsapp}
            onChange={(e) => setWhatsapp(e.target.checked)}
            aria-describedby={`${id}-whatsapp-hint`}
          />
          <div>
            <label htmlFor={`${id}-whatsapp`}>
              {WAITLIST_WHATSAPP_CONSENT.label} <span className="optional">(optional)</span>
            </label>
            <p id={`${id}-whatsapp-hint`} className="hint">
              {WAITLIST_WHATSAPP_CONSENT.detail}
            </p>
          </div>
        </div>
      </div>
      <ErrorBeside message={error} />
      <div className="btn-row">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Joining...' : WAITLIST_TEXT.submit}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </form>
  );
}
