/** Search Clients (/admin/patients): a name search over clients; a row opens their bookings. */
import { useId, useState, type FormEvent } from 'react';
import { adminApi, errorMessage } from '../../lib/admin-api.ts';
import { MESSAGES } from '../../lib/admin-format.ts';
import { adminNav, clientsSearchUrl } from '../../lib/admin-nav.ts';
import { useQuery } from '../../lib/query.ts';
import { Empty, Loading, useIsMobile } from './ui.tsx';

export default function Patients() {
  const [term, setTerm] = useState('');
  // What was searched for, and how many times: Search with the same term searches again. A search
  // with an empty term runs on load.
  const [search, setSearch] = useState({ name: '', times: 0 });
  const found = useQuery('patients', search, (q) => adminApi.searchClients(q.name));
  const { loading } = found;
  const error = found.error ? errorMessage(found.error, MESSAGES.searchFailed) : null;
  const results = found.data ?? [];
  const inputId = useId();
  // On a phone each client is a card: the table's e-mail column would run off the screen.
  const mobile = useIsMobile();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSearch((s) => ({ name: term.trim(), times: s.times + 1 }));
  }

  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Search Clients</h1>
          <p className="muted">Find a client by name, e-mail or mobile and open their bookings.</p>
        </div>
      </header>
      <section className="adm-panel card" aria-labelledby="patients-results">
        <form className="adm-search" role="search" onSubmit={onSubmit}>
          <label htmlFor={inputId} className="label">
            Client name
          </label>
          <div className="adm-search__row">
            <input id={inputId} className="input" type="search" value={term} placeholder="Name, e-mail or mobile" onChange={(e) => setTerm(e.target.value)} />
            <button type="submit" className="btn btn-primary" disabled={loading}>
              {loading ? 'Searching...' : 'Search'}
            </button>
          </div>
        </form>
        <h2 id="patients-results" className="adm-subhead">
          Results
        </h2>
        {error ? (
          <p className="adm-notice adm-notice--error" role="alert">
            {error}
          </p>
        ) : loading && results.length === 0 ? (
          <Loading label="Searching..." />
        ) : results.length === 0 ? (
          <Empty>{MESSAGES.noClientsFound}</Empty>
        ) : mobile ? (
          <ol className="adm-cards" aria-label="Search results">
            {results.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two clients may share a name and e-mail; the answer is drawn whole, never reordered.
              <li key={`${r.name}-${r.email}-${i}`} className="adm-card">
                <p className="adm-client-card__head">
                  <a href={clientsSearchUrl(r.name)}>{r.name}</a>
                </p>
                <dl>
                  <div className="adm-card__row">
                    <dt>Email</dt>
                    <dd className="adm-client__contact-dd">{r.email || '--'}</dd>
                  </div>
                  <div className="adm-card__row">
                    <dt>Mobile</dt>
                    <dd>{r.phone || '--'}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ol>
        ) : (
          <div className="adm-table-wrap" role="region" aria-label="Search results table" tabIndex={0}>
            <table className="adm-table adm-table--click">
              <thead>
                <tr>
                  <th scope="col">Sr No.</th>
                  <th scope="col">Patient Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Mobile</th>
                </tr>
              </thead>
              <tbody>
                {results.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two clients may share a name and e-mail; the answer is drawn whole, never reordered.
                  <tr key={`${r.name}-${r.email}-${i}`} onClick={() => adminNav.go(clientsSearchUrl(r.name))}>
                    <td>{i + 1}</td>
                    <td>
                      <a href={clientsSearchUrl(r.name)} onClick={(e) => e.stopPropagation()}>
                        {r.name}
                      </a>
                    </td>
                    <td>{r.email || '--'}</td>
                    <td>{r.phone || '--'}</td>
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
