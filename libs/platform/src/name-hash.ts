/**
 * A fixed 32-bit hash of a name (FNV-1a over its UTF-8 bytes), unsigned. Advisory lock keys are derived
 * with it rather than PostgreSQL's `hashtext()`, whose output PostgreSQL does not promise to keep: every
 * process, on every platform and version, must derive the same key from the same name.
 */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(name)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
