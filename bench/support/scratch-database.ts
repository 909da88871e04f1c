import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { registerCleanup } from './cleanup.js';
import { adminDatabaseUrl } from './services.js';

/** A database of its own for one benchmark run, so nothing it writes meets anyone else's data. */
export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl(), application_name: 'bench-admin' });
  // A connection the server ends also fails the statement, which is the error that counts.
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A scratch database's name: `<prefix>_<8 hex>`, the prefix `bench_` and lower-case words. */
const SCRATCH_NAME = /^bench_[a-z_]{1,40}_[0-9a-f]{8}$/;

function checkedName(name: string): string {
  if (!SCRATCH_NAME.test(name)) throw new Error(`not a scratch database's name: ${name}`);
  return name;
}

/**
 * Drops a database a run kept (`--keep`), by its name; only a scratch database's name is taken, so no
 * other database of the cluster can be dropped through it.
 */
export function dropKeptDatabase(name: string): Promise<void> {
  return asAdmin(`DROP DATABASE IF EXISTS "${checkedName(name)}" WITH (FORCE)`);
}

export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = checkedName(`${prefix}_${randomBytes(4).toString('hex')}`);
  await asAdmin(`CREATE DATABASE "${name}"`);
  const drop = (): Promise<void> => dropKeptDatabase(name);
  const unregister = registerCleanup(drop);
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await drop();
      unregister();
    },
  };
}

/** A schema name of the form `<prefix>_<8 hex>`, unused by anyone else. */
export function scratchSchemaName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}
