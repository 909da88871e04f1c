-- Totals of the inventory: live objects and the bytes of their assets per set of read principals, kind
-- and status. Every live object sits in exactly one row (that of its own `read_principals`, kind and
-- status), and a caller sees an object exactly when its `read_principals` overlap the caller's principals
-- (docs/identity.md). So the totals of everything a caller can see, unfiltered or filtered by kind and
-- status, are the sums over the rows whose `read_principals` overlap the caller's: exact for every
-- caller, from a few rows instead of a count of a million (apps/api/src/inventory/inventory-totals.ts).
--
-- The table grows with the distinct principal sets, not with the objects: a set is made of the object's
-- organization, its creator (`member:<org>/user:<id>` is in every set of an object with an organization),
-- its effective visibility and the share readers inherited along its path. So: about organizations ×
-- creators × 3 visibilities, times the distinct combinations of shares above objects, times the kinds and
-- statuses in use. A bucket that empties is deleted.
--
-- Kept by statement-level triggers on portal_objects rather than by event handlers: the totals are a
-- function of its rows (`read_principals`, kind, status, liveness and `asset_bytes`, which the projector
-- keeps beside the item), so each statement adds exactly the difference it made, whichever handler,
-- present or future, changed the rows: a subtree's visibility change, share or move rewrites
-- `read_principals` in one UPDATE, which moves its rows between buckets; a replayed event that changes no
-- row changes no total. A rebuild replays into fresh tables without the triggers (triggers.sql), then
-- creates them and fills the totals from the rows it replayed, in the same statements a read schema from
-- before this table gets them with; from there on the triggers keep them.
--
-- Applied with search_path on the read schema. The trigger bodies name no schema: each switches the
-- search_path to the schema of the table that fired it (TG_TABLE_SCHEMA, right after a rebuild's rename
-- too) and restores the caller's, so any session may write the tables, not only the projector's.

-- Before objects had readers the table was kept per organization and the bytes came from `assets`: a read schema from
-- then loses that table (it is filled again from the rows below) and the triggers on `assets`.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = 'inventory_totals'
                AND column_name = 'org_key') THEN
    DROP TABLE inventory_totals;
  END IF;
END $$;
DROP TRIGGER IF EXISTS inventory_totals_assets_inserted ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_updated ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_deleted ON assets;
DROP TRIGGER IF EXISTS inventory_totals_assets_truncated ON assets;
DROP FUNCTION IF EXISTS inventory_totals_assets_inserted();
DROP FUNCTION IF EXISTS inventory_totals_assets_updated();
DROP FUNCTION IF EXISTS inventory_totals_assets_deleted();
DROP FUNCTION IF EXISTS inventory_totals_assets_truncated();

CREATE TABLE IF NOT EXISTS inventory_totals (
  -- The objects' `read_principals` (sorted, distinct, as the projector writes them).
  read_principals text[] NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  object_count bigint NOT NULL,
  asset_bytes bigint NOT NULL,
  PRIMARY KEY (read_principals, kind, status)
);
