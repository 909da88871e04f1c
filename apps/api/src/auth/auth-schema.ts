/**
 * The API's own `auth` schema: what must never enter an event (password hashes, digests of session ids
 * and API keys) and the uniqueness the event store cannot give (one account per email, one organization
 * per slug). Migration 1 of `api-migrations.ts`; a change is a new migration there.
 */
export const authSchemaSql = `
CREATE SCHEMA IF NOT EXISTS auth;

-- One row per account. The row is written first and reserves the email; sign-up then appends the user's
-- events and deletes the row again if that fails. A row whose user stream never came to exist (a process
-- that died in between) may be taken over by a later sign-up.
CREATE TABLE IF NOT EXISTS auth.credentials (
  user_id uuid PRIMARY KEY,
  email text NOT NULL,
  -- scrypt$<log2 N>$<r>$<p>$<salt>$<hash>, base64.
  password_hash text NOT NULL,
  personal_org_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS credentials_email ON auth.credentials (lower(email));
-- Set with UserDisabled (the operator's \`users disable\`, docs/admin-cli.md) and what authentication
-- trusts, as it trusts api_keys.revoked_at: no sign-in, session, token or API key of the user passes.
ALTER TABLE auth.credentials ADD COLUMN IF NOT EXISTS disabled_at timestamptz;

-- Slugs of organizations, reserved the same way before OrganizationCreated is appended.
CREATE TABLE IF NOT EXISTS auth.organization_slugs (
  slug text PRIMARY KEY,
  org_id uuid NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The cookie holds a random secret; only its SHA-256 digest is stored, so a leaked table opens nothing.
-- public_id names the session everywhere else (responses, JWT sid, logs).
CREATE TABLE IF NOT EXISTS auth.sessions (
  id_digest text PRIMARY KEY,
  public_id uuid NOT NULL UNIQUE,
  user_id uuid NOT NULL,
  active_org_id uuid NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS sessions_user ON auth.sessions (user_id);
CREATE INDEX IF NOT EXISTS sessions_expires_at ON auth.sessions (expires_at);

-- API keys: the SHA-256 digest of the key, never the key. Created and revoked alongside ApiKeyCreated
-- and ApiKeyRevoked in the organization's stream; this row is what authentication trusts.
CREATE TABLE IF NOT EXISTS auth.api_keys (
  id uuid PRIMARY KEY,
  digest text NOT NULL UNIQUE,
  org_id uuid NOT NULL,
  created_by uuid NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'admin', 'owner')),
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS api_keys_org ON auth.api_keys (org_id, created_at);`;
