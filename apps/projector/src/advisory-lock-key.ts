/**
 * PostgreSQL advisory locks are keyed by integers; every instance must derive the same key from the
 * same name, on every platform and version, so the key is a fixed hash computed here rather than
 * `hashtext()` (whose output PostgreSQL does not promise to keep).
 */
const projectorNamespace = 0x50524a54; // "PRJT": keeps our keys apart from other users of advisory locks

export interface AdvisoryLockKey {
  readonly namespace: number;
  readonly id: number;
}

export function advisoryLockKey(name: string): AdvisoryLockKey {
  // FNV-1a, 32 bit, folded into the signed int4 range PostgreSQL expects.
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return { namespace: projectorNamespace, id: hash | 0 };
}
