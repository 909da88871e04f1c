import type { Pool } from '@portal/platform';

/**
 * What PostgreSQL's catalog says a schema is made of, as definitions with the schema's name replaced
 * by `<schema>`, so two schemas built alike compare equal: its columns, indexes, constraints, triggers,
 * extended statistics and functions, each sorted by table and name.
 */
export interface SchemaCatalog {
  readonly columns: readonly string[];
  readonly indexes: readonly string[];
  readonly constraints: readonly string[];
  readonly triggers: readonly string[];
  readonly statistics: readonly string[];
  readonly functions: readonly string[];
}

const queries: Record<keyof SchemaCatalog, string> = {
  columns: `
    SELECT format('%s.%s #%s %s %s default %s', c.relname, a.attname, a.attnum,
                  format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'not null' ELSE 'null' END,
                  COALESCE(pg_get_expr(d.adbin, d.adrelid), '-')) AS text
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  indexes: `
    SELECT format('%s: %s', i.relname, pg_get_indexdef(i.oid)) AS text
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE i.relnamespace = $1::regnamespace ORDER BY i.relname`,
  constraints: `
    SELECT format('%s.%s: %s', c.relname, k.conname, pg_get_constraintdef(k.oid)) AS text
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     WHERE k.connamespace = $1::regnamespace ORDER BY c.relname, k.conname`,
  triggers: `
    SELECT format('%s.%s: %s', c.relname, t.tgname, pg_get_triggerdef(t.oid)) AS text
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`,
  statistics: `
    SELECT format('%s: %s', s.stxname, pg_get_statisticsobjdef(s.oid)) AS text
      FROM pg_statistic_ext s WHERE s.stxnamespace = $1::regnamespace ORDER BY s.stxname`,
  functions: `
    SELECT format('%s(%s): %s', p.proname, pg_get_function_identity_arguments(p.oid), md5(p.prosrc)) AS text
      FROM pg_proc p WHERE p.pronamespace = $1::regnamespace ORDER BY 1`,
};

export async function schemaCatalog(pool: Pool, schema: string): Promise<SchemaCatalog> {
  const entries = await Promise.all(
    Object.entries(queries).map(async ([part, text]) => {
      const result = await pool.query<{ text: string }>(text, [schema]);
      return [part, result.rows.map((row) => row.text.split(schema).join('<schema>'))] as const;
    }),
  );
  return Object.fromEntries(entries) as unknown as SchemaCatalog;
}
