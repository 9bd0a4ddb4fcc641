/**
 * The set-password link of a staff invitation or reset (issue 20). The token is in the address's
 * fragment (#token=…), which the browser never sends to the server; the page posts it once.
 */
import { useId, useState, type FormEvent } from 'react';
import { catalogueApi, errorMessage } from '../../lib/admin-api.ts';
import { ADMIN_ROUTES } from '../../lib/admin-nav.ts';
import { PasswordField } from './ui.tsx';

function tokenFromHash(): string {
  if (typeof window === 'undefined') return '';
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export default function SetPassword() {
  const id = useId();
  const [token] = useState(tokenFromHash);
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (password !== again) return setFailure('The two passwords differ.');
    catalogueApi.setPasswordWithLink(token, password).then(
      (r) => {
        setMessage(`${r.message} Your username is ${r.username}.`);
        window.history.replaceState(null, '', window.location.pathname);
      },
      (err: unknown) => setFailure(errorMessage(err, 'The password was not set.')),
    );
  };
  return (
    <main id="main" className="adm-login">
      <div className="adm-login__card card">
        <h1>Set your password</h1>
        {message ? (
          <>
            <p className="adm-notice adm-notice--success" role="status">
              {message}
            </p>
            <a className="btn btn-primary" href={ADMIN_ROUTES.login}>
              Sign in
            </a>
          </>
        ) : !token ? (
          <p className="adm-notice adm-notice--error" role="alert">
            This link is incomplete. Open the link from your e-mail again.
          </p>
        ) : (
          <form onSubmit={submit} noValidate>
            {failure ? (
              <p className="adm-notice adm-notice--error" role="alert">
                {failure}
              </p>
            ) : null}
            <PasswordField id={`${id}-p`} label="New password" autoComplete="new-password" value={password} onChange={setPassword} rule />
            <PasswordField id={`${id}-a`} label="New password again" autoComplete="new-password" value={again} onChange={setAgain} />
            <button type="submit" className="btn btn-primary btn-block">
              Set password
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
