import type { Request, RequestHandler } from 'express';
import { createCatalogBodySchema, type CreateCatalogBody } from '@portal/contracts';
import type { Caller, CreateCatalog } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import { newObjectAccess, type FoundParent } from '@portal/commands';
import { createObject } from '../commands/create-object.js';
import { parseInput } from '../http/validate.js';

/** Decides and appends a new catalog; the single create's. */
export async function runCreateCatalog(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateCatalogBody,
): Promise<{ id: string; outcome: CommandOutcome }> {
  return createObject(deps, req, caller, 'catalog', body.parentId ?? null, async ({ parent, append }) => {
    const id = deps.newId();
    const outcome = await append(id, catalogCommand(id, body, parent, caller));
    return { id, outcome };
  });
}

/** The domain command of a catalog create; shared by the single create and the bulk paths. */
export function catalogCommand(
  id: string,
  body: CreateCatalogBody,
  parent: FoundParent | null,
  caller: Caller,
): CreateCatalog {
  return {
    type: 'CreateCatalog',
    data: {
      id,
      title: body.title,
      description: body.description,
      links: body.links,
      parent: parent?.lookup ?? null,
      access: newObjectAccess(caller, body.visibility),
    },
  };
}

export function createCatalog(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCatalogBodySchema, req.body, 'catalog');
    const caller = await commandCaller(deps, req);
    const { id, outcome } = await runCreateCatalog(deps, req, caller, body);
    res.setHeader('Location', `/api/v1/portal/catalogs/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
