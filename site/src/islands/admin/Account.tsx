/** My account (every admin, issue 20): change one's own password; other sessions end, this one goes on. */
import { useId, useState, type FormEvent } from 'react';
import { catalogueApi } from '../../lib/admin-api.ts';
import { saveSession } from '../../stores/admin-session.ts';
import { ChangeNotices, PasswordField } from './ui.tsx';
import { useChange } from './useChange.ts';

export default function Account() {
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const { message, failure, run } = useChange('The password was not changed.');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(catalogueApi.changeMyPassword(current, next), (r) => {
      saveSession(r.access_token, { username: r.username, is_superadmin: r.is_superadmin, is_admin: r.is_admin, is_active: r.is_active });
      setCurrent('');
      setNext('');
      return r.message;
    });
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
        <ChangeNotices message={message} failure={failure} />
        <form className="adm-form" onSubmit={submit} noValidate>
          <div className="adm-form__grid">
            <PasswordField id={`${id}-c`} label="Current password" autoComplete="current-password" value={current} onChange={setCurrent} />
            <PasswordField id={`${id}-n`} label="New password" autoComplete="new-password" value={next} onChange={setNext} rule />
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
