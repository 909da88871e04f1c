import type { RequestHandler } from 'express';
import { createCatalogBodySchema } from '@portal/contracts';
import { decide, initialState, streamIdOf } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { appendDecision, respondToCommand } from '../commands/execute.js';
import { lookupParent } from '../commands/portal-object-repository.js';
import { parseInput } from '../http/validate.js';

export function createCatalog(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCatalogBodySchema, req.body, 'catalog');
    const id = deps.newId();
    const parent = body.parentId === undefined ? null : await lookupParent(deps.eventStore, body.parentId);
    const events = decide(
      {
        type: 'CreateCatalog',
        data: { id, title: body.title, description: body.description, links: body.links, parent },
      },
      initialState,
    );
    const outcome = await appendDecision(deps, req, streamIdOf('catalog', id), events, {
      expectedRevision: 'no_stream',
      currentRevision: -1n,
    });
    res.setHeader('Location', `/api/v1/portal/catalogs/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
