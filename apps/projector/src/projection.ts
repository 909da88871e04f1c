import type { RecordedEvent } from '@portal/domain';
import type { Logger } from '@portal/platform';
import type pg from 'pg';

/** Anything that runs a query: a pool client inside the batch transaction. */
export type Sql = Pick<pg.ClientBase, 'query'>;

export interface HandlerContext {
  readonly log: Logger;
}

/**
 * One read model: its tables (DDL run with `search_path` set to the target schema, so it names no
 * schema) and its handler. `apply` must be idempotent: applying an event a second time changes nothing.
 */
export interface ReadModel {
  readonly name: string;
  readonly ddl: string;
  apply(sql: Sql, event: RecordedEvent, context: HandlerContext): Promise<void>;
}

/** Read models fed by one subscription and one checkpoint, so they move forward together. */
export interface Projection {
  readonly name: string;
  readonly readModels: readonly ReadModel[];
}
