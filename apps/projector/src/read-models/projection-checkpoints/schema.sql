-- How far each projection has applied the global event order. It lives inside the read schema on
-- purpose: a rebuild swaps it together with the tables it describes, and a live projector then finds
-- a position it did not write and resubscribes from there.
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
