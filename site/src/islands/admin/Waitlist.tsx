/**
 * The waitlist (issue 34), every admin: a therapist's clients waiting for a freed slot, first in line
 * first, each with the dates and times of day they asked for and the slot held for them now (until
 * when). The offers themselves are made and passed on by the worker; this screen only shows them.
 */
import { useEffect, useId, useState } from 'react';
import { centreNow, formatLongDate, formatTimeIst } from '../../../../shared/domain/time.ts';
import { WAITLIST_TIME_WORDS } from '../../../../shared/domain/waitlist.ts';
import { adminApi, errorMessage, type AdminTherapist, type AdminWaitlist } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { Empty, ErrorPanel, Loading } from './ui.tsx';

type Entry = AdminWaitlist['entries'][number];
const FAILED = 'Failed to load the waitlist.';

function wanted(e: Entry): string {
  return e.times.length === 0 ? 'Any time' : e.times.map((t) => WAITLIST_TIME_WORDS[t]).join(', ');
}

function held(e: Entry): string {
  if (!e.offer) return 'Waiting';
  const until = centreNow(new Date(e.offer.expires_at));
  return `Held: ${formatLongDate(e.offer.booking_date)} at ${formatTimeIst(e.offer.booking_time_slot_start)}, until ${formatTimeIst(until.time)}`;
}

export default function Waitlist() {
  const id = useId();
  const [therapists, setTherapists] = useState<AdminTherapist[] | null>(null);
  const [therapistId, setTherapistId] = useState<number | null>(null);
  useEffect(() => {
    adminApi.therapists().then(
      (list) => {
        setTherapists(list);
        setTherapistId((now) => now ?? list[0]?.id ?? null);
      },
      () => setTherapists([]),
    );
  }, []);
  const { data, loading, error, refresh } = useQuery('waitlist', therapistId === null ? null : { therapistId }, (p) => adminApi.waitlist(p.therapistId));

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Waitlist</h1>
          <p className="muted">Clients waiting for a freed time, first in line first. A freed time is held for the first and passes on if unclaimed.</p>
        </div>
      </header>
      <div className="field adm-inline-field">
        <label className="label" htmlFor={`${id}-therapist`}>
          Therapist
        </label>
        <select id={`${id}-therapist`} className="select" value={therapistId ?? ''} onChange={(e) => setTherapistId(Number(e.target.value))}>
          {(therapists ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <ErrorPanel title="Error Loading the Waitlist" message={errorMessage(error, FAILED)} onRetry={refresh} />
      ) : therapists === null || loading || !data ? (
        <Loading label="Loading the waitlist..." />
      ) : data.entries.length === 0 ? (
        <Empty>Nobody is waiting for this therapist.</Empty>
      ) : (
        <section className="adm-panel card" aria-labelledby={`${id}-list`}>
          <div className="adm-panel__head">
            <h2 id={`${id}-list`}>{data.entries.length === 1 ? '1 client waiting' : `${data.entries.length} clients waiting`}</h2>
          </div>
          <div className="adm-table-wrap" role="region" aria-label="Waitlist table" tabIndex={0}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Client</th>
                  <th scope="col">Dates</th>
                  <th scope="col">Times</th>
                  <th scope="col">Now</th>
                  <th scope="col">Joined</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td>{e.position}</td>
                    <td>
                      {e.client_full_name}
                      <br />
                      <span className="muted">
                        {e.client_email} · <a href={`tel:${e.client_mobile}`}>{e.client_mobile}</a>
                      </span>
                    </td>
                    <td className="adm-nowrap">
                      {formatLongDate(e.from_date)} to {formatLongDate(e.to_date)}
                    </td>
                    <td>{wanted(e)}</td>
                    <td>{held(e)}</td>
                    <td className="adm-nowrap">
                      {formatLongDate(centreNow(new Date(e.joined_at)).date)} {formatTimeIst(centreNow(new Date(e.joined_at)).time)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
