/** Centre (super admins, issue 20): holidays, services and the centres' details and photos. */
import { useId, useState } from 'react';
import { catalogueApi, errorMessage, type AffectedBookingDto, type HolidayDto, type LocationDto, type ServiceDto } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { AffectedList } from './Therapists.tsx';
import { ChangeNotices, Empty, ErrorPanel, InputField, Loading } from './ui.tsx';
import { useChange } from './useChange.ts';

const loadCentre = async () => {
  const [holidays, services, locations] = await Promise.all([catalogueApi.holidays(), catalogueApi.services(), catalogueApi.locations()]);
  return { holidays, services, locations };
};

export default function Centre() {
  const centre = useQuery('centre', {}, loadCentre);
  const [affected, setAffected] = useState<AffectedBookingDto[]>([]);
  const change = useChange('The change was not saved.', centre.refresh);
  // A saved change says what it did and lists the live bookings it touched (none but a holiday's).
  const run: Run = (p, ok, touched) =>
    change.run(
      p.then((r) => {
        setAffected(touched ? touched(r) : []);
        return r;
      }),
      () => ok,
    );

  if (centre.error)
    return <ErrorPanel title="Error Loading the Centre" message={errorMessage(centre.error, 'Failed to load the centre.')} onRetry={centre.refresh} />;
  if (!centre.data) return <Loading />;
  const { holidays, services, locations } = centre.data;
  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Centre</h1>
          <p className="muted">Holidays, services and centres. The public site follows within a minute.</p>
        </div>
      </header>
      <ChangeNotices message={change.message} failure={change.failure} />
      <AffectedList title="Live bookings on the holiday:" items={affected} />
      <Holidays holidays={holidays} run={run} />
      <Services services={services} run={run} />
      {locations.map((l) => (
        <LocationForm key={l.id} location={l} run={run} />
      ))}
    </div>
  );
}

type Run = (p: Promise<unknown>, ok: string, touched?: (r: unknown) => AffectedBookingDto[]) => void;

function Holidays({ holidays, run }: { holidays: HolidayDto[]; run: Run }) {
  const id = useId();
  const [date, setDate] = useState('');
  const [reason, setReason] = useState('');
  return (
    <section className="adm-panel card" aria-labelledby={`${id}-h`}>
      <div className="adm-panel__head">
        <h2 id={`${id}-h`}>Holidays</h2>
      </div>
      <p className="muted">The whole centre is closed on these days: nobody can book them.</p>
      {holidays.length === 0 ? (
        <Empty>No holidays ahead.</Empty>
      ) : (
        <ul>
          {holidays.map((h) => (
            <li key={h.id}>
              {h.date}
              {h.reason ? ` — ${h.reason}` : ''}{' '}
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                aria-label={`Remove holiday ${h.date}`}
                onClick={() => run(catalogueApi.deleteHoliday(h.id), `${h.date} is open again.`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="adm-inline-fields">
        <InputField id={`${id}-date`} type="date" label="Date" value={date} onChange={setDate} />
        <InputField id={`${id}-reason`} label="Reason" value={reason} onChange={setReason} />
      </div>
      <button
        type="button"
        className="btn btn-primary"
        onClick={() =>
          run(
            catalogueApi.addHoliday({ date, reason }),
            `The centre is closed on ${date}.`,
            (r) => (r as { bookings_inside: AffectedBookingDto[] }).bookings_inside,
          )
        }
      >
        Add holiday
      </button>
    </section>
  );
}

function Services({ services, run }: { services: ServiceDto[]; run: Run }) {
  const id = useId();
  const [name, setName] = useState('');
  const [names, setNames] = useState<Record<number, string>>({});
  return (
    <section className="adm-panel card" aria-labelledby={`${id}-h`}>
      <div className="adm-panel__head">
        <h2 id={`${id}-h`}>Services</h2>
      </div>
      <ul className="adm-inline-fields">
        {services.map((s) => (
          <li key={s.id} className="field">
            <label className="label" htmlFor={`${id}-${s.id}`}>
              Service {s.id}
            </label>
            <input id={`${id}-${s.id}`} className="input" value={names[s.id] ?? s.name} onChange={(e) => setNames((n) => ({ ...n, [s.id]: e.target.value }))} />
            {names[s.id] !== undefined && names[s.id] !== s.name ? (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => run(catalogueApi.renameService(s.id, names[s.id]!), 'Service renamed.')}
              >
                Rename
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="field">
        <label className="label" htmlFor={`${id}-new`}>
          New service
        </label>
        <input id={`${id}-new`} className="input" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="button" className="btn btn-primary" onClick={() => run(catalogueApi.addService(name), `${name} added.`)}>
        Add service
      </button>
    </section>
  );
}

function LocationForm({ location, run }: { location: LocationDto; run: Run }) {
  const id = useId();
  const [form, setForm] = useState({ name: location.name, description: location.description, address: location.address, phone: location.phone });
  const [file, setFile] = useState<File | null>(null);
  const field = (k: keyof typeof form, label: string, area = false) => (
    <div className="field adm-form__full">
      <label className="label" htmlFor={`${id}-${k}`}>
        {label}
      </label>
      {area ? (
        <textarea id={`${id}-${k}`} className="textarea" rows={2} value={form[k]} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))} />
      ) : (
        <input id={`${id}-${k}`} className="input" value={form[k]} onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.value }))} />
      )}
    </div>
  );
  return (
    <section className="adm-panel card" aria-labelledby={`${id}-h`}>
      <div className="adm-panel__head">
        <h2 id={`${id}-h`}>{location.name}</h2>
      </div>
      <div className="adm-form__grid">
        {field('name', 'Name')}
        {field('description', 'Description', true)}
        {field('address', 'Address', true)}
        {field('phone', 'Phone')}
      </div>
      <button type="button" className="btn btn-primary" onClick={() => run(catalogueApi.patchLocation(location.id, form), `${form.name} saved.`)}>
        Save centre
      </button>
      <div className="field">
        <label className="label" htmlFor={`${id}-photo`}>
          New photo (PNG, JPEG or WebP, up to 2 MB)
        </label>
        <input
          id={`${id}-photo`}
          type="file"
          className="input"
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={!file}
        onClick={() => file && run(catalogueApi.uploadLocationPhoto(location.id, file), 'Photo saved.')}
      >
        Upload photo
      </button>
    </section>
  );
}
