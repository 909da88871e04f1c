import type { OrganizationMembership, UserInvitation } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { acceptInvitation, listUserInvitations } from '../api/endpoints.js';
import { refreshSession } from '../session.js';
import { ErrorMessage } from './error-message.js';

/**
 * The signed-in user's own pending invitations (by the address they signed in with), each with
 * **Accept**: no link needed. `reloadKey` reads them again after an acceptance elsewhere on the page.
 */
export function MyInvitations(props: {
  readonly reloadKey: number;
  readonly onAccepted: (membership: OrganizationMembership) => void;
}) {
  const [items, setItems] = useState<readonly UserInvitation[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    listUserInvitations()
      .then((list) => {
        if (live) setItems(list.items);
      })
      .catch((caught: unknown) => {
        if (live) setError(caught);
      });
    return () => {
      live = false;
    };
  }, [props.reloadKey]);

  async function accept(invitation: UserInvitation) {
    setBusy(invitation.id);
    setError(null);
    try {
      const membership = await acceptInvitation(invitation.id);
      // The new membership shows in the organization switcher and on the account page.
      await refreshSession();
      props.onAccepted(membership);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <h2>Your invitations</h2>
      <ErrorMessage error={error} />
      {items === null ? (
        error ? null : (
          <p aria-busy="true">Loading…</p>
        )
      ) : items.length === 0 ? (
        <p class="empty" data-testid="no-user-invitations">
          No invitations for your address.
        </p>
      ) : (
        <ul class="user-invitations" data-testid="user-invitations">
          {items.map((invitation) => (
            <li key={invitation.id} data-testid="user-invitation">
              <span data-testid="user-invitation-text">
                {invitation.organizationName} as {invitation.role}
                {invitation.invitedByName ? `, from ${invitation.invitedByName}` : ''}
              </span>{' '}
              <span class="hint">until {new Date(invitation.expiresAt).toLocaleString()}</span>{' '}
              <button
                type="button"
                disabled={busy !== null}
                aria-label={`Accept the invitation to ${invitation.organizationName}`}
                onClick={() => {
                  void accept(invitation);
                }}
              >
                Accept
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
