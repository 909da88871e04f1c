-- Totals of the inventory: live objects per organization, kind and status, and the bytes of the assets
-- of the live items among them. The API answers an unfiltered (or kind/status-filtered) inventory's
-- totals from these few rows instead of counting a million.
--
-- Kept by statement-level triggers on portal_objects and assets rather than by event handlers: the
-- totals are a function of those two tables' rows, so each statement adds exactly the difference it made
-- (a replayed event that changes no row changes no total; a rebuild replays into fresh tables with these
-- triggers and rebuilds the totals with them), whichever handler, present or future, changed the rows.
--
-- Applied with search_path on the read schema. The trigger bodies name no schema: each switches the
-- search_path to the schema of the table that fired it (TG_TABLE_SCHEMA, right after a rebuild's rename
-- too) and restores the caller's, so any session may write the tables, not only the projector's. One statement
-- should change portal_objects or assets, not both (two data-modifying CTEs on them would count a new
-- item's new asset twice).
CREATE TABLE IF NOT EXISTS inventory_totals (
  -- The object's org_id, or the zero UUID for objects recorded without one.
  org_key uuid NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  object_count bigint NOT NULL,
  asset_bytes bigint NOT NULL,
  PRIMARY KEY (org_key, kind, status)
);

-- Each function adds the statement's difference to the buckets it touched, in one upsert per statement.
CREATE OR REPLACE FUNCTION inventory_totals_objects_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT COALESCE(n.org_id, '00000000-0000-0000-0000-000000000000'), n.kind, n.status, count(*),
         COALESCE(sum((SELECT sum(a.size_bytes) FROM assets a WHERE a.item_id = n.id AND n.kind = 'item')), 0)
    FROM inserted_objects n
   WHERE n.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE
    SET object_count = t.object_count + excluded.object_count, asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

-- Most updates (child counts, titles, moves) leave every row in its bucket: those return after one
-- look, and otherwise only the rows whose organization, kind, status or liveness changed count.
CREATE OR REPLACE FUNCTION inventory_totals_objects_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  IF NOT EXISTS (
    SELECT 1 FROM updated_objects_old o FULL JOIN updated_objects_new n USING (id)
     WHERE (o.org_id, o.kind, o.status, o.deleted_at IS NULL) IS DISTINCT FROM (n.org_id, n.kind, n.status, n.deleted_at IS NULL)
  ) THEN
    PERFORM set_config('search_path', caller_path, true);
    RETURN NULL;
  END IF;
  WITH pairs AS (
    SELECT id,
           o.id IS NOT NULL AND o.deleted_at IS NULL AS was_live,
           COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000') AS old_org, o.kind AS old_kind, o.status AS old_status,
           n.id IS NOT NULL AND n.deleted_at IS NULL AS is_live,
           COALESCE(n.org_id, '00000000-0000-0000-0000-000000000000') AS new_org, n.kind AS new_kind, n.status AS new_status
      FROM updated_objects_old o FULL JOIN updated_objects_new n USING (id)
  ), shifted AS (
    SELECT old_org AS org_key, old_kind AS kind, old_status AS status, -1 AS sign, id FROM pairs
     WHERE was_live AND (NOT is_live OR (old_org, old_kind, old_status) IS DISTINCT FROM (new_org, new_kind, new_status))
    UNION ALL
    SELECT new_org, new_kind, new_status, 1, id FROM pairs
     WHERE is_live AND (NOT was_live OR (old_org, old_kind, old_status) IS DISTINCT FROM (new_org, new_kind, new_status))
  )
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT s.org_key, s.kind, s.status, sum(s.sign),
         COALESCE(sum(s.sign * (SELECT sum(a.size_bytes) FROM assets a WHERE a.item_id = s.id AND s.kind = 'item')), 0)
    FROM shifted s
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE
    SET object_count = t.object_count + excluded.object_count, asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_objects_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000'), o.kind, o.status, -count(*),
         -COALESCE(sum((SELECT sum(a.size_bytes) FROM assets a WHERE a.item_id = o.id AND o.kind = 'item')), 0)
    FROM deleted_objects o
   WHERE o.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE
    SET object_count = t.object_count + excluded.object_count, asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

-- Asset rows move bytes into (or out of) the bucket of their item while the item is live.
CREATE OR REPLACE FUNCTION inventory_totals_assets_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000'), o.kind, o.status, 0, sum(a.size_bytes)
    FROM inserted_assets a JOIN portal_objects o ON o.id = a.item_id AND o.kind = 'item' AND o.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE SET asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_assets_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000'), o.kind, o.status, 0, sum(a.size_bytes)
    FROM (SELECT item_id, size_bytes FROM updated_assets_new
          UNION ALL SELECT item_id, -size_bytes FROM updated_assets_old) a
    JOIN portal_objects o ON o.id = a.item_id AND o.kind = 'item' AND o.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE SET asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_assets_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  INSERT INTO inventory_totals AS t (org_key, kind, status, object_count, asset_bytes)
  SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000'), o.kind, o.status, 0, -sum(a.size_bytes)
    FROM deleted_assets a JOIN portal_objects o ON o.id = a.item_id AND o.kind = 'item' AND o.deleted_at IS NULL
   GROUP BY 1, 2, 3
  ON CONFLICT (org_key, kind, status) DO UPDATE SET asset_bytes = t.asset_bytes + excluded.asset_bytes;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_objects_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  DELETE FROM inventory_totals;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inventory_totals_assets_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE caller_path text := current_setting('search_path');
BEGIN
  PERFORM set_config('search_path', format('%I, public', TG_TABLE_SCHEMA), true);
  UPDATE inventory_totals SET asset_bytes = 0 WHERE asset_bytes <> 0;
  PERFORM set_config('search_path', caller_path, true);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER inventory_totals_objects_inserted AFTER INSERT ON portal_objects
  REFERENCING NEW TABLE AS inserted_objects FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_inserted();
CREATE OR REPLACE TRIGGER inventory_totals_objects_updated AFTER UPDATE ON portal_objects
  REFERENCING OLD TABLE AS updated_objects_old NEW TABLE AS updated_objects_new
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_updated();
CREATE OR REPLACE TRIGGER inventory_totals_objects_deleted AFTER DELETE ON portal_objects
  REFERENCING OLD TABLE AS deleted_objects FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_deleted();
CREATE OR REPLACE TRIGGER inventory_totals_objects_truncated AFTER TRUNCATE ON portal_objects
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_objects_truncated();
CREATE OR REPLACE TRIGGER inventory_totals_assets_inserted AFTER INSERT ON assets
  REFERENCING NEW TABLE AS inserted_assets FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_assets_inserted();
CREATE OR REPLACE TRIGGER inventory_totals_assets_updated AFTER UPDATE ON assets
  REFERENCING OLD TABLE AS updated_assets_old NEW TABLE AS updated_assets_new
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_assets_updated();
CREATE OR REPLACE TRIGGER inventory_totals_assets_deleted AFTER DELETE ON assets
  REFERENCING OLD TABLE AS deleted_assets FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_assets_deleted();
CREATE OR REPLACE TRIGGER inventory_totals_assets_truncated AFTER TRUNCATE ON assets
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_totals_assets_truncated();

-- A read schema that existed before this table (or whose totals were never filled) gets them from its
-- rows once. The triggers above already hold their table locks, so no write slips between the two.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM inventory_totals) THEN
    INSERT INTO inventory_totals (org_key, kind, status, object_count, asset_bytes)
    SELECT COALESCE(o.org_id, '00000000-0000-0000-0000-000000000000'), o.kind, o.status, count(*),
           COALESCE(sum(b.bytes), 0)
      FROM portal_objects o
      LEFT JOIN (SELECT item_id, sum(size_bytes) AS bytes FROM assets GROUP BY item_id) b
        ON b.item_id = o.id AND o.kind = 'item'
     WHERE o.deleted_at IS NULL
     GROUP BY 1, 2, 3;
  END IF;
END $$;
