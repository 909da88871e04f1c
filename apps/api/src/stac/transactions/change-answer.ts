import type { Request, Response } from 'express';
import { respondToCommand, type CommandOutcome } from '../../commands/respond.js';
import type { ApiDependencies } from '../../dependencies.js';
import { prefersRepresentation } from '../../http/consistency.js';

/**
 * How a STAC `PUT` or `PATCH` answers (docs/stac.md, Transactions): `204` without a body once the change
 * is projected, as the transaction extension's clients and the reference validator expect; the resource
 * itself with `200` to `Prefer: return=representation`; `202` with its ids when the client asked not to
 * wait (`Prefer: respond-async`) or the projection is slower than the API waits.
 */
export async function answerChange(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  change: {
    readonly outcome: CommandOutcome;
    /** The body of a `202`: the ids of what changed. */
    readonly accepted: Record<string, string>;
    /** Answers with the resource as changed (`200`, or `202` when it is not readable yet). */
    readonly representation: () => Promise<void>;
  },
): Promise<void> {
  if (prefersRepresentation(req)) {
    await change.representation();
    return;
  }
  await respondToCommand(deps, req, res, change.outcome, { status: 204, body: change.accepted });
}
