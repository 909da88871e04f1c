import { beforeAll, describe, it } from 'vitest';
import { buildRightsFixture, type RightsFixture } from './support/rights/fixture.js';
import { observeObjectCase } from './support/rights/object-probes.js';
import { observeDelete, observeMove } from './support/rights/structure-probes.js';
import { readRightsTable } from './support/rights/rights-table.js';

/**
 * The rights table of docs/identity.md, one case per cell, against the whole stack over HTTP (the
 * objects are made in `beforeAll`, in bounded batches: see support/rights/fixture.ts). Besides the
 * status, no answer may carry anything of an object its caller may not read (every object has a secret
 * in its title and description), an allowed read must carry the object's, and a refused move or delete
 * must have changed nothing.
 */

const table = readRightsTable();
let fixture: RightsFixture;

beforeAll(async () => {
  fixture = await buildRightsFixture(table);
}, 600_000);

describe.concurrent('docs/identity.md: rights on one object', () => {
  for (const cell of table.objects) {
    it(`${cell.situation} › ${cell.relation} › ${cell.operation}: ${cell.expected}`, async ({ expect }) => {
      const seen = await observeObjectCase(fixture, cell);
      expect(seen.cell, seen.text).toBe(cell.expected);
      for (const secret of seen.hidden) expect(seen.text).not.toContain(secret);
      if (seen.shown !== null) expect(seen.text).toContain(seen.shown);
      if (/^4/.test(cell.expected)) {
        expect(JSON.parse(seen.text)).toMatchObject({ message: expect.any(String) as unknown });
      }
    });
  }
});

describe.concurrent('docs/identity.md: moves', () => {
  for (const cell of table.moves) {
    it(`${cell.scenario} › ${cell.caller}: ${cell.expected}`, async ({ expect }) => {
      const seen = await observeMove(fixture, cell);
      expect(seen.cell, seen.text).toBe(cell.expected);
      expect(seen.parentId).toBe(cell.expected === '✓' ? seen.movedTo : seen.stayedIn);
      for (const secret of seen.hidden) expect(seen.text).not.toContain(secret);
    });
  }
});

describe.concurrent('docs/identity.md: deletes', () => {
  for (const cell of table.deletes) {
    const mode = cell.recursive ? 'recursive' : 'plain';
    it(`${cell.scenario} › ${mode} › ${cell.caller}: ${cell.expected}`, async ({ expect }) => {
      const seen = await observeDelete(fixture, cell);
      expect(seen.cell, seen.text).toBe(cell.expected);
      expect(seen.remaining).toBe(cell.expected === '✓' ? 0 : seen.all);
      for (const secret of seen.hidden) expect(seen.text).not.toContain(secret);
    });
  }
});
