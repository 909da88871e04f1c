import type { Request, Response } from 'express';
import type { Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { prefersAsync, writeConsistencyHeaders } from '../http/consistency.js';

/** What a response reports: the newest position written, and the revision when one stream changed. */
export interface CommandOutcome {
  /** `null` when the command changed nothing (no event written). */
  readonly position: Position | null;
  /** The changed stream's revision now (the `ETag`); `null` when there is no single one. */
  readonly revision: bigint | null;
}

/**
 * Answers a command. By default waits until its events are projected, so the client's next read sees
 * them; `Prefer: respond-async`, or a projection slower than the configured bound, answers 202 instead.
 */
export async function respondToCommand(
  deps: Pick<ApiDependencies, 'projection' | 'config'>,
  req: Request,
  res: Response,
  outcome: CommandOutcome,
  success: { readonly status: number; readonly body: unknown },
): Promise<void> {
  writeConsistencyHeaders(res, outcome.position, outcome.revision);
  if (outcome.position === null) {
    res.status(success.status).json(success.body);
    return;
  }
  if (prefersAsync(req)) {
    res.setHeader('Preference-Applied', 'respond-async');
    res.status(202).json(success.body);
    return;
  }
  const projected = await deps.projection.waitFor(outcome.position, deps.config.PROJECTION_WAIT_MS);
  res.status(projected ? success.status : 202).json(success.body);
}
