/**
 * The `webhooks` schema (docs/webhooks.md). The API writes `endpoints` (registration, removal, enable);
 * the delivery worker (apps/upload-worker/src/webhooks) reads them, counts failures and disables an
 * endpoint, records every attempt in `deliveries` and keeps its place in `read.audit_events` in
 * `dispatch_cursor`. Migration 1 of
 * `apps/api/src/migrations/api-migrations.ts`; a change is a new migration there.
 */
export const webhookSchemaSql = `
CREATE SCHEMA IF NOT EXISTS webhooks;

-- The signing secret: the worker must sign with it, so it cannot be only a digest. It is sealed with
-- WEBHOOK_SECRET_KEY (AES-256-GCM, bound to the row's id: enc:v1:<key id>:…); a row written before
-- secrets were sealed holds whsec_… as it is until the API seals it at start. It never enters an event
-- or a log line; WebhookRegistered names the endpoint's host only, since the URL itself may carry the
-- receiver's token.
CREATE TABLE IF NOT EXISTS webhooks.endpoints (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL,
  url text NOT NULL,
  event_types text[] NOT NULL,
  description text,
  secret text NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  -- Events that occurred from here on are delivered: the registration, then each re-enable, so events
  -- of the time it was disabled are never sent, however late the dispatcher reads them.
  deliver_from timestamptz NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_at timestamptz,
  disabled_reason text,
  -- Deliveries whose every attempt failed, since the last one that succeeded.
  consecutive_failures integer NOT NULL DEFAULT 0,
  removed_at timestamptz
);
CREATE INDEX IF NOT EXISTS endpoints_org ON webhooks.endpoints (org_id, created_at) WHERE removed_at IS NULL;
-- After a rotation the previous secret (sealed like the current one) still signs deliveries, next to
-- the new one, until previous_secret_expires_at.
ALTER TABLE webhooks.endpoints ADD COLUMN IF NOT EXISTS previous_secret text;
ALTER TABLE webhooks.endpoints ADD COLUMN IF NOT EXISTS previous_secret_expires_at timestamptz;
ALTER TABLE webhooks.endpoints ADD COLUMN IF NOT EXISTS secret_rotated_at timestamptz;

-- One row per attempt, newest last.
CREATE TABLE IF NOT EXISTS webhooks.deliveries (
  seq bigserial PRIMARY KEY,
  webhook_id uuid NOT NULL,
  delivery_id uuid NOT NULL,
  -- The event's position (formatPosition): the payload's id, stable across a projector rebuild.
  event_id text NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  succeeded boolean NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_webhook ON webhooks.deliveries (webhook_id, seq);

-- How far the dispatcher has read read.audit_events: the seq of the last row, and its event id, since a
-- rebuild of the read model renumbers seq (the dispatcher then finds its place again by the event id).
CREATE TABLE IF NOT EXISTS webhooks.dispatch_cursor (
  name text PRIMARY KEY,
  last_seq bigint NOT NULL,
  last_event_id uuid
);`;
