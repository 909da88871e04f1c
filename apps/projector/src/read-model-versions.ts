import type { Projection, Sql } from '@portal/read-model-core';
import { quoteIdentifier } from '@portal/read-model-core';

/**
 * The versions a read schema was built with (`ReadModel.version`), one row per read model. Run with
 * `search_path` on the read schema, like the read models' own DDL.
 */
const readModelVersionsDdl = `
  CREATE TABLE IF NOT EXISTS read_model_versions (
    name text PRIMARY KEY,
    version integer NOT NULL
  )`;

async function tableExists(sql: Sql, schema: string, table: string): Promise<boolean> {
  const found = await sql.query<{ found: boolean }>(
    `SELECT to_regclass(format('%I.%I', $1::text, $2::text)) IS NOT NULL AS found`,
    [schema, table],
  );
  return found.rows[0]?.found === true;
}

/** Whether `schema` already holds a projection (its checkpoint table). */
export function schemaIsFilled(sql: Sql, schema: string): Promise<boolean> {
  return tableExists(sql, schema, 'projection_checkpoints');
}

/** The versions recorded in `schema`; `null` when it has no record at all. */
export async function recordedVersions(sql: Sql, schema: string): Promise<Map<string, number> | null> {
  if (!(await tableExists(sql, schema, 'read_model_versions'))) return null;
  const rows = await sql.query<{ name: string; version: number }>(
    `SELECT name, version FROM ${quoteIdentifier(schema)}.read_model_versions`,
  );
  return new Map(rows.rows.map((row) => [row.name, row.version]));
}

/** Whether `schema` holds a projection built at exactly `projection`'s read model versions. */
export async function readSchemaIsCurrent(
  sql: Sql,
  schema: string,
  projection: Projection,
): Promise<boolean> {
  if (!(await schemaIsFilled(sql, schema))) return false;
  const recorded = await recordedVersions(sql, schema);
  return recorded !== null && versionsMatch(recorded, projection);
}

/**
 * Whether `recorded` is exactly what `projection`'s code builds: the same read models at the same versions.
 * A read model added since (its table would miss history) or dropped since counts as a difference too.
 */
export function versionsMatch(recorded: ReadonlyMap<string, number>, projection: Projection): boolean {
  return (
    recorded.size === projection.readModels.length &&
    projection.readModels.every((readModel) => recorded.get(readModel.name) === readModel.version)
  );
}

/** Records `projection`'s versions in the schema `search_path` names, which its DDL has just built. */
export async function recordVersions(sql: Sql, projection: Projection): Promise<void> {
  await sql.query(readModelVersionsDdl);
  await sql.query('DELETE FROM read_model_versions');
  for (const readModel of projection.readModels) {
    await sql.query('INSERT INTO read_model_versions (name, version) VALUES ($1, $2)', [
      readModel.name,
      readModel.version,
    ]);
  }
}
