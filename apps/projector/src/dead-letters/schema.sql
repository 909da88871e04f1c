-- Events a projection could not apply after its retries. Operational, not a read model: it lives in
-- the `projector` schema so a rebuild (which swaps the read schema) keeps the record.
CREATE TABLE IF NOT EXISTS dead_letters (
  id bigserial PRIMARY KEY,
  projection text NOT NULL,
  event_id text NOT NULL,
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  -- formatPosition(): "<commit>.<prepare>".
  position text NOT NULL,
  type text NOT NULL,
  error text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS dead_letters_event ON dead_letters (event_id);
