import type { Request, RequestHandler } from 'express';
import { createCollectionBodySchema, type CreateCollectionBody } from '@portal/contracts';
import { decide, initialState, streamIdOf } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { appendDecision, respondToCommand, type CommandOutcome } from '../commands/execute.js';
import { lookupParent } from '../commands/portal-object-repository.js';
import { parseInput } from '../http/validate.js';

/** Decides and appends a new collection; shared by the single create and the `POST /` batch. */
export async function runCreateCollection(
  deps: ApiDependencies,
  req: Request,
  body: CreateCollectionBody,
): Promise<{ id: string; outcome: CommandOutcome }> {
  const id = deps.newId();
  const parent = body.parentId === undefined ? null : await lookupParent(deps.eventStore, body.parentId);
  const { title, description, links, license, keywords, extent } = body;
  const events = decide(
    {
      type: 'CreateCollection',
      data: {
        id,
        title,
        description,
        links,
        parent,
        ...(license === undefined ? {} : { license }),
        ...(keywords === undefined ? {} : { keywords }),
        ...(extent === undefined ? {} : { extent }),
      },
    },
    initialState,
  );
  const outcome = await appendDecision(deps, req, streamIdOf('collection', id), events, {
    expectedRevision: 'no_stream',
    currentRevision: -1n,
  });
  return { id, outcome };
}

export function createCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCollectionBodySchema, req.body, 'collection');
    const { id, outcome } = await runCreateCollection(deps, req, body);
    res.setHeader('Location', `/api/v1/collections/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
