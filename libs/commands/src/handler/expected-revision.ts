import { DomainError } from '@portal/domain';

/**
 * `If-Match`: a stale revision is refused before deciding, so a command that changes nothing cannot
 * hide it. Revisions are what clients see as the object's `ETag`.
 */
export function requireRevision(expected: bigint | undefined, current: bigint | null): void {
  if (expected === undefined || expected === current) return;
  const now = current === null ? 'does not exist' : `is at revision ${current}`;
  throw new DomainError('STALE_REVISION', `the object ${now}, not ${expected}; read it again`);
}

/** The append found the stream moved on since the revision the client read. */
export function changedSince(expected: bigint): DomainError {
  return new DomainError('STALE_REVISION', `the object changed since revision ${expected}; read it again`);
}
