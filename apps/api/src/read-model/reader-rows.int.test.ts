import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueryParams } from '@portal/read-model-core';
import { userNames } from '@portal/read-model-identity';
import {
  crumbColumns,
  crumbRowFields,
  findTodaysRow,
  inventoryEntryColumns,
  inventoryEntryRowFields,
  nodeColumns,
  nodeRowFields,
  todaysRowFields,
} from '@portal/read-model-portal-objects';
import { accessScenario } from '../../test/support/access-scenario.js';
import { useReadDatabase } from '../../test/support/read-database.js';
import { seedTree, type SeededTree } from '../../test/support/seeded-tree.js';

// The row types the read-model packages declare for the API's reads, each with its column list: run
// against a read schema made by the projector's DDL, each list answers exactly its row type's fields.

const db = useReadDatabase('reader_rows');
const { specs } = accessScenario();
const everyone = ['public'];
let tree: SeededTree;

beforeAll(async () => {
  tree = await seedTree(db.pool, specs);
});

/** The fields of the first row `columns` selects from the seeded objects, sorted. */
async function selectedFields(columns: (params: QueryParams) => string): Promise<string[]> {
  const params = new QueryParams();
  const select = columns(params);
  const result = await db.pool.query<Record<string, unknown>>(
    `SELECT ${select} FROM read.portal_objects o LIMIT 1`,
    params.values,
  );
  expect(result.rows).toHaveLength(1);
  return Object.keys(result.rows[0] ?? {}).sort();
}

describe('reader row column lists', () => {
  it('select a browser node: exactly the fields of NodeRow', async () => {
    expect(await selectedFields((params) => nodeColumns('o', everyone, params))).toEqual(
      Object.keys(nodeRowFields).sort(),
    );
  });

  it('select a breadcrumb step: exactly the fields of CrumbRow', async () => {
    expect(await selectedFields(() => crumbColumns('o'))).toEqual(Object.keys(crumbRowFields).sort());
  });

  it('select an inventory entry: exactly the fields of InventoryEntryRow', async () => {
    expect(await selectedFields((params) => inventoryEntryColumns('o', everyone, params))).toEqual(
      Object.keys(inventoryEntryRowFields).sort(),
    );
  });

  it("find an object's row of today: exactly the fields of TodaysRow", async () => {
    const today = await findTodaysRow(db.pool, tree.node('pub').id);
    expect(Object.keys(today ?? {}).sort()).toEqual(Object.keys(todaysRowFields).sort());
    expect(today?.slug).toBe('pub');
  });
});

describe('user names', () => {
  it('answers the names of the known users among the ids, leaving out unknown ids and non-UUIDs', async () => {
    const [ada, bob] = [randomUUID(), randomUUID()];
    for (const [id, name] of [
      [ada, 'Ada'],
      [bob, 'Bob'],
    ]) {
      await db.pool.query(`INSERT INTO read.users (id, email, name, created_at) VALUES ($1, $2, $3, now())`, [
        id,
        `${name}@example.org`,
        name,
      ]);
    }

    const names = await userNames(db.pool, [ada, bob, ada, randomUUID(), 'not-a-uuid']);

    expect(Object.fromEntries(names)).toEqual({ [ada]: 'Ada', [bob]: 'Bob' });
    expect((await userNames(db.pool, ['not-a-uuid'])).size).toBe(0);
  });
});
