import type { PortalObjectEvent, RecordedEvent } from '@portal/domain';
import { expect } from 'vitest';
import { dumpReadModel } from './dump.js';
import { metadata, RecordedEventLog, streamOf } from './portal-events.js';
import { readModelInconsistencies } from './read-model-consistency.js';
import type { ReadSchemas } from './read-schemas.js';

/** One test's events in store order, each a second after the previous, so a timestamp names its event. */
export class Timeline {
  readonly events: RecordedEvent[] = [];
  private readonly log = new RecordedEventLog();
  private clock: number;
  private applied = 0;

  constructor(
    private readonly db: ReadSchemas,
    start = '2025-06-01T00:00:00.000Z',
  ) {
    this.clock = Date.parse(start);
  }

  /** Records the events and returns the `occurredAt` of the last. */
  add(...events: PortalObjectEvent[]): string {
    let at = '';
    for (const event of events) {
      this.clock += 1000;
      at = new Date(this.clock).toISOString();
      this.events.push(this.log.record(event, streamOf(event), metadata({ occurredAt: at })));
    }
    return at;
  }

  /** Applies the events added since the last call, in one batch. */
  async applyNew(): Promise<void> {
    await this.db.apply(this.events.slice(this.applied));
    this.applied = this.events.length;
  }

  /**
   * Applying the events twice more changes none of the rows of `ids` (their uploads and assets too), a
   * replay from zero in the replica schema (one event per batch) builds the same rows, and every count,
   * depth and computed extent agrees with a recount.
   */
  async expectReplaySafe(ids: readonly string[]): Promise<void> {
    const { pool, schema, replica } = this.db;
    const once = await dumpReadModel(pool, schema, ids);
    expect(once.portalObjects).toHaveLength(ids.length);
    await this.db.apply(this.events);
    await this.db.apply(this.events);
    expect(await dumpReadModel(pool, schema, ids)).toEqual(once);
    for (const event of this.events) await this.db.apply([event], replica);
    expect(await dumpReadModel(pool, replica, ids)).toEqual(once);
    expect(await readModelInconsistencies(pool, schema, ids)).toEqual([]);
  }
}

export const iso = (value: Date | null): string | null => value?.toISOString() ?? null;
