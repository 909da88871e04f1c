import type { Request, RequestHandler } from 'express';
import { batchRequestSchema, type BatchCommand, type BatchResult } from '@portal/contracts';
import { comparePositions, type Position } from '@portal/domain';
import { createObjects, requireSignedIn, type CreateEntry, type CreateOutcome } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { commandContextOf } from '../commands/command-context.js';
import { createEntryOf, type CreateFrame, type MadeObject } from '../commands/create-entries.js';
import { metadataOf } from '../commands/metadata.js';
import { respondToCommand } from '../commands/respond.js';
import { problemOf } from '../http/error-middleware.js';
import { parseInput } from '../http/validate.js';
import { uploadDescriptorOf } from '../items/upload-descriptor.js';

/**
 * Every failure becomes that command's result, even an unexpected one: other commands are appended, and
 * a 500 for the whole batch would free its Idempotency-Key and let a retry create them twice.
 */
export function failedCommand(req: Pick<Request, 'log'>, error: unknown): BatchResult {
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

async function succeeded(
  deps: ApiDependencies,
  frame: CreateFrame,
  command: BatchCommand,
  made: MadeObject,
): Promise<BatchResult> {
  if (command.type === 'createItem' && made.upload) {
    return { status: 201, body: await uploadDescriptorOf(deps, made.id, made.upload, frame.now) };
  }
  return { status: 201, body: { portalItemId: made.id } };
}

/**
 * `POST /`: a pipeline's batch of creates. Each command answers what it would have answered alone (a
 * refused one does not stop the others, whether by a tree rule or a permission), in order. The commands
 * cannot refer to each other (ids are the service's), so all are decided first and appended together,
 * in one `appendMany`, in their order; the response waits once, for the newest event. The caller and
 * their role are read once, for the whole batch; an anonymous batch is refused as a whole (401), since
 * none of its commands could succeed.
 */
export function runBatch(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    const { commands } = parseInput(batchRequestSchema, req.body, 'batch');
    const caller = await commandCaller(deps, req);
    requireSignedIn(caller, 'run commands');
    const now = deps.now();
    const frame: CreateFrame = { caller, metadata: metadataOf(req, now), now, log: req.log };
    const results: (BatchResult | null)[] = [];
    const entries: { index: number; entry: CreateEntry<MadeObject> }[] = [];
    for (const [index, command] of commands.entries()) {
      try {
        entries.push({ index, entry: createEntryOf(deps, frame, command) });
        results.push(null);
      } catch (error) {
        results.push(failedCommand(req, error));
      }
    }
    const outcomes = await createObjects(
      commandContextOf(deps),
      entries.map(({ entry }) => entry),
    );
    let newest: Position | null = null;
    for (const [position, { index }] of entries.entries()) {
      const outcome: CreateOutcome<MadeObject> | undefined = outcomes[position];
      const command = commands[index];
      if (!outcome || !command) continue;
      if (!outcome.ok) {
        results[index] = failedCommand(req, outcome.error);
        continue;
      }
      if (newest === null || comparePositions(outcome.position, newest) > 0) newest = outcome.position;
      results[index] = await succeeded(deps, frame, command, outcome.made).catch((error: unknown) =>
        failedCommand(req, error),
      );
    }
    await respondToCommand(
      deps,
      req,
      res,
      { position: newest, revision: null },
      { status: 200, body: { results: results.map((result) => result ?? failedCommand(req, null)) } },
    );
  };
}
