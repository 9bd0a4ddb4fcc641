/** Staff (super admins, issue 20): accounts, invitations, deactivation and password resets. */
import { useId, useState, type FormEvent } from 'react';
import { catalogueApi, errorMessage } from '../../lib/admin-api.ts';
import { useQuery } from '../../lib/query.ts';
import { Badge, ChangeNotices, ErrorPanel, Loading } from './ui.tsx';
import { useChange } from './useChange.ts';
import { LabelledInput } from '../../lib/labelled-input.tsx';

export default function Staff() {
  const id = useId();
  const staff = useQuery('staff', {}, () => catalogueApi.users());
  const { message, failure, run } = useChange('The change was not saved.', staff.refresh);
  const [form, setForm] = useState({ username: '', email: '', is_superadmin: false, password: '' });

  const create = (e: FormEvent) => {
    e.preventDefault();
    const { password, ...rest } = form;
    run(catalogueApi.createUser(password ? { ...rest, password } : rest), () =>
      password ? `${form.username} can sign in now.` : `${form.username} was sent an invitation to set a password (valid 48 hours).`,
    );
    setForm({ username: '', email: '', is_superadmin: false, password: '' });
  };

  if (staff.error) return <ErrorPanel title="Error Loading Staff" message={errorMessage(staff.error, 'Failed to load the staff.')} onRetry={staff.refresh} />;
  const users = staff.data;
  if (!users) return <Loading />;
  return (
    <div className="adm-page">
      <header className="adm-page__head">
        <div>
          <h1>Staff</h1>
          <p className="muted">Admin accounts. Deactivating an account signs it out everywhere at once.</p>
        </div>
      </header>
      <ChangeNotices message={message} failure={failure} />
      <section className="adm-panel card" aria-labelledby={`${id}-list`}>
        <div className="adm-panel__head">
          <h2 id={`${id}-list`}>Accounts</h2>
        </div>
        <div className="adm-table-wrap" role="region" aria-label="Staff accounts table" tabIndex={0}>
          <table className="adm-table">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>{u.username}</td>
                  <td>{u.email}</td>
                  <td>{u.is_superadmin ? 'Super admin' : 'Admin'}</td>
                  <td>
                    {u.is_active ? <Badge tone="green">Active</Badge> : <Badge tone="grey">Inactive</Badge>}{' '}
                    {u.invitation_pending ? <Badge tone="yellow">Link sent</Badge> : null}
                  </td>
                  <td>
                    <div className="adm-btns">
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        aria-label={`${u.is_active ? 'Deactivate' : 'Activate'} ${u.username}`}
                        onClick={() =>
                          run(catalogueApi.setUserActive(u.id, !u.is_active), () => `${u.username} is now ${u.is_active ? 'inactive' : 'active'}.`)
                        }
                      >
                        {u.is_active ? 'Deactivate' : 'Activate'}
                      </button>
                      {u.is_active ? (
                        <button
                          type="button"
                          className="btn btn-secondary btn-sm"
                          aria-label={`Send ${u.username} a password reset link`}
                          onClick={() => run(catalogueApi.resetPassword(u.id), (r) => r.message)}
                        >
                          Reset password
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="adm-panel card" aria-labelledby={`${id}-new`}>
        <div className="adm-panel__head">
          <h2 id={`${id}-new`}>Add an account</h2>
        </div>
        <form className="adm-form" onSubmit={create} noValidate>
          <div className="adm-form__grid">
            <LabelledInput
              id={`${id}-u`}
              label="Username"
              autoComplete="off"
              value={form.username}
              onValue={(username) => setForm((f) => ({ ...f, username }))}
            />
            <LabelledInput id={`${id}-e`} label="E-mail" type="email" value={form.email} onValue={(email) => setForm((f) => ({ ...f, email }))} />
            <LabelledInput
              id={`${id}-p`}
              label="Password (leave empty to send an invitation e-mail instead)"
              fieldClass="field adm-form__full"
              type="password"
              autoComplete="new-password"
              value={form.password}
              onValue={(password) => setForm((f) => ({ ...f, password }))}
            >
              <p className="hint">At least 12 characters, not a common password.</p>
            </LabelledInput>
            <label className="checkbox adm-form__full">
              <input type="checkbox" checked={form.is_superadmin} onChange={(e) => setForm((f) => ({ ...f, is_superadmin: e.target.checked }))} /> Super admin
              (catalogue, staff, reports)
            </label>
          </div>
          <div className="btn-row adm-form__actions">
            <button type="submit" className="btn btn-primary">
              Add account
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
