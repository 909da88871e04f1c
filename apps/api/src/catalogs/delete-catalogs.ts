import type { RequestHandler } from 'express';
import { deleteCatalogsQuerySchema } from '@portal/contracts';
import { deleteObjects } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { commandContextOf } from '../commands/command-context.js';
import { respondToCommand } from '../commands/respond.js';
import { metadataOf } from '../commands/metadata.js';
import { parseInput } from '../http/validate.js';

/**
 * `DELETE /api/v1/portal/catalogs/?ids=…`: every catalog is checked before any is deleted, so one
 * refusal deletes nothing. The checks are those of deleting each alone: a catalog that does not exist
 * or that the caller cannot read answers 404 (the same words for both), one they may read but not edit
 * 403 (401 when anonymous), a non-empty one without `recursive=true` 409. Nothing is skipped silently:
 * a pipeline that asked for ten deletes and got 200 knows all ten happened.
 */
export function deleteCatalogs(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    // The schema drops duplicate ids, so no catalog is decided on twice.
    const { ids, recursive } = parseInput(deleteCatalogsQuerySchema, req.query, 'query');
    const caller = await commandCaller(deps, req);
    const { position } = await deleteObjects(commandContextOf(deps), {
      ids,
      kinds: ['catalog'],
      recursive,
      caller,
      metadata: metadataOf(req, deps.now()),
    });
    await respondToCommand(
      deps,
      req,
      res,
      { position, revision: null },
      { status: 200, body: { deleted: ids } },
    );
  };
}
