-- Read model of every portal object (catalog, collection, item).
-- Applied with search_path set to the target schema ("read", or a fresh one during rebuild).
CREATE TABLE IF NOT EXISTS portal_objects (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('catalog', 'collection', 'item')),
  status text NOT NULL,
  title text NOT NULL,
  description text,
  parent_id uuid,
  org_id uuid,
  -- Unique among live siblings; derived from the title.
  slug text NOT NULL,
  -- Ancestor ids from the root level down to the parent; empty at root level.
  ancestor_ids uuid[] NOT NULL DEFAULT '{}',
  depth integer NOT NULL,
  child_count integer NOT NULL DEFAULT 0,
  links jsonb NOT NULL DEFAULT '[]',
  license text,
  keywords jsonb,
  -- Extent given on create; NULL means computed from ready items below.
  extent jsonb,
  bbox double precision[],
  tags jsonb NOT NULL DEFAULT '[]',
  -- Stream revision of the last event applied: the idempotence guard.
  version bigint NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);

CREATE UNIQUE INDEX IF NOT EXISTS portal_objects_sibling_slug
  ON portal_objects (COALESCE(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), slug)
  WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_objects_parent ON portal_objects (parent_id, kind, title, id) WHERE deleted_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_objects_kind_created ON portal_objects (kind, created_at, id) WHERE deleted_at IS NULL;
-- fastupdate off: subtree moves and deletes search this index inside busy batches, and a pending list
-- (scanned whole by every search) would make them slower the more objects were created recently.
CREATE INDEX IF NOT EXISTS portal_objects_ancestors ON portal_objects USING gin (ancestor_ids) WITH (fastupdate = off);
