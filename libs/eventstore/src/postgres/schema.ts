import type pg from 'pg';
import { applySchema } from '@portal/platform';

export const defaultEventStoreSchema = 'eventstore';

const schemaNamePattern = /^[a-z_][a-z0-9_]{0,39}$/;

/** Schema names are interpolated into SQL, so only plain lower-case identifiers are accepted. */
export function validateSchemaName(schema: string): string {
  if (!schemaNamePattern.test(schema)) {
    throw new RangeError(`event store schema must match ${schemaNamePattern.source}, got "${schema}"`);
  }
  return schema;
}

/** The LISTEN/NOTIFY channel of one schema: appends in one schema never wake subscribers of another. */
export function notificationChannel(schema: string): string {
  return `${validateSchemaName(schema)}_appended`;
}

function schemaDdl(schema: string): string {
  const s = `"${validateSchemaName(schema)}"`;
  return `
    CREATE SCHEMA IF NOT EXISTS ${s};

    -- The current revision per stream. Its row lock serializes appends to one stream, so 'any' and
    -- 'exists' appends never fail on a race, and the expected-revision check is one UPDATE.
    CREATE TABLE IF NOT EXISTS ${s}.streams (
      stream_id text PRIMARY KEY,
      revision bigint NOT NULL CHECK (revision >= 0)
    );

    -- transaction_id is the commit barrier: subscribers only read rows of transactions older than the
    -- oldest one still running, so a late commit can never be skipped. The primary key is that order.
    CREATE TABLE IF NOT EXISTS ${s}.events (
      global_position bigserial NOT NULL,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_id text NOT NULL,
      stream_revision bigint NOT NULL,
      event_id uuid NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT events_pkey PRIMARY KEY (transaction_id, global_position),
      CONSTRAINT events_event_id_key UNIQUE (event_id),
      CONSTRAINT events_stream_revision_key UNIQUE (stream_id, stream_revision)
    );
  `;
}

/**
 * Creates the event store tables if they are missing. Idempotent and safe when several processes
 * start at once: a transaction-scoped advisory lock serializes the DDL.
 */
export async function ensureEventStoreSchema(
  pool: pg.Pool,
  options: { readonly schema?: string } = {},
): Promise<void> {
  const schema = options.schema ?? defaultEventStoreSchema;
  await applySchema(pool, `eventstore:${schema}`, schemaDdl(schema));
}
