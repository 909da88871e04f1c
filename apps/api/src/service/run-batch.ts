import type { Request, RequestHandler } from 'express';
import { batchRequestSchema, type BatchCommand, type BatchResult } from '@portal/contracts';
import { comparePositions, type Caller, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { runCreateCatalog } from '../catalogs/create-catalog.js';
import { runCreateCollection } from '../collections/create-collection.js';
import { runCreateItem } from '../items/create-item.js';
import { commandCaller } from '../commands/command-caller.js';
import { respondToCommand, type CommandOutcome } from '../commands/respond.js';
import { requireSignedIn } from '@portal/commands';
import { problemOf } from '../http/error-middleware.js';
import { parseInput } from '../http/validate.js';

async function runCommand(
  deps: ApiDependencies,
  req: Request,
  caller: Caller,
  command: BatchCommand,
): Promise<{ result: BatchResult; outcome?: CommandOutcome }> {
  switch (command.type) {
    case 'createCatalog': {
      const { id, outcome } = await runCreateCatalog(deps, req, caller, command.body);
      return { result: { status: 201, body: { portalItemId: id } }, outcome };
    }
    case 'createCollection': {
      const { id, outcome } = await runCreateCollection(deps, req, caller, command.body);
      return { result: { status: 201, body: { portalItemId: id } }, outcome };
    }
    case 'createItem': {
      const { outcome, descriptor } = await runCreateItem(deps, req, caller, command.body);
      return { result: { status: 201, body: descriptor }, outcome };
    }
    default:
      return command satisfies never;
  }
}

/**
 * Every failure becomes that command's result, even an unexpected one: earlier commands are already
 * appended, and a 500 for the whole batch would free its Idempotency-Key and let a retry create them twice.
 */
function failedCommand(req: Request, error: unknown): BatchResult {
  const problem = problemOf(error);
  if (problem) {
    return {
      status: problem.status,
      body: { message: problem.message, ...(problem.code ? { code: problem.code } : {}) },
    };
  }
  req.log.error({ err: error }, 'batch command failed');
  return { status: 500, body: { message: 'internal error', code: 'INTERNAL' } };
}

/**
 * `POST /`: a pipeline's batch of creates, run in order. Each command answers what it would have answered
 * alone (a refused one does not stop the others, whether by a tree rule or a permission); the response
 * waits once, for the newest event. The caller and their role are read once, for the whole batch; an
 * anonymous batch is refused as a whole (401), since none of its commands could succeed.
 */
export function runBatch(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { commands } = parseInput(batchRequestSchema, req.body, 'batch');
    const caller = await commandCaller(deps, req);
    requireSignedIn(caller, 'run commands');
    const results: BatchResult[] = [];
    let newest: Position | null = null;
    for (const command of commands) {
      try {
        const { result, outcome } = await runCommand(deps, req, caller, command);
        results.push(result);
        const position = outcome?.position ?? null;
        if (position && (newest === null || comparePositions(position, newest) > 0)) newest = position;
      } catch (error) {
        results.push(failedCommand(req, error));
      }
    }
    await respondToCommand(
      deps,
      req,
      res,
      { position: newest, revision: null },
      { status: 200, body: { results } },
    );
  };
}
