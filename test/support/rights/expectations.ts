import { actingOf, RightsModel, type Cell, type ModelObject } from './model.js';
import {
  deleteScenarios,
  moveScenarios,
  people,
  relations,
  situations,
  structureCallers,
  tableShares,
  type CreatorKey,
  type NodeSpec,
  type Operation,
  type OrgKey,
  type PersonKey,
} from './vocabulary.js';

/** What the model says each cell of the rights table must be, from the vocabulary's setups. */

function lookup<T>(record: Readonly<Record<string, T>>, key: string, what: string): T {
  const found = record[key];
  if (found === undefined) throw new Error(`unknown ${what} "${key}"`);
  return found;
}

/** The names of one creator's objects in a situation: the catalog, its twin and the object. */
export const situationNames = (creator: CreatorKey) => ({
  parent: `P:${creator}`,
  twin: `P2:${creator}`,
  object: `X:${creator}`,
});

export function situationModel(code: string): RightsModel {
  const { parent, object } = lookup(situations, code, 'situation');
  const creators: CreatorKey[] = ['creator', 'demotedCreator', 'removedCreator'];
  return new RightsModel(
    creators.flatMap((creator): ModelObject[] => {
      const names = situationNames(creator);
      const container = (name: string): ModelObject => ({
        name,
        org: 'A',
        creator,
        visibility: parent.visibility,
        shares: parent.shared ? tableShares : [],
        parent: null,
      });
      return [
        container(names.parent),
        container(names.twin),
        {
          name: names.object,
          org: 'A',
          creator,
          visibility: object.visibility,
          shares: object.shared ? tableShares : [],
          parent: names.parent,
        },
      ];
    }),
  );
}

export function expectedObjectCell(situation: string, relation: string, operation: Operation): Cell {
  const model = situationModel(situation);
  const { caller, objectsOf } = lookup(relations, relation, 'relation');
  const acting = actingOf(caller);
  const names = situationNames(objectsOf);
  const x = names.object;
  switch (operation) {
    case 'read':
    case 'breadcrumbs':
    case 'history':
    case 'as of':
      return model.read(acting, x);
    case 'listed':
      return model.listed(acting, x);
    case 'item list':
    case 'search':
    case 'feed':
      return model.shown(acting, x);
    case 'path':
      return model.foundByPath(acting, x);
    case 'patch':
      return model.change(acting, x, 'edit');
    case 'list shares':
    case 'share':
    case 'visibility':
      return model.change(acting, x, 'manage');
    case 'create child':
      return model.createBelow(acting, x);
    case 'move':
      return model.move(acting, x, names.twin);
    case 'move to root':
      return model.move(acting, x, null);
    case 'delete':
      return model.delete(acting, x, false);
  }
}

/** The organization a root-level object is created in: its creator's active one. */
function activeOrgOf(person: PersonKey): OrgKey {
  const { active } = people[person];
  return active === 'own' ? `own:${person}` : active;
}

export function scenarioModel(nodes: readonly NodeSpec[]): RightsModel {
  const objects: ModelObject[] = [];
  for (const node of nodes) {
    const parent = node.parent === undefined ? null : objects.find((object) => object.name === node.parent);
    if (parent === undefined) throw new Error(`${node.name}: its parent ${String(node.parent)} comes later`);
    objects.push({
      name: node.name,
      org: parent?.org ?? activeOrgOf(node.creator),
      creator: node.creator,
      visibility: node.visibility,
      shares: node.shares ?? [],
      parent: parent?.name ?? null,
    });
  }
  return new RightsModel(objects);
}

export function expectedMoveCell(scenario: string, caller: string): Cell {
  const { nodes, moved, to } = lookup(moveScenarios, scenario, 'move');
  return scenarioModel(nodes).move(actingOf(lookup(structureCallers, caller, 'caller')), moved, to);
}

export function expectedDeleteCell(scenario: string, recursive: boolean, caller: string): Cell {
  const { nodes, deleted } = lookup(deleteScenarios, scenario, 'delete');
  return scenarioModel(nodes).delete(
    actingOf(lookup(structureCallers, caller, 'caller')),
    deleted,
    recursive,
  );
}
