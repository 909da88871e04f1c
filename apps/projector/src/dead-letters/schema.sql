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

-- What the operator decided about a dead letter's event (`npm run admin -- dead-letters …`,
-- docs/admin-cli.md): one row per event, written once and never changed or deleted, so it stays what an
-- auditor reads. `applied`: a retry applied the event; `skipped`: the projection passed over it without
-- applying it (a rebuild passes over it too), and `reason` says why. `operator` names who decided.
CREATE TABLE IF NOT EXISTS dead_letter_resolutions (
  projection text NOT NULL,
  event_id text NOT NULL,
  dead_letter_id bigint NOT NULL REFERENCES dead_letters (id),
  position text NOT NULL,
  type text NOT NULL,
  action text NOT NULL CHECK (action IN ('applied', 'skipped')),
  reason text CHECK (action <> 'skipped' OR length(btrim(reason)) > 0),
  operator text NOT NULL,
  resolved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (projection, event_id)
);
