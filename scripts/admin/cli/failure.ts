import { ConfigError, isConnectionError } from '@portal/platform';
import { DomainError } from '@portal/domain';
import { DeadLetterRefusal } from '../../../apps/projector/src/dead-letters/resolve-dead-letter.js';

/** The exit codes of `npm run admin` (docs/admin-cli.md). */
export const EXIT_CODES = {
  /** Done (also: nothing was left to do, e.g. an owner made owner again). */
  ok: 0,
  /** Tried and failed: a retried dead letter failed again, a rebuild failed, an unexpected error. */
  failed: 1,
  /** The command line is wrong: unknown command, missing or malformed argument, bad configuration. */
  usage: 2,
  /** What was named does not exist: dead letter, organization, user, item, webhook. */
  notFound: 3,
  /** Its state does not allow it: already resolved, not the event the projection stopped on, slug taken. */
  refused: 4,
  /** PostgreSQL or Redis could not be reached. */
  unavailable: 5,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A failure the console reports as one line (and as `{"error": …}` with `--json`). */
export class AdminFailure extends Error {
  override readonly name = 'AdminFailure';
  constructor(
    readonly exitCode: ExitCode,
    /** Stable, for scripts: `USAGE`, `NOT_FOUND`, `REFUSED`, `FAILED`, `UNAVAILABLE`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const usageFailure = (message: string): AdminFailure =>
  new AdminFailure(EXIT_CODES.usage, 'USAGE', message);
export const notFound = (message: string): AdminFailure =>
  new AdminFailure(EXIT_CODES.notFound, 'NOT_FOUND', message);
export const refused = (message: string): AdminFailure =>
  new AdminFailure(EXIT_CODES.refused, 'REFUSED', message);
export const unavailable = (message: string): AdminFailure =>
  new AdminFailure(EXIT_CODES.unavailable, 'UNAVAILABLE', message);

const deadLetterExits: Record<DeadLetterRefusal['code'], AdminFailure['exitCode']> = {
  NOT_FOUND: EXIT_CODES.notFound,
  RESOLVED: EXIT_CODES.refused,
  NOT_NEXT: EXIT_CODES.refused,
  FAILED: EXIT_CODES.failed,
};

/** Any error as the failure to report: the domain's refusals keep their meaning, the rest is `FAILED`. */
export function failureOf(error: unknown): AdminFailure {
  if (error instanceof AdminFailure) return error;
  if (error instanceof DeadLetterRefusal) {
    return new AdminFailure(deadLetterExits[error.code], error.code, error.message);
  }
  if (error instanceof DomainError) {
    if (error.code === 'NOT_FOUND') return notFound(error.message);
    if (error.code === 'INVALID_COMMAND') return usageFailure(error.message);
    return new AdminFailure(EXIT_CODES.refused, error.code, error.message);
  }
  if (error instanceof ConfigError) return usageFailure(error.message);
  if (isConnectionError(error)) {
    return unavailable(`cannot reach PostgreSQL (DATABASE_URL): ${describe(error)}`);
  }
  return new AdminFailure(EXIT_CODES.failed, 'FAILED', describe(error));
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
