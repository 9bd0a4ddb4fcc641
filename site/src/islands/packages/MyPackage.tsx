/**
 * /my-package?token=… (issue 34): the client's package by its private link (from their e-mail, or
 * where the payment provider sends them back: that return settles the payment). Its sessions (total,
 * used, left, until when) and the sessions booked with it; and booking one more with a session of the
 * package instead of a payment: a covered therapist, a date and a time from their public offer.
 */
import { useId, useState, type FormEvent } from 'react';
import { displayName } from '../../../../shared/domain/therapist.ts';
import { formatLongDate, formatTime12h } from '../../../../shared/domain/time.ts';
import { ApiError, bookFromPackage, getMyPackage, getSlotOffer, type ClientPackageDto } from '../../lib/api.ts';
import { Loading, StateView, useLoad } from '../booking/common.tsx';
import { loadLocations, loadTherapists } from '../booking/data.ts';
import { SlotPicker, type PickedSlot } from '../booking/SlotPicker.tsx';

export const MY_PACKAGE_TEXT = {
  loading: 'Loading your package...',
  noToken: 'This page opens from the private link to your package in your e-mail.',
  notFound: 'This package link is not valid. Please use the link in your e-mail, or contact us and we will help you.',
  awaiting: 'We are waiting for your payment. Once it reaches us, your sessions are ready here and we e-mail you this link.',
  lapsed: 'This purchase was not paid, so it holds no sessions.',
  noneLeft: 'There are no sessions left in this package.',
} as const;

const TYPE_WORDS = { ONLINE: 'Online', OFFLINE: 'In person' } as const;

/** The token, and the rest of the address (the provider's return) to pass on. */
function addressParts(search: string): { token: string | null; rest: string } {
  const q = new URLSearchParams(search);
  const token = q.get('token');
  q.delete('token');
  return { token, rest: q.toString() };
}

/** `search`: the page's query string (the address's, unless a test gives one). */
export function MyPackage({ search }: { search?: string }) {
  const [{ token, rest }] = useState(() => addressParts(search ?? window.location.search));
  const [version, setVersion] = useState(0);
  // The last booking's confirmation: kept here, as the package reloads (and its form may go, with no session left).
  const [booked, setBooked] = useState<Booked | null>(null);
  const pkg = useLoad(() => getMyPackage(token ?? '', rest), `${token}-${version}`);
  if (!token) return <StateView title="Your package">{<p>{MY_PACKAGE_TEXT.noToken}</p>}</StateView>;
  if (pkg.status === 'loading') return <Loading text={MY_PACKAGE_TEXT.loading} />;
  if (pkg.status === 'error') {
    const missing = pkg.error instanceof ApiError && pkg.error.status === 404;
    return (
      <StateView title={missing ? 'We could not find this package' : 'Something went wrong'} tone="error" alert>
        <p>{missing ? MY_PACKAGE_TEXT.notFound : 'Please try again.'}</p>
        {missing ? null : (
          <button type="button" className="btn btn-secondary" onClick={pkg.reload}>
            Try again
          </button>
        )}
      </StateView>
    );
  }
  const p = pkg.data;
  return (
    <div className="my-package">
      <Summary p={p} />
      {booked ? (
        <p className="notice notice--ok" role="status">
          {booked.message} <a href={booked.manageUrl}>Manage this booking</a>
        </p>
      ) : null}
      {p.status === 'PAID' && p.sessions_left > 0 ? (
        <BookWithPackage
          token={token}
          p={p}
          onBooked={(done) => {
            setBooked(done);
            setVersion((v) => v + 1);
          }}
        />
      ) : null}
    </div>
  );
}

function Summary({ p }: { p: ClientPackageDto }) {
  const id = useId();
  return (
    <section className="card manage-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="manage-title">
        {p.package_name}
      </h2>
      {p.status === 'AWAITING_PAYMENT' ? <p role="status">{MY_PACKAGE_TEXT.awaiting}</p> : null}
      {p.status === 'LAPSED' ? <p>{MY_PACKAGE_TEXT.lapsed}</p> : null}
      {p.status === 'PAID' ? (
        <dl className="package-facts">
          <div>
            <dt>Sessions</dt>
            <dd>
              {p.sessions_total} in all, {p.sessions_used} used, <strong>{p.sessions_left} left</strong>
            </dd>
          </div>
          <div>
            <dt>Use them by</dt>
            <dd>{p.expires_on ? formatLongDate(p.expires_on) : '--'}</dd>
          </div>
        </dl>
      ) : null}
      {p.bookings.length ? (
        <>
          <h3>Sessions booked with this package</h3>
          <ul className="package-bookings">
            {p.bookings.map((b) => (
              <li key={b.id}>
                {formatLongDate(b.booking_date)} at {formatTime12h(b.booking_time_slot_start)}, {TYPE_WORDS[b.booking_type]}, with{' '}
                {displayName(b.therapist_name)}
                {b.credit === 'RETURNED' ? ' (cancelled: the session went back to your package)' : b.cancelled ? ' (cancelled late: the session was used)' : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {p.status === 'PAID' && p.sessions_left === 0 ? <p>{MY_PACKAGE_TEXT.noneLeft}</p> : null}
    </section>
  );
}

type Booked = { message: string; manageUrl: string };

function BookWithPackage({ token, p, onBooked }: { token: string; p: ClientPackageDto; onBooked: (done: Booked) => void }) {
  const id = useId();
  const catalogue = useLoad(() => Promise.all([loadTherapists(), loadLocations()]), 'catalogue');
  const [therapistId, setTherapistId] = useState<number | null>(null);
  const offer = useLoad(() => (therapistId ? getSlotOffer(therapistId) : Promise.resolve(null)), String(therapistId));
  const [shownDate, setShownDate] = useState<string | null>(null);
  const [slot, setSlot] = useState<PickedSlot | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (catalogue.status !== 'done') return catalogue.status === 'loading' ? <Loading text="Loading our therapists..." /> : null;
  const [therapists, locations] = catalogue.data;
  const covered = therapists.filter(
    (t) =>
      (p.therapist_ids.length === 0 || p.therapist_ids.includes(t.id)) &&
      (p.session_types.length === 0 || p.session_types.includes(t.type === 1 ? 'ONLINE' : 'OFFLINE')),
  );
  const therapist = covered.find((t) => t.id === therapistId);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!therapist || !slot) return setError('Please choose a therapist, a date and a time.');
    setError(null);
    setBusy(true);
    const online = therapist.type === 1;
    try {
      const res = await bookFromPackage(token, {
        therapist_id: therapist.id,
        booking_type: online ? 'ONLINE' : 'OFFLINE',
        ...(online ? {} : { location_id: therapist.locations ?? null }),
        booking_date: slot.date,
        booking_time_slot_start: slot.start_time.slice(0, 5),
      });
      setSlot(null);
      onBooked({ message: res.message, manageUrl: res.manage_url });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'We could not book this session. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card manage-card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="manage-title">
        Book a session with your package
      </h2>
      <div className="field">
        <label className="label" htmlFor={`${id}-therapist`}>
          Therapist
        </label>
        <select
          id={`${id}-therapist`}
          className="select"
          value={therapistId ?? ''}
          onChange={(e) => {
            setTherapistId(e.target.value ? Number(e.target.value) : null);
            setSlot(null);
            setShownDate(null);
          }}
        >
          <option value="">Choose a therapist</option>
          {covered.map((t) => (
            <option key={t.id} value={t.id}>
              {displayName(t.name)} ({t.type === 1 ? 'online' : (locations.find((l) => l.id === t.locations)?.name ?? 'in person')})
            </option>
          ))}
        </select>
      </div>
      {therapistId && offer.status === 'loading' ? <Loading text="Loading free times..." /> : null}
      {therapistId && offer.status === 'done' && offer.data ? (
        <SlotPicker
          days={offer.data.days}
          selected={slot}
          shownDate={shownDate}
          onPickDate={(d) => {
            setShownDate(d);
            setSlot(null);
          }}
          onPickSlot={setSlot}
          noSlotsText="This therapist has no free time in the next 15 working days. Please choose another therapist."
        />
      ) : null}
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy || !slot}>
        {busy ? 'Booking...' : 'Book with one session of my package'}
      </button>
    </form>
  );
}
