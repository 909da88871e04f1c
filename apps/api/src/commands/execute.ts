import { setTimeout as delay } from 'node:timers/promises';
import type { Request, Response } from 'express';
import {
  ConcurrencyError,
  DomainError,
  type ExpectedRevision,
  type PortalObjectEvent,
  type Position,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { prefersAsync, writeConsistencyHeaders } from '../http/consistency.js';
import { HttpProblem } from '../http/problem.js';
import { metadataOf } from './metadata.js';

export interface CommandOutcome {
  /** `null` when the command changed nothing (no event written). */
  readonly position: Position | null;
  readonly revision: bigint;
}

/** What a response reports: the newest position written, and the revision when one stream changed. */
export interface ResponseConsistency {
  readonly position: Position | null;
  readonly revision: bigint | null;
}

/** Appends what a decider decided, with this request's metadata. */
export async function appendDecision(
  deps: Pick<ApiDependencies, 'eventStore' | 'now' | 'newId'>,
  req: Request,
  streamId: string,
  events: readonly PortalObjectEvent[],
  expected: { readonly expectedRevision: ExpectedRevision; readonly currentRevision: bigint },
): Promise<CommandOutcome> {
  if (events.length === 0) return { position: null, revision: expected.currentRevision };
  const metadata = metadataOf(req, deps.now);
  const result = await deps.eventStore.append(
    streamId,
    events.map((event) => ({ id: deps.newId(), type: event.type, data: event.data, metadata })),
    { expectedRevision: expected.expectedRevision },
  );
  return { position: result.position, revision: result.nextRevision };
}

/** How often a change without `If-Match` is tried again on a fresh read before answering 409. */
const unconditionalAttempts = 20;

/**
 * Runs a load-decide-append cycle. With `If-Match` a conflict is the client's to resolve (412);
 * without it the cycle is retried on a fresh read, since the client asked for no particular revision:
 * after a short pause that grows and is jittered, so writers racing on one object take turns instead
 * of colliding again (twenty concurrent `PATCH`es of one object all succeed).
 */
export async function withOptimisticRetry<T>(
  ifMatch: bigint | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  const attempts = ifMatch === undefined ? unconditionalAttempts : 1;
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (ifMatch !== undefined) {
        throw new HttpProblem(
          412,
          `the object changed since revision ${ifMatch}; read it again`,
          'STALE_REVISION',
        );
      }
      if (tried >= attempts) throw error;
      await delay(Math.random() * Math.min(2 ** tried, 50));
    }
  }
}

/** A stale `If-Match` is refused before deciding, so a no-op update cannot hide it. */
export function assertRevision(ifMatch: bigint | undefined, current: bigint): void {
  if (ifMatch !== undefined && ifMatch !== current) {
    throw new HttpProblem(
      412,
      `the object is at revision ${current}, not ${ifMatch}; read it again`,
      'STALE_REVISION',
    );
  }
}

/**
 * Answers a command. By default waits until its events are projected, so the client's next read sees
 * them; `Prefer: respond-async`, or a projection slower than the configured bound, answers 202 instead.
 */
export async function respondToCommand(
  deps: Pick<ApiDependencies, 'projection' | 'config'>,
  req: Request,
  res: Response,
  outcome: ResponseConsistency,
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

export function requireFound<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new DomainError('NOT_FOUND', `${what} not found`);
  return value;
}
