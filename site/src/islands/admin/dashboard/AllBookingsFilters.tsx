/** All Booked Slots' filters: therapist, status and one date (or from today on). */
import { useId } from 'react';
import type { AdminTherapist } from '../../../lib/admin-api.ts';
import { STATUS_FILTERS } from '../../../lib/admin-format.ts';

export type AllFilters = { therapistId: string; status: string; date: string };

export function AllBookingsFilters(props: { therapists: AdminTherapist[]; filters: AllFilters; onChange: (patch: Partial<AllFilters>) => void }) {
  const { therapists, filters, onChange } = props;
  const ids = { therapist: useId(), status: useId(), date: useId() };
  return (
    <>
      <div className="field">
        <label className="label" htmlFor={ids.therapist}>
          Therapist
        </label>
        <select id={ids.therapist} className="select" value={filters.therapistId} onChange={(e) => onChange({ therapistId: e.target.value })}>
          <option value="">All therapists</option>
          {therapists.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="label" htmlFor={ids.status}>
          Status
        </label>
        <select id={ids.status} className="select" value={filters.status} onChange={(e) => onChange({ status: e.target.value })}>
          {STATUS_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="label" htmlFor={ids.date}>
          Date
        </label>
        <div className="adm-filters__date">
          <input id={ids.date} className="input" type="date" value={filters.date} onChange={(e) => onChange({ date: e.target.value })} />
          {filters.date ? (
            <button type="button" className="btn btn-sm btn-secondary" onClick={() => onChange({ date: '' })}>
              From today
            </button>
          ) : null}
        </div>
      </div>
    </>
  );
}
