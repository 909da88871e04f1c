import {
  acceptInvitationBodySchema,
  inviteMemberBodySchema,
  organizationRoles,
  roleSchema,
  type InvitationView,
  type OrganizationMembership,
} from '@portal/contracts';
import { useEffect, useId, useState } from 'preact/hooks';
import { acceptInvitation, cancelInvitation, inviteMember, listInvitations } from '../api/endpoints.js';
import { ErrorMessage } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { Link } from '../components/link.js';
import { MyInvitations } from '../components/my-invitations.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { invitationHref, signInHref } from '../lib/routes.js';
import { refreshSession, type SessionState } from '../session.js';

const ADMIN_ROLES: ReadonlySet<string> = new Set(['admin', 'owner']);

type Role = (typeof organizationRoles)[number];

/** The address an invited person opens: the invitations page with the invitation filled in. */
const invitationLink = (id: string) => `${window.location.origin}${invitationHref(id)}`;

function FormMessage(props: { readonly errors: FormErrors; readonly testId: string }) {
  if (!props.errors.form) return null;
  return (
    <p class="error" role="alert" data-testid={props.testId}>
      {props.errors.form}
    </p>
  );
}

/**
 * The signed-in user's own pending invitations with Accept; accepting one by its id (the link an
 * inviter passes on carries it); and, for the active organization's admins and owners, inviting by
 * email and the pending invitations with cancel.
 */
export function InvitationsPage(props: {
  readonly session: SessionState;
  readonly invitationId: string | null;
}) {
  const me = props.session.me;
  if (!me) {
    const here = props.invitationId ? invitationHref(props.invitationId) : '/app/invitations';
    return (
      <section>
        <h1>Invitations</h1>
        <p>
          <Link href={signInHref(here)}>Sign in</Link> (or <Link href="/app/sign-up">sign up</Link> with the
          invited address) to accept an invitation.
        </p>
      </section>
    );
  }
  const active = props.session.view?.activeOrganization ?? null;
  return (
    <section class="invitations" data-testid="invitations">
      <h1>Invitations</h1>
      <AcceptingInvitations initialId={props.invitationId ?? ''} />
      {active && ADMIN_ROLES.has(active.role) ? (
        <OrganizationInvitations
          organizationName={active.name}
          ownRole={active.role}
          organizationId={active.id}
        />
      ) : null}
    </section>
  );
}

/** The user's own invitations and the form for a link's: either acceptance reads the list again. */
function AcceptingInvitations(props: { readonly initialId: string }) {
  const [joined, setJoined] = useState<OrganizationMembership | null>(null);
  const [accepted, setAccepted] = useState(0);
  const onAccepted = (membership: OrganizationMembership) => {
    setJoined(membership);
    setAccepted((count) => count + 1);
  };
  return (
    <>
      <MyInvitations reloadKey={accepted} onAccepted={onAccepted} />
      <AcceptForm initialId={props.initialId} onAccepted={onAccepted} />
      {joined ? (
        <p role="status" data-testid="joined">
          You are now {joined.role} of {joined.name}.
        </p>
      ) : null}
    </>
  );
}

function AcceptForm(props: {
  readonly initialId: string;
  readonly onAccepted: (membership: OrganizationMembership) => void;
}) {
  const [id, setId] = useState(props.initialId);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const checked = validate(acceptInvitationBodySchema, { invitationId: id.trim() });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      const membership = await acceptInvitation(checked.data.invitationId);
      setErrors(noErrors);
      setId('');
      // The new membership shows in the organization switcher and on the account page.
      await refreshSession();
      props.onAccepted(membership);
    } catch (caught) {
      setErrors(errorsOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h2>Accept an invitation by its link</h2>
      <form
        class="inline-form"
        data-testid="accept-form"
        noValidate
        onSubmit={(event) => {
          void submit(event);
        }}
      >
        <Field
          label="Invitation id"
          name="invitationId"
          value={id}
          onValue={setId}
          error={errors.fields['invitationId']}
          hint="From the link your inviter sent; the invitation is for the address you are signed in with."
        />
        <button type="submit" disabled={busy}>
          Accept
        </button>
      </form>
      <FormMessage errors={errors} testId="accept-error" />
    </>
  );
}

function OrganizationInvitations(props: {
  readonly organizationId: string;
  readonly organizationName: string;
  readonly ownRole: Role;
}) {
  const [items, setItems] = useState<readonly InvitationView[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [sent, setSent] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  const roleId = useId();
  // Only an owner invites owners (docs/identity.md).
  const roles = organizationRoles.filter((value) => value !== 'owner' || props.ownRole === 'owner');

  useEffect(() => {
    let live = true;
    listInvitations()
      .then((list) => {
        if (live) setItems(list.items);
      })
      .catch((caught: unknown) => {
        if (live) setError(caught);
      });
    return () => {
      live = false;
    };
  }, [props.organizationId, reads]);

  async function invite(event: Event) {
    event.preventDefault();
    const checked = validate(inviteMemberBodySchema, { email: email.trim(), role });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    try {
      const invitation = await inviteMember(checked.data);
      setSent(invitation.id);
      setErrors(noErrors);
      setEmail('');
      setReads((count) => count + 1);
    } catch (caught) {
      setErrors(errorsOf(caught));
    }
  }

  async function cancel(id: string) {
    try {
      await cancelInvitation(id);
      setReads((count) => count + 1);
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <>
      <h2>Invite to {props.organizationName}</h2>
      <form
        class="inline-form"
        data-testid="invite-form"
        noValidate
        onSubmit={(event) => {
          void invite(event);
        }}
      >
        <Field
          label="Email"
          name="email"
          type="email"
          value={email}
          onValue={setEmail}
          error={errors.fields['email']}
        />
        <div class="field">
          <label for={roleId}>Role</label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => {
              const chosen = roleSchema.safeParse(event.currentTarget.value);
              if (chosen.success) setRole(chosen.data);
            }}
          >
            {roles.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Invite</button>
      </form>
      <FormMessage errors={errors} testId="invite-error" />
      {sent ? (
        <p role="status">
          Invited. Send them this link: <code data-testid="invitation-link">{invitationLink(sent)}</code>
        </p>
      ) : null}

      <h2>Pending invitations</h2>
      <ErrorMessage error={error} />
      {items === null ? (
        <p aria-busy="true">Loading…</p>
      ) : items.length === 0 ? (
        <p class="empty">No pending invitations.</p>
      ) : (
        <div class="table-scroll">
          <table data-testid="pending-invitations">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Link</th>
                <th scope="col">
                  <span class="visually-hidden">Cancel</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((invitation) => (
                <tr key={invitation.id} data-testid="pending-invitation">
                  <td data-testid="invitation-email">{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{new Date(invitation.expiresAt).toLocaleString()}</td>
                  <td>
                    <code>{invitationLink(invitation.id)}</code>
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Cancel the invitation of ${invitation.email}`}
                      onClick={() => {
                        void cancel(invitation.id);
                      }}
                    >
                      Cancel
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
