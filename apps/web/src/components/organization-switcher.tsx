import { useState } from 'preact/hooks';
import { setActiveOrganization } from '../api/endpoints.js';
import { applySessionView, type SessionState } from '../session.js';
import { ErrorMessage } from './error-message.js';

/** The organization the session acts in; every view shows what that membership may see. */
export function OrganizationSwitcher(props: { readonly session: SessionState }) {
  const [error, setError] = useState<unknown>(null);
  const memberships = props.session.me?.memberships ?? [];
  const active = props.session.view?.activeOrganization ?? null;
  if (memberships.length === 0) return null;

  async function change(event: Event) {
    const organizationId = (event.currentTarget as HTMLSelectElement).value;
    setError(null);
    try {
      await applySessionView(await setActiveOrganization(organizationId));
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <div class="org-switcher">
      <label>
        <span class="visually-hidden">Organization</span>
        <select
          data-testid="organization-switcher"
          value={active?.id ?? ''}
          onChange={(event) => {
            void change(event);
          }}
        >
          {memberships.map((membership) => (
            <option key={membership.id} value={membership.id}>
              {membership.name} ({membership.role})
            </option>
          ))}
        </select>
      </label>
      {active ? (
        <span class="role" data-testid="active-role">
          {active.role}
        </span>
      ) : null}
      <ErrorMessage error={error} />
    </div>
  );
}
