-- Every event of the portal in the global order, with who did it and which object and organization it
-- concerns. The audit feed, the SSE change feed and webhook deliveries read it. Written in the
-- projector's batch transaction, after the portal-objects read model, so an object's row (organization,
-- place in the tree) is the one the same event produced.
CREATE TABLE IF NOT EXISTS audit_events (
  -- The order of projection. One projector writes at a time (advisory lock) and commits its batches in
  -- order, so seq is the global order; it is renumbered by a rebuild, `position` is not.
  seq bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  -- formatPosition of the event: opaque, totally ordered, the same after a rebuild (SSE ids, cursors).
  position text NOT NULL,
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  type text NOT NULL,
  -- The organization the event belongs to: the object's, or the organization's own events; NULL for
  -- user events and objects from before identity.
  org_id uuid,
  -- The portal object the event is about (NULL for identity events), its kind and its ancestors at the
  -- time of the event (the subtree filter: "everything that happened below this catalog"). A move holds
  -- the new path's ancestors followed by those of the path it left, so it is below both.
  object_id uuid,
  object_kind text,
  ancestor_ids uuid[] NOT NULL DEFAULT '{}',
  actor_id uuid,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL
);
-- The first version declared the position UNIQUE; the event id is the idempotence key (the projector's
-- ON CONFLICT), and the position gets a plain index with the other readers' ones (reader-indexes.sql).
ALTER TABLE audit_events DROP CONSTRAINT IF EXISTS audit_events_position_key;
