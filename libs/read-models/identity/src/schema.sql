-- Users, organizations, memberships and invitations, from the identity events (user-<id> and org-<id>
-- streams). The API reads them for the caller's current role on every request, for organization lists
-- and for invitations. Credentials, sessions and API key digests are not here: the API keeps them in its
-- own `auth` schema and they never enter an event.
--
-- The projector finds these rows by their keys only; the indexes the API's lookups use (by email, a user's
-- organizations, an organization's or an email's invitations) are in reader-indexes.sql.
--
-- Applied with search_path on the read schema: names no schema.
CREATE TABLE IF NOT EXISTS users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  -- When the operator disabled the account (UserDisabled).
  disabled_at timestamptz
);

CREATE TABLE IF NOT EXISTS organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL,
  -- The organization every user gets at sign-up.
  personal boolean NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Revision of the last event of the organization's stream applied to any row of it: every handler
  -- moves it forward first and does nothing when it cannot, so an event applied twice changes nothing.
  version bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS org_members (
  org_id uuid NOT NULL,
  user_id uuid NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin', 'owner')),
  joined_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);

CREATE TABLE IF NOT EXISTS org_invitations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL,
  -- Lower-cased: only a user signed in with this email can accept.
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin', 'owner')),
  invited_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid,
  -- Ended before acceptance (InvitationCancelled): by an admin, or because its sender was removed or
  -- demoted.
  cancelled_at timestamptz,
  cancel_reason text CHECK (cancel_reason IN ('cancelled', 'inviter-removed', 'inviter-demoted'))
);
