/**
 * Therapists (super admins, issue 20): add and edit therapists, their photo, weekly hours and time
 * off, and take them off or back on the public site. Changes reach the wizard within a minute.
 */
import { useId, useState, type FormEvent } from 'react';
import { WEEKDAY_KEYS, type WeekdayKey } from '../../../../shared/contract/catalogue.ts';
import { formatPrice } from '../../../../shared/domain/money.ts';
import {
  affectedLine,
  catalogueApi,
  errorMessage,
  type AffectedBookingDto,
  type CatalogueTherapistDto,
  type LocationDto,
  type ServiceDto,
  type TherapistBody,
  type WeeklyHours,
} from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { Badge, ChangeNotices, Empty, ErrorNotice, ErrorPanel, InputField, Loading } from './ui.tsx';

const DAY_LABEL: Record<WeekdayKey, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday' };
const WHOLE_HOURS = Array.from({ length: 14 }, (_, i) => `${String(i + 8).padStart(2, '0')}:00`);

type Form = {
  name: string;
  title: string;
  specialization: string;
  summary: string;
  approaches: string;
  experience: string;
  languages: string;
  price: string;
  type: '1' | '2';
  locationId: string;
  emails: string;
  serviceIds: number[];
};

const EMPTY: Form = {
  name: '',
  title: '',
  specialization: '',
  summary: '',
  approaches: '',
  experience: '',
  languages: '',
  price: '',
  type: '1',
  locationId: '',
  emails: '',
  serviceIds: [],
};

function formOf(t: CatalogueTherapistDto): Form {
  return {
    name: t.name,
    title: t.title,
    specialization: t.specialization,
    ...t.bio_parts,
    price: t.price === null ? '' : String(t.price),
    type: t.type === 2 ? '2' : '1',
    locationId: t.location_id ? String(t.location_id) : '',
    emails: t.email.join(', '),
    serviceIds: t.service_ids,
  };
}

function bodyOf(f: Form): TherapistBody {
  return {
    name: f.name,
    title: f.title,
    specialization: f.specialization,
    bio: { summary: f.summary, approaches: f.approaches, experience: f.experience, languages: f.languages },
    price: f.price.trim() === '' ? null : Number(f.price),
    type: f.type === '2' ? 2 : 1,
    email: f.emails.split(/[,\s]+/).filter(Boolean),
    location_id: f.type === '2' && f.locationId ? Number(f.locationId) : null,
    service_ids: f.serviceIds,
  };
}

/** The bookings a change touched, for the admin to decide about one by one. */
export function AffectedList(props: { title: string; items: AffectedBookingDto[] }) {
  if (props.items.length === 0) return null;
  return (
    <div className="adm-notice" role="status">
      <p>
        <strong>{props.title}</strong> They were not cancelled; decide about each one from the Dashboard.
      </p>
      <ul>
        {props.items.map((b) => (
          <li key={b.id}>{affectedLine(b)}</li>
        ))}
      </ul>
    </div>
  );
}

const loadTherapists = async () => {
  const [list, services, locations] = await Promise.all([catalogueApi.therapists(), catalogueApi.services(), catalogueApi.locations()]);
  return { list, services, locations };
};

export default function Therapists() {
  const therapists = useQuery('therapists', {}, loadTherapists);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [affected, setAffected] = useState<{ title: string; items: AffectedBookingDto[] } | null>(null);

  const done = (text: string, touched?: { title: string; items: AffectedBookingDto[] }) => {
    setMessage(text);
    setAffected(touched ?? null);
    therapists.refresh();
  };

  if (therapists.error)
    return (
      <ErrorPanel title="Error Loading Therapists" message={errorMessage(therapists.error, 'Failed to load the therapists.')} onRetry={therapists.refresh} />
    );
  if (!therapists.data) return <Loading />;
  const { list, services, locations } = therapists.data;
  const current = typeof editing === 'number' ? list.find((t) => t.id === editing) : undefined;

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Therapists</h1>
          <p className="muted">Add therapists, set their hours and time off. The booking wizard follows within a minute.</p>
        </div>
        <div className="adm-btns">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setEditing('new');
              setMessage(null);
              setAffected(null);
            }}
          >
            Add therapist
          </button>
        </div>
      </header>
      <ChangeNotices message={message} failure={null} />
      {affected ? <AffectedList title={affected.title} items={affected.items} /> : null}

      {editing !== null ? (
        <TherapistEditor
          key={`${editing}-${current ? 'loaded' : 'new'}`}
          therapist={current}
          services={services}
          locations={locations}
          onClose={() => setEditing(null)}
          onSaved={(t, text, touched) => {
            setEditing(t.id);
            done(text, touched);
          }}
        />
      ) : null}

      <section className="adm-panel card" aria-labelledby="therapists-title">
        <div className="adm-panel__head">
          <h2 id="therapists-title">All therapists</h2>
        </div>
        {list.length === 0 ? (
          <Empty>No therapists yet.</Empty>
        ) : (
          <div className="adm-table-wrap" role="region" aria-label="Therapists table" tabIndex={0}>
            <table className="adm-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Price</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr key={t.id}>
                    <td>
                      {t.name}
                      <br />
                      <span className="muted">{t.title}</span>
                    </td>
                    <td>{t.type === 1 ? 'Online' : `In person, ${locations.find((l) => l.id === t.location_id)?.name ?? ''}`}</td>
                    <td>{t.price === null ? 'Not set' : formatPrice(t.price)}</td>
                    <td>{t.is_active ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        onClick={() => {
                          setEditing(t.id);
                          setMessage(null);
                          setAffected(null);
                        }}
                        aria-label={`Edit ${t.name}`}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function TherapistEditor(props: {
  therapist: CatalogueTherapistDto | undefined;
  services: ServiceDto[];
  locations: LocationDto[];
  onClose: () => void;
  onSaved: (t: CatalogueTherapistDto, message: string, touched?: { title: string; items: AffectedBookingDto[] }) => void;
}) {
  const { therapist, services, locations, onClose, onSaved } = props;
  const id = useId();
  const fid = (k: string) => `${id}-${k}`;
  const [form, setForm] = useState<Form>(therapist ? formOf(therapist) : EMPTY);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    try {
      const saved = therapist ? await catalogueApi.patchTherapist(therapist.id, bodyOf(form)) : await catalogueApi.createTherapist(bodyOf(form));
      onSaved(saved, therapist ? `${saved.name} saved.` : `${saved.name} added. Now set their photo and weekly hours.`);
    } catch (error) {
      setErr(errorMessage(error, 'Could not save the therapist.'));
    } finally {
      setBusy(false);
    }
  };

  const text = (k: keyof Form, label: string, opts: { required?: boolean; full?: boolean; area?: boolean; inputMode?: 'decimal' | 'email' } = {}) => (
    <div className={`field${opts.full ? ' adm-form__full' : ''}`}>
      <label className="label" htmlFor={fid(k)}>
        {label}
      </label>
      {opts.area ? (
        <textarea id={fid(k)} className="textarea" rows={3} value={form[k] as string} onChange={(e) => set(k, e.target.value as never)} />
      ) : (
        <input
          id={fid(k)}
          className="input"
          value={form[k] as string}
          required={opts.required}
          inputMode={opts.inputMode}
          onChange={(e) => set(k, e.target.value as never)}
        />
      )}
    </div>
  );

  return (
    <section className="adm-panel card" aria-labelledby={fid('heading')}>
      <div className="adm-panel__head">
        <h2 id={fid('heading')}>{therapist ? `Edit ${therapist.name}` : 'Add a therapist'}</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <form className="adm-form" onSubmit={(e) => void save(e)} noValidate>
        <div className="adm-form__grid">
          {text('name', 'Name (e.g. Dr. Asha Mehta)', { required: true })}
          {text('title', 'Title')}
          {text('specialization', 'Specialization', { full: true })}
          {text('summary', 'About (summary)', { full: true, area: true })}
          {text('approaches', 'Approaches')}
          {text('experience', 'Experience')}
          {text('languages', 'Languages')}
          {text('price', 'Price per session (₹)', { inputMode: 'decimal' })}
          <div className="field">
            <label className="label" htmlFor={fid('type')}>
              Sessions
            </label>
            <select id={fid('type')} className="select" value={form.type} onChange={(e) => set('type', e.target.value as Form['type'])}>
              <option value="1">Online</option>
              <option value="2">In person</option>
            </select>
          </div>
          {form.type === '2' ? (
            <div className="field">
              <label className="label" htmlFor={fid('loc')}>
                Location
              </label>
              <select id={fid('loc')} className="select" value={form.locationId} onChange={(e) => set('locationId', e.target.value)}>
                <option value="">Select a location</option>
                {locations.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {text('emails', 'E-mail addresses (comma-separated)', { full: true, inputMode: 'email' })}
          <fieldset className="field adm-form__full">
            <legend className="label">Services</legend>
            <div className="adm-choices adm-choice-grid">
              {services.map((s) => (
                <label key={s.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={form.serviceIds.includes(s.id)}
                    onChange={(e) => set('serviceIds', e.target.checked ? [...form.serviceIds, s.id] : form.serviceIds.filter((x) => x !== s.id))}
                  />{' '}
                  {s.name}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        <ErrorNotice error={err} />
        <div className="btn-row adm-form__actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {therapist ? 'Save details' : 'Add therapist'}
          </button>
        </div>
      </form>
      {therapist ? (
        <>
          <PhotoSection therapist={therapist} onSaved={onSaved} />
          <HoursSection therapist={therapist} onSaved={onSaved} />
          <TimeOffSection therapist={therapist} onSaved={onSaved} />
          <div className="adm-subhead">
            <h3>On the public site</h3>
            <p className="muted">
              {therapist.is_active ? 'Shown on the team page and in the booking wizard.' : 'Hidden from the team page and the booking wizard.'}
            </p>
            <button
              type="button"
              className={therapist.is_active ? 'btn btn-danger' : 'btn btn-primary'}
              onClick={() =>
                void catalogueApi.setActive(therapist.id, !therapist.is_active).then(
                  (r) =>
                    onSaved(
                      r.therapist,
                      r.therapist.is_active ? `${therapist.name} is back on the public site.` : `${therapist.name} is off the public site.`,
                      { title: 'Their live bookings from today on:', items: r.live_bookings },
                    ),
                  (e: unknown) => setErr(errorMessage(e, 'Could not change the status.')),
                )
              }
            >
              {therapist.is_active ? 'Deactivate' : 'Activate'}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

type SectionProps = {
  therapist: CatalogueTherapistDto;
  onSaved: (t: CatalogueTherapistDto, message: string, touched?: { title: string; items: AffectedBookingDto[] }) => void;
};

function PhotoSection({ therapist, onSaved }: SectionProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [err, setErr] = useState<string | null>(null);
  return (
    <div className="adm-subhead">
      <h3>Photo</h3>
      {therapist.image_url ? (
        // biome-ignore lint/a11y/noRedundantAlt: the words say which photo this is (the current one, beside the upload of a new one).
        <img src={`/get_specific_image/${therapist.image_url}`} alt={`Current photo of ${therapist.name}`} width={96} height={96} />
      ) : (
        <p className="muted">No photo yet.</p>
      )}
      <div className="field">
        <label className="label" htmlFor={id}>
          New photo (PNG, JPEG or WebP, up to 2 MB)
        </label>
        <input id={id} type="file" className="input" accept="image/png,image/jpeg,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </div>
      <ErrorNotice error={err} />
      <button
        type="button"
        className="btn btn-secondary"
        disabled={!file}
        onClick={() =>
          file &&
          void catalogueApi.uploadPhoto(therapist.id, file).then(
            () => onSaved(therapist, 'Photo saved.'),
            (e: unknown) => setErr(errorMessage(e, 'Could not upload the photo.')),
          )
        }
      >
        Upload photo
      </button>
    </div>
  );
}

function HoursSection({ therapist, onSaved }: SectionProps) {
  const [hours, setHours] = useState<WeeklyHours>(therapist.hours);
  const [err, setErr] = useState<string | null>(null);
  const columns = [...new Set([...WHOLE_HOURS, ...WEEKDAY_KEYS.flatMap((k) => therapist.hours[k])])].sort();
  const toggle = (day: WeekdayKey, time: string, on: boolean) =>
    setHours((h) => ({ ...h, [day]: on ? [...h[day], time].sort() : h[day].filter((t) => t !== time) }));
  return (
    <div className="adm-subhead">
      <h3>Weekly hours</h3>
      <p className="muted">Tick the hour-long sessions offered on each day. Bookings already made stay valid.</p>
      {WEEKDAY_KEYS.map((day) => (
        <fieldset key={day} className="field">
          <legend className="label">{DAY_LABEL[day]}</legend>
          <div className="adm-choices adm-choice-grid">
            {columns.map((time) => (
              <label key={time} className="checkbox">
                <input
                  type="checkbox"
                  checked={hours[day].includes(time)}
                  onChange={(e) => toggle(day, time, e.target.checked)}
                  aria-label={`${DAY_LABEL[day]} ${time}`}
                />{' '}
                {time}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <ErrorNotice error={err} />
      <button
        type="button"
        className="btn btn-primary"
        onClick={() =>
          void catalogueApi.setHours(therapist.id, hours).then(
            (r) => onSaved(therapist, 'Weekly hours saved.', { title: 'Live bookings outside the new hours:', items: r.outside_hours }),
            (e: unknown) => setErr(errorMessage(e, 'Could not save the hours.')),
          )
        }
      >
        Save hours
      </button>
    </div>
  );
}

function TimeOffSection({ therapist, onSaved }: SectionProps) {
  const id = useId();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [err, setErr] = useState<string | null>(null);
  return (
    <div className="adm-subhead">
      <h3>Time off</h3>
      {therapist.time_off.length === 0 ? (
        <p className="muted">No time off planned.</p>
      ) : (
        <ul>
          {therapist.time_off.map((o) => (
            <li key={o.id}>
              {o.from_date} to {o.to_date}
              {o.reason ? ` (${o.reason})` : ''}{' '}
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                aria-label={`Remove time off ${o.from_date} to ${o.to_date}`}
                onClick={() =>
                  void catalogueApi.deleteTimeOff(therapist.id, o.id).then(
                    () => onSaved(therapist, 'Time off removed.'),
                    (e: unknown) => setErr(errorMessage(e, 'Could not remove it.')),
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="adm-inline-fields">
        <InputField id={`${id}-from`} type="date" label="From" value={from} onChange={setFrom} />
        <InputField id={`${id}-to`} type="date" label="To" value={to} onChange={setTo} />
        <InputField id={`${id}-reason`} label="Reason" value={reason} onChange={setReason} />
      </div>
      <ErrorNotice error={err} />
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() =>
          void catalogueApi.addTimeOff(therapist.id, { from_date: from, to_date: to || from, reason }).then(
            (r) =>
              onSaved(therapist, `Time off ${r.time_off.from_date} to ${r.time_off.to_date} added.`, {
                title: 'Live bookings inside the time off:',
                items: r.bookings_inside,
              }),
            (e: unknown) => setErr(errorMessage(e, 'Could not add the time off.')),
          )
        }
      >
        Add time off
      </button>
    </div>
  );
}
