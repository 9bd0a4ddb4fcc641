/**
 * Packages of sessions (issue 34): the packages the centre sells (a super admin defines and edits
 * them), selling one at the desk (paid there: one payment in the ledger, the client e-mailed their
 * package's private link), and the sales with their sessions: used, left, the bookings that used
 * them; a super admin extends a sale or refunds its unused sessions.
 */
import { useStore } from '@nanostores/react';
import { useId, useState, type FormEvent } from 'react';
import { DESK_PAYMENT_METHODS, type DeskPaymentMethod } from '../../../../shared/contract/admin.ts';
import { DESK_METHOD_WORDS, formatAmount, formatInstant, formatShortDate, formatTime } from '../../lib/admin-format.ts';
import {
  adminApi,
  errorMessage,
  packageApi,
  type AdminTherapist,
  type PackageBody,
  type PackageDto,
  type PackageSaleDto,
  type PackageSaleListItem,
} from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { $adminSession } from '../../stores/admin-session.ts';
import { Badge, ChangeNotices, ErrorPanel, FieldError, FormActions, Loading, Modal, ColumnHeads } from './ui.tsx';
import { useChange } from './useChange.ts';
import { LabelledInput } from '../../lib/labelled-input.tsx';

export const PACKAGES_TEXT = {
  title: 'Packages',
  intro: 'Courses of sessions sold at one price, used within their validity. Sessions from a package are booked with "From a package" in Manual Booking.',
  none: 'No packages yet.',
  noSales: 'No package sales match.',
  sellTitle: 'Sell a package at the desk',
  sellHint: 'Paid now at the desk. The client is e-mailed their package’s private link, with which they also book online.',
  formInvalid: 'Please fill in every field: a name, 1 to 100 sessions, a price more than ₹0 and 1 to 1095 days.',
} as const;

const TYPE_WORDS = { ONLINE: 'Online', OFFLINE: 'In person' } as const;

function covers(p: PackageDto, therapists: AdminTherapist[] | undefined): string {
  const types = p.session_types.length ? p.session_types.map((t) => TYPE_WORDS[t]).join(', ') : 'Online and in person';
  const names = p.therapist_ids.length
    ? p.therapist_ids.map((id) => therapists?.find((t) => t.id === id)?.name ?? `Therapist ${id}`).join(', ')
    : 'every therapist';
  return `${types}; ${names}`;
}

function saleStatus(s: Pick<PackageSaleListItem, 'status' | 'sessions_left' | 'expires_on'>) {
  if (s.status === 'AWAITING_PAYMENT') return <Badge tone="yellow">Awaiting payment</Badge>;
  if (s.status === 'LAPSED') return <Badge tone="grey">Not paid</Badge>;
  return s.sessions_left > 0 ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Used up</Badge>;
}

export default function Packages() {
  const id = useId();
  const session = useStore($adminSession);
  const superadmin = session?.user.is_superadmin === true;
  const packages = useQuery('packages', {}, () => packageApi.packages());
  const therapists = useQuery('package-therapists', {}, () => adminApi.therapists());
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  const sales = useQuery('package-sales', { q: asked }, (p) => packageApi.sales(p.q ? { q: p.q } : {}));
  const refresh = () => {
    packages.refresh();
    sales.refresh();
  };
  const { message, failure, run } = useChange('The change was not saved.', refresh);
  const [editing, setEditing] = useState<PackageDto | 'new' | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  if (packages.error)
    return <ErrorPanel title="Error Loading Packages" message={errorMessage(packages.error, 'Failed to load the packages.')} onRetry={packages.refresh} />;
  if (!packages.data) return <Loading />;
  const list = packages.data;
  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>{PACKAGES_TEXT.title}</h1>
          <p className="muted">{PACKAGES_TEXT.intro}</p>
        </div>
        {superadmin ? (
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            New package
          </button>
        ) : null}
      </header>
      <ChangeNotices message={message} failure={failure} />
      <section className="adm-panel card" aria-labelledby={`${id}-list`}>
        <div className="adm-panel__head">
          <h2 id={`${id}-list`}>Packages on offer</h2>
        </div>
        {list.length === 0 ? (
          <p className="muted">{PACKAGES_TEXT.none}</p>
        ) : (
          <div className="adm-table-wrap" role="region" aria-label="Packages table" tabIndex={0}>
            <table className="adm-table">
              <thead>
                <tr>
                  <ColumnHeads cols={['Name', { num: 'Sessions' }, { num: 'Price' }, 'Valid for', 'Covers', 'Status']} />
                  {superadmin ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name}</td>
                    <td className="num">{p.sessions_count}</td>
                    <td className="num">{formatAmount(p.price)}</td>
                    <td>{p.validity_days} days</td>
                    <td>{covers(p, therapists.data)}</td>
                    <td>{p.is_active ? <Badge tone="green">On sale</Badge> : <Badge tone="grey">Not on sale</Badge>}</td>
                    {superadmin ? (
                      <td>
                        <button type="button" className="btn btn-secondary btn-sm" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
                          Edit
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <SellForm packages={list.filter((p) => p.is_active)} run={run} onSold={(saleId) => setViewing(saleId)} />
      <section className="adm-panel card" aria-labelledby={`${id}-sales`}>
        <div className="adm-panel__head">
          <h2 id={`${id}-sales`}>Sales</h2>
        </div>
        <form
          className="adm-form"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked(search.trim());
          }}
        >
          <label className="label" htmlFor={`${id}-q`}>
            Client name, e-mail or mobile
          </label>
          <div className="btn-row">
            <input id={`${id}-q`} className="input" value={search} onChange={(e) => setSearch(e.target.value)} />
            <button type="submit" className="btn btn-secondary">
              Search
            </button>
          </div>
        </form>
        {sales.error ? (
          <p role="alert">{errorMessage(sales.error, 'Failed to load the sales.')}</p>
        ) : !sales.data ? (
          <Loading />
        ) : sales.data.length === 0 ? (
          <p className="muted">{PACKAGES_TEXT.noSales}</p>
        ) : (
          <div className="adm-table-wrap" role="region" aria-label="Package sales table" tabIndex={0}>
            <table className="adm-table">
              <thead>
                <tr>
                  <ColumnHeads cols={['Sale', 'Client', 'Package', { num: 'Left' }, 'Expires', 'Status']} />
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sales.data.map((s) => (
                  <tr key={s.id}>
                    <td>{s.id}</td>
                    <td>{s.client_full_name}</td>
                    <td>{s.package_name}</td>
                    <td className="num">
                      {s.sessions_left} of {s.sessions_total}
                    </td>
                    <td className="adm-nowrap">{s.expires_on ? formatShortDate(s.expires_on) : '--'}</td>
                    <td>{saleStatus(s)}</td>
                    <td>
                      <button type="button" className="btn btn-secondary btn-sm" aria-label={`View sale ${s.id}`} onClick={() => setViewing(s.id)}>
                        View
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {editing ? (
        <PackageForm
          initial={editing === 'new' ? null : editing}
          therapists={therapists.data ?? []}
          onClose={() => setEditing(null)}
          onSave={(body) => {
            setEditing(null);
            if (editing === 'new') run(packageApi.createPackage(body), (r) => r.message);
            else run(packageApi.updatePackage(editing.id, body), (r) => r.message);
          }}
        />
      ) : null}
      {viewing !== null ? <SaleDialog saleId={viewing} superadmin={superadmin} onClose={() => setViewing(null)} onChanged={refresh} /> : null}
    </div>
  );
}

/** The desk's sale: the package, the client, how they paid. */
function SellForm(props: { packages: PackageDto[]; run: ReturnType<typeof useChange>['run']; onSold: (saleId: number) => void }) {
  const id = useId();
  const empty = { packageId: '', name: '', email: '', mobile: '', method: '' as '' | DeskPaymentMethod };
  const [form, setForm] = useState(empty);
  const [error, setError] = useState<string | null>(null);
  const chosen = props.packages.find((p) => String(p.id) === form.packageId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen || !form.name.trim() || !form.email.trim() || !form.mobile.trim() || !form.method) {
      setError('Please choose the package and the payment method, and fill in the client’s name, e-mail and mobile.');
      return;
    }
    setError(null);
    const sold = packageApi.sell({
      package_id: chosen.id,
      client_full_name: form.name.trim(),
      client_email: form.email.trim(),
      client_mobile: form.mobile.trim(),
      payment_method: form.method,
    });
    props.run(sold, (r) => {
      setForm(empty);
      props.onSold(r.sale.id);
      return r.message;
    });
  };
  const field = (key: 'name' | 'email' | 'mobile', label: string, type = 'text') => (
    <div className="field">
      <label className="label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input id={`${id}-${key}`} type={type} className="input" value={form[key]} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
    </div>
  );
  return (
    <section className="adm-panel card" aria-labelledby={`${id}-title`}>
      <div className="adm-panel__head">
        <h2 id={`${id}-title`}>{PACKAGES_TEXT.sellTitle}</h2>
      </div>
      <form className="adm-form" onSubmit={submit} noValidate aria-describedby={`${id}-hint`}>
        <p id={`${id}-hint`} className="hint">
          {PACKAGES_TEXT.sellHint}
        </p>
        <div className="adm-form__grid">
          <div className="field">
            <label className="label" htmlFor={`${id}-pkg`}>
              Package
            </label>
            <select id={`${id}-pkg`} className="select" value={form.packageId} onChange={(e) => setForm((f) => ({ ...f, packageId: e.target.value }))}>
              <option value="">Select a package</option>
              {props.packages.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.sessions_count} sessions, {formatAmount(p.price)})
                </option>
              ))}
            </select>
          </div>
          {field('name', 'Client name')}
          {field('email', 'Client e-mail', 'email')}
          {field('mobile', 'Client mobile', 'tel')}
          <div className="field">
            <label className="label" htmlFor={`${id}-method`}>
              Paid by
            </label>
            <select
              id={`${id}-method`}
              className="select"
              value={form.method}
              onChange={(e) => setForm((f) => ({ ...f, method: e.target.value as DeskPaymentMethod }))}
            >
              <option value="">Select a method</option>
              {DESK_PAYMENT_METHODS.map((m) => (
                <option key={m} value={m}>
                  {DESK_METHOD_WORDS[m]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FieldError id={`${id}-error`} error={error} />
        <div className="btn-row adm-form__actions">
          <button type="submit" className="btn btn-primary">
            {chosen ? `Sell for ${formatAmount(chosen.price)}` : 'Sell'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** A package's definition (super admins): new, or an edit of one. */
function PackageForm(props: { initial: PackageDto | null; therapists: AdminTherapist[]; onClose: () => void; onSave: (body: PackageBody) => void }) {
  const id = useId();
  const p = props.initial;
  const [form, setForm] = useState({
    name: p?.name ?? '',
    sessions: String(p?.sessions_count ?? 8),
    price: p ? String(p.price) : '',
    days: String(p?.validity_days ?? 90),
    types: p?.session_types ?? [],
    therapistIds: p?.therapist_ids ?? [],
    active: p?.is_active ?? true,
  });
  const [error, setError] = useState<string | null>(null);
  const toggle = <T,>(list: T[], v: T) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: PackageBody = {
      name: form.name.trim(),
      sessions_count: Number(form.sessions),
      price: Number(form.price),
      validity_days: Number(form.days),
      session_types: form.types,
      therapist_ids: form.therapistIds,
      is_active: form.active,
    };
    const valid =
      body.name &&
      Number.isInteger(body.sessions_count) &&
      body.sessions_count >= 1 &&
      body.sessions_count <= 100 &&
      body.price > 0 &&
      Number.isInteger(body.validity_days) &&
      body.validity_days >= 1 &&
      body.validity_days <= 1095;
    if (!valid) return setError(PACKAGES_TEXT.formInvalid);
    props.onSave(body);
  };
  const num = (key: 'sessions' | 'price' | 'days', label: string) => (
    <div className="field">
      <label className="label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        inputMode="decimal"
        value={form[key]}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
        {...(error ? { 'aria-describedby': `${id}-error` } : {})}
      />
    </div>
  );
  return (
    <Modal title={p ? `Edit ${p.name}` : 'New package'} onClose={props.onClose} wide>
      <form className="adm-form" onSubmit={submit} noValidate>
        <div className="adm-form__grid">
          <LabelledInput
            id={`${id}-name`}
            label="Name"
            fieldClass="field adm-form__full"
            value={form.name}
            onValue={(name) => setForm((f) => ({ ...f, name }))}
          />
          {num('sessions', 'Number of sessions')}
          {num('price', 'Price (₹)')}
          {num('days', 'Valid for (days)')}
          <fieldset className="adm-choices adm-form__full">
            <legend className="label">Session types (none ticked: both)</legend>
            {(['ONLINE', 'OFFLINE'] as const).map((t) => (
              <label key={t} className="adm-choice">
                <input type="checkbox" checked={form.types.includes(t)} onChange={() => setForm((f) => ({ ...f, types: toggle(f.types, t) }))} />
                <span>{TYPE_WORDS[t]}</span>
              </label>
            ))}
          </fieldset>
          <fieldset className="adm-choices adm-form__full">
            <legend className="label">Therapists (none ticked: every therapist)</legend>
            {props.therapists.map((t) => (
              <label key={t.id} className="adm-choice">
                <input
                  type="checkbox"
                  checked={form.therapistIds.includes(t.id)}
                  onChange={() => setForm((f) => ({ ...f, therapistIds: toggle(f.therapistIds, t.id) }))}
                />
                <span>{t.name}</span>
              </label>
            ))}
          </fieldset>
          <label className="checkbox adm-form__full">
            <input type="checkbox" checked={form.active} onChange={(e) => setForm((f) => ({ ...f, active: e.target.checked }))} /> On sale
          </label>
        </div>
        <FieldError id={`${id}-error`} error={error} />
        <FormActions onCancel={props.onClose} submitLabel={p ? 'Save' : 'Create package'} />
      </form>
    </Modal>
  );
}

/** A sale: its sessions, the bookings that used them, its credits; a super admin extends or refunds it. */
function SaleDialog(props: { saleId: number; superadmin: boolean; onClose: () => void; onChanged: () => void }) {
  const id = useId();
  const sale = useQuery('package-sale', { id: props.saleId }, (p) => packageApi.sale(p.id));
  const after = () => {
    sale.refresh();
    props.onChanged();
  };
  const { message, failure, run } = useChange('The change was not saved.', after);
  const [expiresOn, setExpiresOn] = useState('');
  const [reason, setReason] = useState('');
  const [method, setMethod] = useState<'' | DeskPaymentMethod>('');
  const s: PackageSaleDto | undefined = sale.data;
  return (
    <Modal title={`Package sale ${props.saleId}`} onClose={props.onClose} wide>
      {sale.error ? <p role="alert">{errorMessage(sale.error, 'Failed to load the sale.')}</p> : null}
      {!s ? (
        <Loading />
      ) : (
        <div className="adm-stack">
          <ChangeNotices message={message} failure={failure} />
          <div className="adm-card">
            <dl>
              <div className="adm-card__row">
                <dt>Client</dt>
                <dd>
                  {s.client_full_name} · {s.client_email} · {s.client_mobile}
                </dd>
              </div>
              <div className="adm-card__row">
                <dt>Package</dt>
                <dd>
                  {s.package_name} · {formatAmount(s.price)} · {s.channel === 'DESK' ? 'sold at the desk' : 'bought online'}
                  {s.payment_method ? ` (${s.payment_method})` : ''}
                </dd>
              </div>
              <div className="adm-card__row">
                <dt>Sessions</dt>
                <dd>
                  {s.sessions_total} in all: {s.sessions_used} used, <strong>{s.sessions_left} left</strong>
                  {s.sessions_expired ? `, ${s.sessions_expired} expired` : ''}
                  {s.sessions_refunded ? `, ${s.sessions_refunded} refunded` : ''}
                </dd>
              </div>
              <div className="adm-card__row">
                <dt>Expires</dt>
                <dd>{s.expires_on ? `${formatShortDate(s.expires_on)} (last day to use a session)` : '--'}</dd>
              </div>
              <div className="adm-card__row">
                <dt>Money</dt>
                <dd>
                  {formatAmount(s.paid)} held{s.refunded ? `, ${formatAmount(s.refunded)} refunded` : ''}
                </dd>
              </div>
            </dl>
          </div>
          <h3 id={`${id}-bookings`}>Sessions booked</h3>
          {s.bookings.length === 0 ? (
            <p className="muted">No session booked from this package yet.</p>
          ) : (
            <ul className="adm-cards" aria-labelledby={`${id}-bookings`}>
              {s.bookings.map((b) => (
                <li key={b.id}>
                  Booking {b.id}: {formatShortDate(b.booking_date)}, {formatTime(b.booking_time_slot_start)} with {b.therapist_name} ·{' '}
                  {b.credit === 'RETURNED'
                    ? 'cancelled in time, session returned'
                    : b.cancelled
                      ? 'cancelled late, session used'
                      : b.attendance === 'NO_SHOW'
                        ? 'no-show, session used'
                        : 'session used'}
                </li>
              ))}
            </ul>
          )}
          <h3 id={`${id}-credits`}>Credits ledger</h3>
          <ul className="adm-cards" aria-labelledby={`${id}-credits`}>
            {s.credits.map((c) => (
              <li key={`${c.kind}-${c.occurred_at}-${c.booking_id ?? ''}`}>
                {formatInstant(c.occurred_at)}: {c.kind} {c.sessions > 0 ? `+${c.sessions}` : c.sessions}
                {c.booking_id ? ` (booking ${c.booking_id})` : ''}
              </li>
            ))}
          </ul>
          {props.superadmin && s.status === 'PAID' ? (
            <div className="adm-form__grid">
              <form
                className="adm-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  run(packageApi.extend(s.id, expiresOn, reason.trim()), (r) => r.message);
                }}
              >
                <h3>Extend</h3>
                <label className="label" htmlFor={`${id}-until`}>
                  New last day
                </label>
                <input id={`${id}-until`} type="date" className="input" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
                <label className="label" htmlFor={`${id}-why`}>
                  Reason
                </label>
                <input id={`${id}-why`} className="input" value={reason} onChange={(e) => setReason(e.target.value)} />
                <button type="submit" className="btn btn-secondary" disabled={!expiresOn}>
                  Extend
                </button>
              </form>
              <form
                className="adm-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  run(packageApi.refund(s.id, method || undefined), (r) => r.message);
                }}
              >
                <h3>Refund unused sessions</h3>
                <p className="hint">
                  {s.refundable > 0
                    ? `${formatAmount(s.refundable)} for ${s.sessions_left} unused sessions, ${s.channel === 'DESK' ? 'handed back at the counter' : 'through the payment provider'}.`
                    : 'Nothing to refund.'}
                </p>
                {s.channel === 'DESK' ? (
                  <>
                    <label className="label" htmlFor={`${id}-refund-method`}>
                      Handed back by
                    </label>
                    <select id={`${id}-refund-method`} className="select" value={method} onChange={(e) => setMethod(e.target.value as DeskPaymentMethod)}>
                      <option value="">Select a method</option>
                      {DESK_PAYMENT_METHODS.map((m) => (
                        <option key={m} value={m}>
                          {DESK_METHOD_WORDS[m]}
                        </option>
                      ))}
                    </select>
                  </>
                ) : null}
                <button type="submit" className="btn btn-danger" disabled={s.refundable <= 0 || (s.channel === 'DESK' && !method)}>
                  Refund {formatAmount(s.refundable)}
                </button>
              </form>
            </div>
          ) : null}
        </div>
      )}
    </Modal>
  );
}
