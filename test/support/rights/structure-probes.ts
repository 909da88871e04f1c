import { call, commandCell, found, hiddenFrom, lookup } from './answers.js';
import { deleteKey, moveKey } from './case-objects.js';
import { scenarioModel } from './expectations.js';
import type { RightsFixture } from './fixture.js';
import type { DeleteCase, MoveCase } from './rights-table.js';
import { deleteScenarios, moveScenarios, structureCallers } from './vocabulary.js';

/** One move case: the move as the column's caller, then where the owner finds the object. */
export async function observeMove(fixture: RightsFixture, cell: MoveCase) {
  const { moved, to, nodes } = lookup(moveScenarios, cell.scenario);
  const tree = found(fixture.trees, moveKey(cell));
  const caller = lookup(structureCallers, cell.caller);
  const object = lookup(tree, moved);
  const toId = to === null ? null : lookup(tree, to).id;
  const answer = await call('POST', `/api/v1/portal/items/${object.id}/move`, {
    headers: fixture.crowd.headersOf(caller),
    as: 'anonymous',
    body: { parentId: toId },
  });
  const after = await call<{ parentId: string | null }>('GET', `/api/v1/portal/items/${object.id}`, {
    headers: fixture.crowd.users.owner.headers,
  });
  const from = nodes.find((node) => node.name === moved)?.parent;
  return {
    cell: commandCell(answer, 200),
    text: JSON.stringify(answer.body),
    hidden: hiddenFrom(scenarioModel(nodes), caller, Object.entries(tree)),
    parentId: after.body.parentId,
    movedTo: toId,
    stayedIn: from === undefined ? null : lookup(tree, from).id,
  };
}

/** One delete case: the delete as the column's caller, then how much of the tree the owner still finds. */
export async function observeDelete(fixture: RightsFixture, cell: DeleteCase) {
  const { deleted, nodes } = lookup(deleteScenarios, cell.scenario);
  const tree = found(fixture.trees, deleteKey(cell));
  const caller = lookup(structureCallers, cell.caller);
  const query = cell.recursive ? '?recursive=true' : '';
  const answer = await call('DELETE', `/api/v1/portal/items/${lookup(tree, deleted).id}${query}`, {
    headers: fixture.crowd.headersOf(caller),
    as: 'anonymous',
  });
  const owner = { headers: fixture.crowd.users.owner.headers };
  const reads = await Promise.all(
    Object.values(tree).map((made) => call('GET', `/api/v1/portal/items/${made.id}`, owner)),
  );
  return {
    cell: commandCell(answer, 200),
    text: JSON.stringify(answer.body),
    hidden: hiddenFrom(scenarioModel(nodes), caller, Object.entries(tree)),
    remaining: reads.filter((read) => read.status === 200).length,
    all: reads.length,
  };
}
