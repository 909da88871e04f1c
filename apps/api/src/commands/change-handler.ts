import type { Request, RequestHandler } from 'express';
import { changeObject, type ChangeTarget, type LoadedObject } from '@portal/commands';
import type { ItemCommand, ObjectAction, PortalObjectCommand } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { commandCaller } from './command-caller.js';
import { commandContextOf } from './command-context.js';
import { metadataOf } from './metadata.js';
import { respondToCommand } from './respond.js';

/**
 * One change to an existing object: `parse` validates the request before anything is read (a bad body
 * is a 400 whatever the id), `command` builds the domain command from the object as its stream has it.
 */
export interface Change<Input> {
  readonly parse: (req: Request) => Input;
  /** What the caller must be allowed to do on the object: `edit`, or `manage` for who may see it. */
  readonly action: ObjectAction;
  readonly command: (
    input: Input,
    target: ChangeTarget,
  ) => PortalObjectCommand | ItemCommand | Promise<PortalObjectCommand | ItemCommand>;
  /** The success answer, given the object as it was before the change. */
  readonly answer: (input: Input, object: LoadedObject) => ChangeAnswer;
}

export interface ChangeAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A route of one change to one object: the HTTP around the command library's `changeObject`. */
export function changeHandler<Input>(deps: ApiDependencies, change: Change<Input>): RequestHandler {
  return async (req, res) => {
    const { id } = parseInput(idParamsSchema, req.params, 'path');
    const input = change.parse(req);
    const expectedRevision = expectedRevisionFrom(req);
    const caller = await commandCaller(deps, req);
    const result = await changeObject(commandContextOf(deps), {
      id,
      caller,
      action: change.action,
      metadata: metadataOf(req, deps.now()),
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
      command: (target) => change.command(input, target),
    });
    const answer = change.answer(input, result.object);
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    await respondToCommand(deps, req, res, result, answer);
  };
}
