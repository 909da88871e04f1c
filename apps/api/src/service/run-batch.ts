import type { Request, RequestHandler } from 'express';
import { batchRequestSchema, type BatchCommand, type BatchResult } from '@portal/contracts';
import { comparePositions, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { runCreateCatalog } from '../catalogs/create-catalog.js';
import { runCreateCollection } from '../collections/create-collection.js';
import { runCreateItem } from '../items/create-item.js';
import { respondToCommand, type CommandOutcome } from '../commands/execute.js';
import { problemOf } from '../http/error-middleware.js';
import { parseInput } from '../http/validate.js';

async function runCommand(
  deps: ApiDependencies,
  req: Request,
  command: BatchCommand,
): Promise<{ result: BatchResult; outcome?: CommandOutcome }> {
  switch (command.type) {
    case 'createCatalog': {
      const { id, outcome } = await runCreateCatalog(deps, req, command.body);
      return { result: { status: 201, body: { portalItemId: id } }, outcome };
    }
    case 'createCollection': {
      const { id, outcome } = await runCreateCollection(deps, req, command.body);
      return { result: { status: 201, body: { portalItemId: id } }, outcome };
    }
    case 'createItem': {
      const { outcome, descriptor } = await runCreateItem(deps, req, command.body);
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
 * alone (a refused one does not stop the others); the response waits once, for the newest event.
 */
export function runBatch(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { commands } = parseInput(batchRequestSchema, req.body, 'batch');
    const results: BatchResult[] = [];
    let newest: Position | null = null;
    for (const command of commands) {
      try {
        const { result, outcome } = await runCommand(deps, req, command);
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
