/** My account (every admin, issue 20): change one's own password; other sessions end, this one goes on. */
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/admin-api.ts';
import { catalogueApi } from '../../lib/catalogue-api.ts';
import { saveSession } from '../../stores/admin-session.ts';

export default function Account() {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    setFailure(null);
    catalogueApi.changeMyPassword(current, next).then(
      (r) => {
        saveSession(r.access_token, { username: r.username, is_superadmin: r.is_superadmin, is_admin: r.is_admin, is_active: r.is_active });
        setMessage(r.message);
        setCurrent('');
        setNext('');
      },
      (err: unknown) => setFailure(errorMessage(err, 'The password was not changed.')),
    );
  };
  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>My account</h1>
          <p className="muted">Change your password. Your other sessions are signed out.</p>
        </div>
      </header>
      <section className="adm-panel card" aria-labelledby={`${id}-h`}>
        <div className="adm-panel__head">
          <h2 id={`${id}-h`}>Change password</h2>
        </div>
        {message ? (
          <p className="adm-notice adm-notice--success" role="status">
            {message}
          </p>
        ) : null}
        {failure ? (
          <p className="adm-notice adm-notice--error" role="alert">
            {failure}
          </p>
        ) : null}
        <form className="adm-form" onSubmit={submit} noValidate>
          <div className="adm-form__grid">
            <div className="field">
              <label className="label" htmlFor={`${id}-c`}>
                Current password
              </label>
              <input id={`${id}-c`} type="password" className="input" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
            </div>
            <div className="field">
              <label className="label" htmlFor={`${id}-n`}>
                New password
              </label>
              <input id={`${id}-n`} type="password" className="input" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-describedby={`${id}-hint`} />
              <p className="hint" id={`${id}-hint`}>
                At least 12 characters, not a common password.
              </p>
            </div>
          </div>
          <div className="btn-row adm-form__actions">
            <button type="submit" className="btn btn-primary">
              Change password
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
