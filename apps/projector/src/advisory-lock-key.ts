import { nameHash } from '@portal/platform';

/**
 * PostgreSQL advisory locks are keyed by integers; every instance must derive the same key from the
 * same name, so the key is a fixed hash of it (`nameHash`).
 */
const projectorNamespace = 0x50524a54; // "PRJT": keeps our keys apart from other users of advisory locks

export interface AdvisoryLockKey {
  readonly namespace: number;
  readonly id: number;
}

export function advisoryLockKey(name: string): AdvisoryLockKey {
  // Folded into the signed int4 range PostgreSQL expects.
  return { namespace: projectorNamespace, id: nameHash(name) | 0 };
}
