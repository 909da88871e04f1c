import type { Request, RequestHandler } from 'express';
import { decide, type Caller, type ObjectAction, type PortalObjectCommand } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { commandCaller } from './command-caller.js';
import {
  appendDecision,
  assertRevision,
  requireFound,
  respondToCommand,
  withOptimisticRetry,
} from './execute.js';
import { requireAccessTo } from '@portal/commands';
import { loadObject, placementOf, type LoadedObject, type Placement } from '@portal/commands';

/** The object a change applies to, as its stream and its ancestors' have it, and who asks. */
export interface ChangeTarget {
  readonly object: LoadedObject;
  readonly placement: Placement;
  readonly caller: Caller;
}

/**
 * One change to an existing object: `parse` validates the request before anything is read (a bad body
 * is a 400 whatever the id), `command` builds the domain command from the object as its stream has it.
 */
export interface Change<Input> {
  readonly parse: (req: Request) => Input;
  /** Runs once before the load-decide-append cycle, e.g. to let the read model catch up. */
  readonly prepare?: () => Promise<void>;
  /** What the caller must be allowed to do on the object: `edit`, or `manage` for who may see it. */
  readonly action: ObjectAction;
  readonly command: (
    input: Input,
    target: ChangeTarget,
  ) => PortalObjectCommand | Promise<PortalObjectCommand>;
  /** The success answer, given the object as it was before the change. */
  readonly answer: (input: Input, object: LoadedObject) => ChangeAnswer;
}

export interface ChangeAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The load-check-decide-append cycle of every change to one object. The permission check comes right
 * after the load, before `If-Match` and the rules: an object the caller may not read answers 404 like
 * an unknown id, whatever else is wrong with the request.
 */
export function changeHandler<Input>(deps: ApiDependencies, change: Change<Input>): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const input = change.parse(req);
    const ifMatch = expectedRevisionFrom(req);
    const caller = await commandCaller(deps, req);
    await change.prepare?.();
    const { outcome, object } = await withOptimisticRetry(ifMatch, async () => {
      const object = requireFound(await loadObject(deps.eventStore, id), `portal item ${id}`);
      const placement = await placementOf(deps.eventStore, object);
      requireAccessTo(caller, placement, change.action, `portal item ${id}`);
      assertRevision(ifMatch, object.revision);
      const events = decide(await change.command(input, { object, placement, caller }), object.state);
      const outcome = await appendDecision(deps, req, object.streamId, events, {
        expectedRevision: object.revision,
        currentRevision: object.revision,
      });
      return { outcome, object };
    });
    const answer = change.answer(input, object);
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    await respondToCommand(deps, req, res, outcome, answer);
  };
}
