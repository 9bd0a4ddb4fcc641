import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { WaitlistEntryDto } from '../../../../shared/contract/waitlist.ts';
import { citiesOf, STATE_NAMES } from '../../../../shared/domain/india.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { centreNow, formatLongDate, formatTimeIst } from '../../../../shared/domain/time.ts';
import { WAITLIST_TIME_WORDS } from '../../../../shared/domain/waitlist.ts';
import { ApiError, claimWaitlistOffer, generatePaymentLink, getWaitlistEntry, leaveWaitlist } from '../../lib/api.ts';
import { ErrorBeside, Loading } from '../booking/common.tsx';

export const WAITLIST_PAGE_TEXT = {
  loading: 'Loading your waitlist...',
  notFound: 'This waitlist link is not valid. Please use the link in your latest waitlist e-mail, or contact us and we will help you.',
  waiting: 'You are on the waitlist. We will e-mail you as soon as a matching time comes free.',
  booked: 'You booked a session from this waitlist. Your confirmation e-mail has the details.',
  left: 'You have left this waitlist.',
  heldTitle: 'A time is held for you',
  claim: 'Book this time',
  leave: 'Leave the waitlist',
  failed: 'Something went wrong. Please try again.',
  ageRequired: 'Please enter your age',
  sessionTypeRequired: 'Please choose the type of session',
  stateRequired: 'Please choose your state',
  cityRequired: 'Please choose your city',
  termsRequired: 'Please accept the terms and conditions to continue',
  guardianRequired: 'A parent or guardian must agree to this booking for a client under 18',
} as const;

type Props = {
  /** The query string (tests); otherwise the page's own. */
  search?: string;
  /** Navigates the page (tests); otherwise window.location. */
  navigate?: (url: string) => void;
};

type Errors = Partial<Record<'age' | 'sessionType' | 'state' | 'city' | 'terms' | 'guardian', string>>;

/**
 * The waitlist client's private page (/waitlist?token=…, issue 34): their place on the list and, when a
 * freed time is held for them, the wizard's remaining details and "Book this time" (POST
 * /api/waitlist/{token}/claim, then as the wizard's Pay: the payment link online, the confirmation in
 * person), or "Leave the waitlist".
 */
export function WaitlistOffer({ search, navigate }: Props) {
  const [token] = useState(() => new URLSearchParams(search ?? (typeof window === 'undefined' ? '' : window.location.search)).get('token') ?? '');
  const [entry, setEntry] = useState<WaitlistEntryDto | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'not-found' | 'error'>(token ? 'loading' : 'not-found');
  const [notice, setNotice] = useState('');
  const go = navigate ?? ((url: string) => window.location.assign(url));
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!token) return;
    getWaitlistEntry(token).then(
      (e) => {
        setEntry(e);
        setState('ready');
      },
      (err: unknown) => setState(err instanceof ApiError && err.status === 404 ? 'not-found' : 'error'),
    );
  }, [token]);

  if (state === 'loading') return <Loading text={WAITLIST_PAGE_TEXT.loading} />;
  if (state === 'not-found' || !entry) {
    return (
      <div className="card manage-card manage-card--centred" role={state === 'error' ? 'alert' : undefined}>
        <p>{state === 'error' ? WAITLIST_PAGE_TEXT.failed : WAITLIST_PAGE_TEXT.notFound}</p>
      </div>
    );
  }

  const leave = async () => {
    try {
      const res = await leaveWaitlist(token);
      setEntry({ ...entry, status: 'left', offer: null });
      setNotice(res.message);
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (err) {
      setNotice(err instanceof ApiError && err.message ? err.message : WAITLIST_PAGE_TEXT.failed);
    }
  };

  const times = entry.times.length === 0 ? 'Any time of day' : entry.times.map((t) => WAITLIST_TIME_WORDS[t]).join(', ');
  const live = entry.status === 'waiting' || entry.status === 'offered';
  return (
    <div className="manage">
      <section className="card manage-card" aria-labelledby="waitlist-title">
        <h2 ref={headingRef} id="waitlist-title" tabIndex={-1} className="manage-title">
          Waitlist for {entry.therapist.name}
        </h2>
        {notice && (
          <p className="notice notice--ok" role="status">
            {notice}
          </p>
        )}
        <dl className="summary-list">
          <div className="summary-row">
            <dt>Dates</dt>
            <dd>
              {formatLongDate(entry.from_date)} to {formatLongDate(entry.to_date)}
            </dd>
          </div>
          <div className="summary-row">
            <dt>Times</dt>
            <dd>{times}</dd>
          </div>
          <div className="summary-row">
            <dt>Where</dt>
            <dd>{entry.centre ? `${entry.centre.name}, ${entry.centre.address}` : 'Online (video call)'}</dd>
          </div>
        </dl>
        {!entry.offer && (
          <p>{entry.status === 'booked' ? WAITLIST_PAGE_TEXT.booked : entry.status === 'left' ? WAITLIST_PAGE_TEXT.left : WAITLIST_PAGE_TEXT.waiting}</p>
        )}
      </section>
      {entry.offer && (
        <ClaimForm
          token={token}
          entry={entry}
          go={go}
          onBooked={(message) => {
            setEntry({ ...entry, status: 'booked', offer: null });
            setNotice(message);
            requestAnimationFrame(() => headingRef.current?.focus());
          }}
        />
      )}
      {live && (
        <section className="card manage-card" aria-label={WAITLIST_PAGE_TEXT.leave}>
          <button type="button" className="btn btn-danger-outline" onClick={() => void leave()}>
            {WAITLIST_PAGE_TEXT.leave}
          </button>
        </section>
      )}
    </div>
  );
}

function ClaimForm({ token, entry, go, onBooked }: { token: string; entry: WaitlistEntryDto; go: (url: string) => void; onBooked: (message: string) => void }) {
  const id = useId();
  const offer = entry.offer!;
  const online = entry.booking_type === 'ONLINE';
  const [age, setAge] = useState('');
  const [sessionType, setSessionType] = useState<'' | 'individual' | 'couple'>('');
  const [stateName, setStateName] = useState('');
  const [city, setCity] = useState('');
  const [terms, setTerms] = useState(false);
  const [guardian, setGuardian] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const ageNumber = Number(age);
  const minor = Number.isInteger(ageNumber) && ageNumber >= 1 && ageNumber < 18;
  const until = centreNow(new Date(offer.expires_at));

  const check = (): Errors => {
    const found: Errors = {};
    if (!Number.isInteger(ageNumber) || ageNumber < 1 || ageNumber > 120) found.age = WAITLIST_PAGE_TEXT.ageRequired;
    if (!sessionType) found.sessionType = WAITLIST_PAGE_TEXT.sessionTypeRequired;
    if (online && !stateName) found.state = WAITLIST_PAGE_TEXT.stateRequired;
    if (online && !city) found.city = WAITLIST_PAGE_TEXT.cityRequired;
    if (!terms) found.terms = WAITLIST_PAGE_TEXT.termsRequired;
    if (minor && !guardian) found.guardian = WAITLIST_PAGE_TEXT.guardianRequired;
    return found;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = check();
    setErrors(found);
    setError('');
    if (Object.keys(found).length > 0 || !sessionType) return;
    setBusy(true);
    try {
      const made = await claimWaitlistOffer(token, {
        client_age: ageNumber,
        session_type: sessionType,
        ...(online ? { client_state: stateName, client_city: city } : {}),
        terms_accepted: true,
        ...(minor ? { guardian_consent: true } : {}),
      });
      if (typeof made.booking_id !== 'number') throw new Error(WAITLIST_PAGE_TEXT.failed);
      // In person the session is confirmed now (pay at the visit): said here, and e-mailed.
      if (!online) {
        onBooked(
          `Your session on ${formatLongDate(offer.booking_date)} at ${formatTimeIst(offer.booking_time_slot_start)} is booked. Your confirmation e-mail is on its way.`,
        );
        return;
      }
      const link = await generatePaymentLink({ booking_id: made.booking_id, currency: 'INR' }, made.booking_token ?? null);
      if (!link.short_url) throw new Error(WAITLIST_PAGE_TEXT.failed);
      go(link.short_url);
    } catch (err) {
      setBusy(false);
      setError(err instanceof Error && err.message ? err.message : WAITLIST_PAGE_TEXT.failed);
    }
  };

  const describedBy = (k: keyof Errors) => (errors[k] ? `${id}-${k}-err` : undefined);
  const errorText = (k: keyof Errors) =>
    errors[k] ? (
      <p id={`${id}-${k}-err`} className="error-text">
        {errors[k]}
      </p>
    ) : null;

  return (
    <form className="card manage-card" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} noValidate>
      <h2 id={`${id}-title`} className="manage-subtitle">
        {WAITLIST_PAGE_TEXT.heldTitle}
      </h2>
      <p>
        <strong>
          {formatLongDate(offer.booking_date)} at {formatTimeIst(offer.booking_time_slot_start)}
        </strong>{' '}
        with {entry.therapist.name}, {formatPrice(entry.amount)}. Held for you until {formatTimeIst(until.time)} on {formatLongDate(until.date)}.
      </p>
      <div className="form-grid">
        <div className="field">
          <label className="label" htmlFor={`${id}-age`}>
            Age
          </label>
          <input
            id={`${id}-age`}
            className="input"
            inputMode="numeric"
            value={age}
            onChange={(e) => setAge(e.target.value.replace(/\D/g, ''))}
            aria-invalid={Boolean(errors.age)}
            aria-describedby={describedBy('age')}
          />
          {errorText('age')}
        </div>
        <div className="field">
          <label className="label" htmlFor={`${id}-type`}>
            Type of session
          </label>
          <select
            id={`${id}-type`}
            className="select"
            value={sessionType}
            onChange={(e) => setSessionType(e.target.value as '' | 'individual' | 'couple')}
            aria-invalid={Boolean(errors.sessionType)}
            aria-describedby={describedBy('sessionType')}
          >
            <option value="">Choose...</option>
            <option value="individual">Individual</option>
            <option value="couple">Couple</option>
          </select>
          {errorText('sessionType')}
        </div>
        {online && (
          <>
            <div className="field">
              <label className="label" htmlFor={`${id}-state`}>
                State
              </label>
              <select
                id={`${id}-state`}
                className="select"
                value={stateName}
                onChange={(e) => {
                  setStateName(e.target.value);
                  setCity('');
                }}
                aria-invalid={Boolean(errors.state)}
                aria-describedby={describedBy('state')}
              >
                <option value="">Choose...</option>
                {STATE_NAMES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
              {errorText('state')}
            </div>
            <div className="field">
              <label className="label" htmlFor={`${id}-city`}>
                City
              </label>
              <select
                id={`${id}-city`}
                className="select"
                value={city}
                disabled={!stateName}
                onChange={(e) => setCity(e.target.value)}
                aria-invalid={Boolean(errors.city)}
                aria-describedby={describedBy('city')}
              >
                <option value="">Choose...</option>
                {citiesOf(stateName).map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              {errorText('city')}
            </div>
          </>
        )}
      </div>
      {minor && (
        <div className="field">
          <div className="checkbox">
            <input
              id={`${id}-guardian`}
              type="checkbox"
              checked={guardian}
              onChange={(e) => setGuardian(e.target.checked)}
              aria-describedby={describedBy('guardian')}
            />
            <label htmlFor={`${id}-guardian`}>A parent or guardian agrees to this booking</label>
          </div>
          {errorText('guardian')}
        </div>
      )}
      <div className="field">
        <div className="checkbox">
          <input id={`${id}-terms`} type="checkbox" checked={terms} onChange={(e) => setTerms(e.target.checked)} aria-describedby={describedBy('terms')} />
          <label htmlFor={`${id}-terms`}>
            I accept the{' '}
            <a href="/terms-and-conditions" target="_blank" rel="noopener">
              terms and conditions
            </a>
          </label>
        </div>
        {errorText('terms')}
      </div>
      <ErrorBeside message={error} />
      <div className="btn-row manage-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Booking...' : WAITLIST_PAGE_TEXT.claim}
        </button>
      </div>
    </form>
  );
}
