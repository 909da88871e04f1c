import type { RecordedEvent } from '@portal/domain';
import { createLogger, createPool } from '@portal/platform';
import { applyEventsInRuns } from '../../apps/projector/src/batch.js';
import { portalProjection } from '../../apps/projector/src/portal-projection.js';
import type { Sql } from '@portal/read-model-core';
import { ensureReadSchema } from '../../apps/projector/src/schemas.js';
import { createScratchDatabase, scratchSchemaName } from '../support/scratch-database.js';
import { eventMixes, PortalHistory, type EventMixName } from './portal-history.js';
import { tableWrites, type TableWrites } from './table-writes.js';
import { measureWriteFloor, type WriteFloor } from './write-floor.js';

export interface StepProfileOptions {
  readonly events: number;
  readonly batchSize: number;
  readonly seed: number;
  readonly mix: EventMixName;
  /** Also write the same rows again with no logic (write-floor.ts), beside the replay. */
  readonly floor: boolean;
}

/** What one kind of step cost: its events, the statements sent for them and their round trips' time. */
export interface StepCost {
  readonly step: string;
  readonly events: number;
  readonly statements: number;
  readonly ms: number;
}

/** What the statements of one prepared name (or unnamed text) cost over the whole profile. */
export interface StatementCost {
  readonly statement: string;
  readonly calls: number;
  readonly ms: number;
}

export interface StepProfile {
  readonly events: number;
  readonly seconds: number;
  /** Batch transactions the history was applied in. */
  readonly batches: number;
  readonly tableWrites: readonly TableWrites[];
  readonly costs: readonly StepCost[];
  /** Every statement by its prepared name (or its text's first words), most expensive first. */
  readonly statements: readonly StatementCost[];
  /** The same row writes with no logic, when asked for. */
  readonly floor: WriteFloor | null;
}

/** A statement's name in the profile: its prepared name, else its text's first words. */
function statementLabel(query: unknown): string {
  const config = query as { name?: string; text?: string } | string;
  if (typeof config === 'string') return config.trim().split(/\s+/).slice(0, 4).join(' ');
  return config.name ?? (config.text ?? '').trim().split(/\s+/).slice(0, 4).join(' ');
}

/** The replay history as a subscriber would hand it over (positions 1..n, one commit each). */
function historyEvents(options: StepProfileOptions): RecordedEvent[] {
  const history = new PortalHistory(options.seed, eventMixes[options.mix]);
  return Array.from({ length: options.events }, (_, index) => {
    const row = history.next();
    const position = BigInt(index + 1);
    return {
      id: row.eventId,
      streamId: row.streamId,
      revision: BigInt(row.revision),
      position: { commit: position, prepare: position },
      type: row.type,
      data: JSON.parse(row.data) as unknown,
      metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    };
  });
}

/**
 * The name a step is counted under: a run, or the lone event's type (a move or delete split by whether
 * the object had children in the history so far, so a leaf's cost is seen apart from a subtree's).
 */
function stepName(event: RecordedEvent, parents: ReadonlySet<string>): string {
  const data = event.data as { id?: string; kind?: string; changes?: { title?: unknown } };
  if (event.type === 'PortalObjectMoved' || event.type === 'PortalObjectDeleted') {
    return `${event.type} (${data.id !== undefined && parents.has(data.id) ? 'had children' : 'leaf'})`;
  }
  if (event.type === 'PortalObjectUpdated' && data.changes?.title !== undefined) return 'renamed (title)';
  return event.type;
}

/**
 * Applies the replay bench's history the way a batch does (runs of sets between lone events), in
 * batches of one transaction each, counting every statement and timing its round trip under the step
 * that sent it. The bookkeeping of a batch (checkpoint, notify) is left out: it is per batch, not per event.
 */
export async function profileSteps(options: StepProfileOptions): Promise<StepProfile> {
  const database = await createScratchDatabase('bench_steps');
  const pool = createPool({ connectionString: database.url, max: 2, applicationName: 'bench-steps' });
  pool.on('error', () => undefined);
  const log = createLogger({ name: 'bench-steps', level: 'warn' });
  const costs = new Map<string, { events: number; statements: number; ms: number }>();
  const statements = new Map<string, { calls: number; ms: number }>();
  const events = historyEvents(options);
  const parents = new Set<string>();
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
    const schema = scratchSchemaName('bench_read');
    await ensureReadSchema(pool, { schema, projection: portalProjection });
    // As the projector does with a read schema never analyzed.
    await pool.query(`ANALYZE "${schema}".portal_objects`);
    const client = await pool.connect();
    let batches = 0;
    const startedAt = performance.now();
    try {
      let current = costs.get('run') ?? { events: 0, statements: 0, ms: 0 };
      const counting: Sql = {
        query: (async (...args: Parameters<Sql['query']>) => {
          const began = performance.now();
          try {
            return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
          } finally {
            const ms = performance.now() - began;
            current.statements += 1;
            current.ms += ms;
            const label = statementLabel(args[0]);
            const statement = statements.get(label) ?? { calls: 0, ms: 0 };
            statement.calls += 1;
            statement.ms += ms;
            statements.set(label, statement);
          }
        }) as Sql['query'],
      };
      const costOf = (name: string): { events: number; statements: number; ms: number } => {
        let cost = costs.get(name);
        if (!cost) {
          cost = { events: 0, statements: 0, ms: 0 };
          costs.set(name, cost);
        }
        return cost;
      };
      for (let start = 0; start < events.length; start += options.batchSize) {
        batches += 1;
        const batch = events.slice(start, start + options.batchSize);
        // Until the ANALYZE after 10,000 events, the projector plans each statement for its parameters.
        const plans = start < 10_000 ? '; SET LOCAL plan_cache_mode = force_custom_plan' : '';
        await client.query(
          `BEGIN; SET LOCAL search_path TO "${schema}", public; SET LOCAL jit = off${plans}`,
        );
        // As the projector applies a batch. A lone event's deferred statements (its audit row) count
        // under the step that sends them: the next run, a move (they go just before it), the batch's end.
        await applyEventsInRuns(counting, portalProjection, batch, log, (step) => {
          if (step === null) {
            current = costOf('run of sets');
          } else if (step.kind === 'run') {
            current = costOf('run of sets');
            current.events += step.events.length;
          } else {
            current = costOf(stepName(step.event, parents));
            current.events += 1;
          }
        });
        for (const event of batch) {
          const parentId =
            (event.data as { parentId?: string | null; toParentId?: string | null }).toParentId ??
            (event.data as { parentId?: string | null }).parentId;
          if (typeof parentId === 'string') parents.add(parentId);
        }
        await client.query('COMMIT');
        // As the projector analyzes a fresh schema after 10,000 and 100,000 events (ReadSchemaStatistics).
        for (const mark of [10_000, 100_000]) {
          if (start < mark && start + batch.length >= mark)
            await client.query(`ANALYZE "${schema}".portal_objects`);
        }
      }
      // The session's counts reach the statistics views when it next ends a transaction, not before.
      await client.query('SELECT pg_stat_force_next_flush()');
    } finally {
      client.release();
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const writes = await tableWrites(pool, schema);
    const floor = options.floor
      ? await measureWriteFloor(pool, {
          sourceSchema: schema,
          events: events.length,
          batches,
          seed: options.seed,
          writes,
        })
      : null;
    return {
      events: events.length,
      seconds,
      batches,
      floor,
      tableWrites: writes,
      costs: [...costs.entries()].map(([step, cost]) => ({ step, ...cost })).sort((a, b) => b.ms - a.ms),
      statements: [...statements.entries()]
        .map(([statement, cost]) => ({ statement, ...cost }))
        .sort((a, b) => b.ms - a.ms),
    };
  } finally {
    await pool.end();
    await database.drop();
  }
}
