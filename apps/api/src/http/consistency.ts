import type { Request, RequestHandler, Response } from 'express';
import {
  comparePositions,
  formatPosition,
  parsePosition,
  type EventStore,
  type Position,
} from '@portal/domain';
import type { ProjectionWaiter } from '../projection/projection-waiter.js';
import { HttpProblem } from './problem.js';

/** `ETag` carries the stream revision; `If-Match` sends it back. */
export function etagOf(revision: bigint): string {
  return `"${revision}"`;
}

/** The revision a client expects from `If-Match`; `undefined` when the header is absent. */
export function expectedRevisionFrom(req: Request): bigint | undefined {
  const header = req.header('if-match');
  // `*` asks only that the object exists, which every command on it checks anyway.
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^(?:W\/)?"(\d{1,19})"$/.exec(header.trim());
  if (!match?.[1]) {
    throw new HttpProblem(400, 'If-Match must be an ETag of this API, e.g. "3"', 'INVALID_IF_MATCH');
  }
  return BigInt(match[1]);
}

/** `revision` is `null` for commands spanning several streams (batches, bulk deletes): no single ETag. */
export function writeConsistencyHeaders(
  res: Response,
  position: Position | null,
  revision: bigint | null,
): void {
  if (position) res.setHeader('X-Event-Position', formatPosition(position));
  if (revision !== null) res.setHeader('ETag', etagOf(revision));
}

export function prefersAsync(req: Request): boolean {
  return /\brespond-async\b/i.test(req.header('prefer') ?? '');
}

/** `Prefer: return=representation` (RFC 7240): the changed resource in the answer, not a bare 204. */
export function prefersRepresentation(req: Request): boolean {
  return /\breturn\s*=\s*"?representation\b/i.test(req.header('prefer') ?? '');
}

/** What the gate needs of the projection: where the read models are, and a bounded wait for more. */
export type ProjectionProgress = Pick<ProjectionWaiter, 'current' | 'waitFor'>;

function notCaughtUp(): HttpProblem {
  return new HttpProblem(
    503,
    'the read models have not reached X-Min-Position yet; retry shortly',
    'NOT_CAUGHT_UP',
    undefined,
    { 'Retry-After': '1' },
  );
}

/**
 * `X-Min-Position` on a read: wait (bounded) until the read models include that position, else 503.
 * A position beyond the newest event written is no event's, so no wait could ever reach it: that is
 * the client's mistake (a position made up, or from another deployment) and answers 400 at once.
 */
export function minPositionGate(
  projection: ProjectionProgress,
  eventStore: Pick<EventStore, 'lastWrittenPosition'>,
  timeoutMs: number,
): RequestHandler {
  return (req, _res, next) => {
    const header = req.header('x-min-position');
    if (header === undefined) {
      next();
      return;
    }
    const position = parsePosition(header.trim());
    if (!position) {
      next(
        new HttpProblem(
          400,
          'X-Min-Position must be a value of an X-Event-Position header',
          'INVALID_POSITION',
        ),
      );
      return;
    }
    if (comparePositions(position, projection.current()) <= 0) {
      next();
      return;
    }
    eventStore
      .lastWrittenPosition()
      .then(async (lastWritten) => {
        if (comparePositions(position, lastWritten) > 0) {
          throw new HttpProblem(
            400,
            'X-Min-Position is beyond the newest event: no event has this position, so the read models can never reach it; send an X-Event-Position this service answered',
            'POSITION_NOT_REACHABLE',
          );
        }
        return projection.waitFor(position, timeoutMs);
      })
      .then(
        (projected) => {
          next(projected ? undefined : notCaughtUp());
        },
        (error: unknown) => {
          next(error);
        },
      );
  };
}
