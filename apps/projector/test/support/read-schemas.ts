import type { RecordedEvent } from '@portal/domain';
import type { Logger, Pool } from '@portal/platform';
import { afterAll, beforeAll } from 'vitest';
import { portalProjection } from '../../src/portal-projection.js';
import { ensureReadSchema } from '../../src/schemas.js';
import {
  applyInSchema,
  assetRows,
  footprintOf,
  portalObjectRow,
  uploadRow,
  type AssetRow,
  type PortalObjectRow,
  type UploadRow,
} from './read-model-access.js';
import { dropSchemas, ensureTestDatabase, openTestPool, uniqueSchema } from './test-database.js';
import { captureLogger } from './test-logger.js';

/** A test file's own read schemas in the test database, for tests that call the handlers directly. */
export interface ReadSchemas {
  readonly pool: Pool;
  readonly logger: Logger;
  /** The schema `apply` and `row` use. */
  readonly schema: string;
  /** A second schema, for replaying a test's events from zero (as a rebuild would) to compare. */
  readonly replica: string;
  /** Applies the events in one transaction, as one batch would. */
  apply(events: readonly RecordedEvent[], schema?: string): Promise<void>;
  row(id: string, schema?: string): Promise<PortalObjectRow>;
  upload(itemId: string): Promise<UploadRow>;
  assets(itemId: string): Promise<AssetRow[]>;
  footprint(id: string): Promise<string | null>;
}

/** Creates the schemas before the file's tests (vitest hooks) and drops them after. */
export function useReadSchemas(name: string): ReadSchemas {
  const schema = uniqueSchema('prj_read');
  const replica = uniqueSchema('prj_replica');
  const { logger } = captureLogger(`${name}-test`);
  let opened: Pool | undefined;
  const pool = (): Pool => {
    if (!opened) throw new Error('the read schemas are set up in beforeAll');
    return opened;
  };

  beforeAll(async () => {
    await ensureTestDatabase();
    opened = openTestPool(`${name}-test`);
    for (const target of [schema, replica]) {
      await ensureReadSchema(opened, { schema: target, projection: portalProjection });
    }
  });

  afterAll(async () => {
    if (!opened) return;
    await dropSchemas(opened, [schema, replica]);
    await opened.end();
  });

  return {
    get pool() {
      return pool();
    },
    logger,
    schema,
    replica,
    apply: (events, target = schema) => applyInSchema(pool(), target, events, logger),
    row: (id, target = schema) => portalObjectRow(pool(), target, id),
    upload: (itemId) => uploadRow(pool(), schema, itemId),
    assets: (itemId) => assetRows(pool(), schema, itemId),
    footprint: (id) => footprintOf(pool(), schema, id),
  };
}
