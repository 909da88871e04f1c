import { DomainError, type Caller, type SharePrincipal } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { afterEach, describe, expect, it } from 'vitest';
import { newId, StructureHarness } from './structure-harness.js';

const orgId = newId();
const member = (role: Caller['role']): Caller & { readonly userId: string } => ({
  userId: newId(),
  orgId,
  role,
});
const admin = member('admin');
const alice = member('editor');
const eve = member('editor');
const outsider: SharePrincipal = { type: 'user', id: newId() };

let made: StructureHarness;
afterEach(() => made.close());

function fresh(): StructureHarness {
  made = new StructureHarness(new InMemoryEventStore());
  return made;
}

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

async function parentOf(id: string): Promise<string | null | undefined> {
  await made.tree.awaitCommitted();
  return made.tree.nodes().find((node) => node.id === id)?.state.parentId;
}

describe('a move never widens who may read or change what moves', () => {
  it("refuses an editor moving another member's catalog under one shared with an outsider", async () => {
    fresh();
    const theirs = await made.createCatalog(alice, null);
    const hidden = await made.createCatalog(alice, theirs, 'private');
    const exposed = await made.createCatalog(eve, null);
    await made.share(eve, exposed, outsider);
    expect(await refusal(made.move(eve, theirs, exposed))).toBe('FORBIDDEN');
    expect(await parentOf(theirs)).toBeNull();
    expect(made.tree.canRead({ userId: outsider.id, orgId: null, role: null }, hidden)).toBe(false);
  });

  it('lets the creator of everything moved, and an admin, move it there', async () => {
    fresh();
    const exposed = await made.createCatalog(eve, null);
    await made.share(eve, exposed, outsider);
    const own = await made.createCatalog(eve, null);
    await made.createCatalog(eve, own);
    await made.move(eve, own, exposed);
    expect(await parentOf(own)).toBe(exposed);

    const theirs = await made.createCatalog(alice, null);
    await made.move(admin, theirs, exposed);
    expect(await parentOf(theirs)).toBe(exposed);
  });

  it("refuses the creator of the moved catalog when something below it is another member's", async () => {
    fresh();
    const exposed = await made.createCatalog(eve, null);
    await made.share(eve, exposed, outsider);
    const own = await made.createCatalog(eve, null);
    await made.createCatalog(alice, own);
    expect(await refusal(made.move(eve, own, exposed))).toBe('FORBIDDEN');
  });

  it('refuses such a move with 403 before any tree rule: under its own descendant, into another organization', async () => {
    fresh();
    const theirs = await made.createCatalog(alice, null);
    const below = await made.createCatalog(alice, theirs);
    await made.share(alice, below, outsider);
    expect(await refusal(made.move(eve, theirs, below))).toBe('FORBIDDEN');

    const elsewhere = { userId: newId(), orgId: newId(), role: 'owner' } as const;
    const foreign = await made.createCatalog(elsewhere, null);
    await made.share(elsewhere, foreign, { type: 'user', id: eve.userId });
    expect(await refusal(made.move(eve, theirs, foreign))).toBe('FORBIDDEN');
    // An admin may widen: the tree's rules answer.
    await made.share(elsewhere, foreign, { type: 'organization', id: orgId });
    expect(await refusal(made.move(admin, theirs, below))).toBe('CYCLE');
    expect(await refusal(made.move(admin, theirs, foreign))).toBe('ORGANIZATION_MISMATCH');
  });

  it('lets an editor move an object to a place that widens nothing', async () => {
    fresh();
    const theirs = await made.createCatalog(alice, null);
    const narrower = await made.createCatalog(eve, null, 'private');
    const sibling = await made.createCatalog(alice, null);
    await made.move(eve, theirs, sibling);
    await made.move(eve, sibling, narrower);
    expect(await parentOf(sibling)).toBe(narrower);
  });
});

describe('a delete never takes what the caller may not change', () => {
  it("refuses an editor's delete of a catalog holding another member's private object, recursive or not", async () => {
    fresh();
    const top = await made.createCatalog(eve, null);
    await made.createCatalog(alice, top, 'private');
    expect(await refusal(made.remove(eve, top, true))).toBe('FORBIDDEN');
    expect(await refusal(made.remove(eve, top, false))).toBe('FORBIDDEN');
    await made.tree.awaitCommitted();
    expect(made.tree.nodes().every((node) => node.state.status === 'live')).toBe(true);
  });

  it('deletes recursively what the caller may change everywhere, and lets an admin delete anything', async () => {
    fresh();
    const top = await made.createCatalog(eve, null);
    await made.createCatalog(alice, top);
    expect(await refusal(made.remove(eve, top, false))).toBe('NOT_EMPTY');
    await made.remove(eve, top, true);

    const other = await made.createCatalog(eve, null);
    await made.createCatalog(alice, other, 'private');
    await made.remove(admin, other, true);
    await made.tree.awaitCommitted();
    expect(made.tree.nodes().filter((node) => node.state.status === 'live' && !node.buried)).toEqual([]);
  });
});
