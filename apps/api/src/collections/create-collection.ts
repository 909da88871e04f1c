import type { RequestHandler } from 'express';
import { createCollectionBodySchema } from '@portal/contracts';
import { decide, initialState, streamIdOf } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { appendDecision, respondToCommand } from '../commands/execute.js';
import { lookupParent } from '../commands/portal-object-repository.js';
import { parseInput } from '../http/validate.js';

export function createCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCollectionBodySchema, req.body, 'collection');
    const id = deps.newId();
    const parent = body.parentId === undefined ? null : await lookupParent(deps.eventStore, body.parentId);
    const events = decide(
      {
        type: 'CreateCollection',
        data: {
          id,
          title: body.title,
          description: body.description,
          links: body.links,
          parent,
          ...(body.license === undefined ? {} : { license: body.license }),
          ...(body.keywords === undefined ? {} : { keywords: body.keywords }),
          ...(body.extent === undefined ? {} : { extent: body.extent }),
        },
      },
      initialState,
    );
    const outcome = await appendDecision(deps, req, streamIdOf('collection', id), events, {
      expectedRevision: 'no_stream',
      currentRevision: -1n,
    });
    res.setHeader('Location', `/api/v1/collections/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
