-- How far each projection has applied the global event order. It lives inside the read schema on
-- purpose: a rebuild swaps it together with the tables it describes, and a live projector then finds
-- a position it did not write and resubscribes from there.
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  commit_position bigint NOT NULL,
  prepare_position bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Moves a checkpoint from where the batch found it to the batch's last event, or raises: the batch
-- sends this, its notification and COMMIT in one round trip, so a checkpoint that is no longer where
-- it was must abort the transaction rather than let the COMMIT after it go through. (The batch holds
-- the row lock since it read the checkpoint, so this raising means a bug, not a race.)
CREATE OR REPLACE FUNCTION projection_checkpoint_advance(
  projection text, expected_commit bigint, expected_prepare bigint, next_commit bigint, next_prepare bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE projection_checkpoints
     SET commit_position = next_commit, prepare_position = next_prepare, updated_at = now()
   WHERE name = projection AND commit_position = expected_commit AND prepare_position = expected_prepare;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'checkpoint % is no longer at (%, %)', projection, expected_commit, expected_prepare;
  END IF;
END $$;
