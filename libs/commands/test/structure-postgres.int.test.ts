import { randomUUID } from 'node:crypto';
import { ensureEventStoreSchema, PostgresEventStore } from '@portal/eventstore';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { structureContract } from './structure-contract.js';

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
const pool = new pg.Pool({ connectionString: databaseUrl, max: 24, application_name: 'structure-tests' });
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

describe('structure invariants on the PostgreSQL event store', () => {
  structureContract({
    createStore: async () => {
      const schema = `es_structure_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      schemas.push(schema);
      await ensureEventStoreSchema(pool, { schema });
      return new PostgresEventStore(pool, { schema, pollIntervalMs: 50 });
    },
  });
});
