/**
 * The package sale a session (or a series' sessions) is paid from (issue 34): the paid sales with
 * sessions left and not past their last day, each with what is left and until when. `ownOnly` lists the
 * typed client's sales alone (matched by e-mail, as the server requires for a series); otherwise theirs
 * come first.
 */
import { centreNow } from '../../../../shared/domain/time.ts';
import { formatShortDate } from '../../lib/admin-format.ts';
import { packageApi } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';

export function PackageSaleSelect(props: {
  id: string;
  value: string;
  onChange: (saleId: string) => void;
  clientEmail: string;
  ownOnly?: boolean;
  errorId?: string | undefined;
}) {
  const { id, value, onChange, clientEmail, ownOnly = false, errorId } = props;
  const sales = useQuery('package-sales-live', {}, () => packageApi.sales({ status: 'PAID' }));
  const email = clientEmail.trim().toLowerCase();
  const today = centreNow().date;
  const open = (sales.data ?? [])
    .filter((s) => s.sessions_left > 0 && (!s.expires_on || s.expires_on >= today) && (!ownOnly || s.client_email === email))
    .sort((x, y) => Number(y.client_email === email) - Number(x.client_email === email));
  const placeholder = !sales.data
    ? 'Loading packages...'
    : ownOnly && open.length === 0
      ? 'This client has no package with sessions left'
      : 'Select a package sale';
  return (
    <select
      id={id}
      className="select"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      {...(errorId ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {})}
    >
      <option value="">{placeholder}</option>
      {open.map((s) => (
        <option key={s.id} value={s.id}>
          {`Sale ${s.id}: ${s.client_full_name}, ${s.package_name}, ${s.sessions_left} of ${s.sessions_total} left, until ${s.expires_on ? formatShortDate(s.expires_on) : '--'}`}
        </option>
      ))}
    </select>
  );
}
