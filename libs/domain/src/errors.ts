/**
 * Every rule the domain enforces fails with a `DomainError` carrying a stable code.
 * One HTTP middleware maps codes to statuses; domain code never knows about HTTP.
 */
export const domainErrorCodes = [
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PARENT_NOT_FOUND',
  'INVALID_PARENT_KIND',
  'DEPTH_EXCEEDED',
  'CYCLE',
  'NOT_EMPTY',
  'DELETED',
  'CONCURRENCY_CONFLICT',
  'STALE_REVISION',
  'INVALID_COMMAND',
  /** The object exists but is not in a state the command applies to (an upload already complete). */
  'INVALID_STATE',
  /** A move would take an object into another organization's tree; objects never change organization. */
  'ORGANIZATION_MISMATCH',
  /** No credential, or one that is not valid (401). */
  'UNAUTHENTICATED',
  /** A valid caller without the right to do this (403); never used for objects they cannot see. */
  'FORBIDDEN',
  /**
   * Another change to the same organization's tree is still running and did not finish in time: nothing
   * was done, and the same request may be sent again shortly (503 with Retry-After).
   */
  'BUSY',
] as const;

export type DomainErrorCode = (typeof domainErrorCodes)[number];

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The event store refused an append because the stream moved on since it was read. */
export class ConcurrencyError extends DomainError {
  constructor(
    readonly streamId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super('CONCURRENCY_CONFLICT', `stream ${streamId} is at revision ${actual}, expected ${expected}`);
  }
}
