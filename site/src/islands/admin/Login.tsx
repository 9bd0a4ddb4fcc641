/** 'Admin Login' (spec section 2): username or email and password. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { adminApi } from '../../lib/admin-api.ts';
import { ApiError } from '../../lib/api.ts';
import { MESSAGES } from '../../lib/admin-format.ts';
import { adminNav, afterSignIn } from '../../lib/admin-nav.ts';
import { clearSession, saveSession, takeFlash } from '../../stores/admin-session.ts';

export default function Login() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const uid = useId();
  const pid = useId();
  const eid = useId();

  useEffect(() => {
    const flash = takeFlash();
    if (flash) setError(flash);
  }, []);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const res = await adminApi.login(username.trim(), password);
      if (!res?.access_token) throw new Error(MESSAGES.loginFailed);
      const user = { username: res.username, is_superadmin: res.is_superadmin === true, is_admin: res.is_admin === true, is_active: res.is_active === true };
      if (!user.is_active) {
        clearSession();
        setError(MESSAGES.unauthorizedInactive);
        setBusy(false);
        return;
      }
      saveSession(res.access_token, user);
      adminNav.replace(afterSignIn(window.location.search));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : err instanceof Error && err.message && !(err instanceof TypeError) ? err.message : MESSAGES.loginFailed);
      setBusy(false);
    }
  }

  return (
    <main id="main" className="adm-login" tabIndex={-1}>
      <div className="adm-login__card card">
        <p className="adm-login__brand">Wellbeing Centre</p>
        <h1>Admin Login</h1>
        <form onSubmit={onSubmit} noValidate aria-describedby={error ? eid : undefined}>
          <div className="field">
            <label className="label" htmlFor={uid}>
              Email / Username
            </label>
            <input id={uid} className="input" name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
          </div>
          <div className="field">
            <label className="label" htmlFor={pid}>
              Password
            </label>
            <input
              id={pid}
              className="input"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {error ? (
            <p id={eid} className="adm-notice adm-notice--error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy || !username.trim() || !password}>
            {busy ? 'Logging in...' : 'Login'}
          </button>
        </form>
      </div>
    </main>
  );
}
