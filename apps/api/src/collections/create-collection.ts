import type { Request, RequestHandler } from 'express';
import { createCollectionBodySchema, type CreateCollectionBody } from '@portal/contracts';
import { decide, initialState, streamIdOf, type Caller } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { appendDecision, respondToCommand, type CommandOutcome } from '../commands/execute.js';
import { newObjectAccess } from '@portal/commands';
import { createObject } from '../commands/create-object.js';
import { parseInput } from '../http/validate.js';

/** Decides and appends a new collection; shared by the single create and the `POST /` batch. */
export async function runCreateCollection(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  body: CreateCollectionBody,
): Promise<{ id: string; outcome: CommandOutcome }> {
  return createObject(deps, req, caller, 'collection', body.parentId ?? null, async (parent) => {
    const id = deps.newId();
    const { title, description, links, license, keywords, extent } = body;
    const events = decide(
      {
        type: 'CreateCollection',
        data: {
          id,
          title,
          description,
          links,
          parent: parent?.lookup ?? null,
          access: newObjectAccess(caller, body.visibility),
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
  });
}

export function createCollection(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const body = parseInput(createCollectionBodySchema, req.body, 'collection');
    const caller = await commandCaller(deps, req);
    const { id, outcome } = await runCreateCollection(deps, req, caller, body);
    res.setHeader('Location', `/api/v1/collections/${id}`);
    await respondToCommand(deps, req, res, outcome, { status: 201, body: { portalItemId: id } });
  };
}
