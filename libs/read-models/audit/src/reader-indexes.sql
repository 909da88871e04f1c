-- The audit trail's indexes that only readers use (the audit feed by organization, time, object, subtree
-- and actor; the change feed and cursors by position). The projector only appends rows, keyed by event id
-- (schema.sql). A normal start applies this file right after schema.sql; a rebuild applies it once its
-- replay reached the head (docs/projection.md, "Lean rebuilds").
-- Applied with search_path on the read schema, statement by statement: names no schema.

CREATE INDEX IF NOT EXISTS audit_events_org ON audit_events (org_id, seq);
CREATE INDEX IF NOT EXISTS audit_events_org_time ON audit_events (org_id, occurred_at, seq);
CREATE INDEX IF NOT EXISTS audit_events_object ON audit_events (object_id, seq) WHERE object_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS audit_events_ancestors ON audit_events USING gin (ancestor_ids);
CREATE INDEX IF NOT EXISTS audit_events_actor ON audit_events (org_id, actor_id, seq);
-- Cursors and SSE ids name events by position. Unique in every real store, but the event id is the
-- idempotence key, so the position gets a plain index (the first version declared it UNIQUE).
CREATE INDEX IF NOT EXISTS audit_events_position ON audit_events (position);
