import { createOrganizationBodySchema } from '@portal/contracts';
import { useState } from 'preact/hooks';
import { createOrganization } from '../api/endpoints.js';
import { Field } from '../components/field.js';
import { Link } from '../components/link.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { signInHref } from '../lib/routes.js';
import { refreshSession, type SessionState } from '../session.js';

/** The signed-in user, every organization they belong to with their role there, and a new one. */
export function AccountPage(props: { readonly session: SessionState }) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const me = props.session.me;
  if (!me) {
    return (
      <section>
        <h1>Account</h1>
        <p>
          <Link href={signInHref('/app/account')}>Sign in</Link> to see your organizations and roles.
        </p>
      </section>
    );
  }
  const activeId = props.session.view?.activeOrganization?.id;

  async function submit(event: Event) {
    event.preventDefault();
    const checked = validate(createOrganizationBodySchema, { name });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await createOrganization(checked.data);
      setName('');
      setErrors(noErrors);
      await refreshSession();
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section>
      <h1>{me.user.name}</h1>
      <p data-testid="account-email">{me.user.email}</p>
      {/* Shares name a user or an organization by id: this is where a person finds theirs to pass on. */}
      <p>
        User id: <code data-testid="account-user-id">{me.user.id}</code>
      </p>
      <h2>Organizations and roles</h2>
      <table data-testid="memberships">
        <thead>
          <tr>
            <th scope="col">Organization</th>
            <th scope="col">Role</th>
            <th scope="col">Id</th>
            <th scope="col">Joined</th>
          </tr>
        </thead>
        <tbody>
          {me.memberships.map((membership) => (
            <tr key={membership.id} aria-current={membership.id === activeId ? 'true' : undefined}>
              <td>
                {membership.name}
                {membership.personal && membership.role === 'owner' ? ' (personal)' : ''}
                {membership.id === activeId ? ' — active' : ''}
              </td>
              <td data-testid="membership-role">{membership.role}</td>
              <td>
                <code data-testid="membership-id">{membership.id}</code>
              </td>
              <td>{new Date(membership.joinedAt).toLocaleDateString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>New organization</h2>
      <form
        onSubmit={(event) => {
          void submit(event);
        }}
        noValidate
        class="inline-form"
      >
        <Field label="Name" name="name" value={name} onValue={setName} error={errors.fields['name']} />
        {errors.form ? (
          <p class="error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Create
        </button>
      </form>
    </section>
  );
}
