/**
 * A map that holds at most `capacity` entries and, when full, forgets the oldest one to make room.
 * For per-process memos of facts that never change (an object's kind, its organization) or that
 * expire anyway (a key's answer): whatever is forgotten is simply read again, so first-in-first-out is
 * enough, and a hit costs no bookkeeping (no reordering, unlike an LRU).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${String(capacity)}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Stores `value`; a new key in a full map first evicts the oldest entry. */
  set(key: K, value: V): void {
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
