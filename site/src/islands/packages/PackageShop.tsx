/**
 * /packages (issue 34): the wizard's "Packages" choice. The packages on sale, and buying one: the
 * client's details, the terms, then the payment link (paid once; the package's sessions are theirs
 * when the payment is captured). The private link to the package comes back from the payment and by
 * e-mail. No zod here: the page's CSP forbids eval.
 */
import { useId, useState, type FormEvent } from 'react';
import { formatPrice } from '../../../../shared/domain/money.ts';
import { ApiError, getPackages, purchasePackage, type PublicPackageDto } from '../../lib/api.ts';
import { Loading, StateView, useLoad } from '../booking/common.tsx';
import { LabelledInput } from '../../lib/labelled-input.tsx';

export const SHOP_TEXT = {
  loading: 'Loading packages...',
  none: 'No packages are on offer just now. Please book a single session instead.',
  failed: 'We could not load the packages. Please try again.',
  formIncomplete: 'Please enter your full name, e-mail and 10-digit mobile number, and accept the terms and conditions.',
  paying: 'Taking you to the secure payment page...',
} as const;

const TYPE_WORDS: Record<string, string> = { ONLINE: 'online', OFFLINE: 'in person' };

function coverText(p: PublicPackageDto): string {
  const types = p.session_types.length === 1 ? `${TYPE_WORDS[p.session_types[0]!]} sessions` : 'online or in-person sessions';
  return p.therapist_ids.length ? `${types} with selected therapists` : `${types} with any of our therapists`;
}

/** A key the server recognises a retried purchase by. */
function requestKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function PackageShop() {
  const id = useId();
  const list = useLoad(getPackages, 'packages');
  const [chosen, setChosen] = useState<PublicPackageDto | null>(null);
  const [form, setForm] = useState({ name: '', email: '', mobile: '', terms: false });
  const [key] = useState(requestKey);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (list.status === 'loading') return <Loading text={SHOP_TEXT.loading} />;
  if (list.status === 'error') {
    return (
      <StateView title="Something went wrong" tone="error" alert>
        <p>{SHOP_TEXT.failed}</p>
        <button type="button" className="btn btn-secondary" onClick={list.reload}>
          Try again
        </button>
      </StateView>
    );
  }
  if (list.data.length === 0) return <StateView title="No packages">{<p>{SHOP_TEXT.none}</p>}</StateView>;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const mobile = form.mobile.replace(/\D/g, '').slice(-10);
    if (!chosen || !form.name.trim() || !/^\S+@\S+\.\S+$/.test(form.email.trim()) || mobile.length !== 10 || !form.terms) {
      setError(SHOP_TEXT.formIncomplete);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await purchasePackage({
        package_id: chosen.id,
        client_full_name: form.name.trim(),
        client_email: form.email.trim(),
        client_mobile: mobile,
        request_key: key,
      });
      window.location.assign(res.payment_link_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to start the purchase. Please try again.');
      setBusy(false);
    }
  };

  return (
    <div className="package-shop">
      <fieldset className="choice-grid choice-grid--two">
        <legend className="visually-hidden">Packages</legend>
        {list.data.map((p) => (
          <label key={p.id} className={`choice-card${chosen?.id === p.id ? ' is-selected' : ''}`}>
            <input type="radio" name="package" value={p.id} checked={chosen?.id === p.id} onChange={() => setChosen(p)} className="choice-input" />
            <span className="choice-body">
              <span className="choice-title">{p.name}</span>
              <span className="choice-text">
                {p.sessions_count} sessions for {formatPrice(p.price)}
              </span>
              <span className="choice-points">
                <span className="choice-point">{coverText(p)}</span>
                <span className="choice-point">to be used within {p.validity_days} days</span>
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {chosen ? (
        <form className="card package-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>Your details</h2>
          <LabelledInput id={`${id}-name`} label="Full name" autoComplete="name" value={form.name} onValue={(name) => setForm((f) => ({ ...f, name }))} />
          <LabelledInput
            id={`${id}-email`}
            label="E-mail"
            type="email"
            autoComplete="email"
            value={form.email}
            onValue={(email) => setForm((f) => ({ ...f, email }))}
          />
          <LabelledInput
            id={`${id}-mobile`}
            label="Mobile number"
            type="tel"
            autoComplete="tel"
            value={form.mobile}
            onValue={(mobile) => setForm((f) => ({ ...f, mobile }))}
          />
          <label className="checkbox">
            <input type="checkbox" checked={form.terms} onChange={(e) => setForm((f) => ({ ...f, terms: e.target.checked }))} /> I accept the{' '}
            <a href="/terms-and-conditions" target="_blank" rel="noopener">
              terms and conditions<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </label>
          {error ? (
            <p className="error-text" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? SHOP_TEXT.paying : `Pay ${formatPrice(chosen.price)}`}
          </button>
        </form>
      ) : null}
    </div>
  );
}
