import { readFileSync } from 'node:fs';
import type { ReadModel } from '@portal/read-model-core';
import { sqlFileStatements } from '@portal/read-model-core';
import { asIdentityEvent } from './events.js';
import { applyIdentityEvent } from './handlers.js';
import { applyIdentityRun, identityFootprint } from './identity-run.js';

/** `users`, `organizations`, `org_members`, `org_invitations`: who is a member of what, with which role. */
export const identityReadModel: ReadModel = {
  name: 'identity',
  // 2: the columns added in place over time folded into the CREATE TABLE statements.
  version: 2,
  ddl: readFileSync(new URL('./schema.sql', import.meta.url), 'utf8'),
  readerDdl: sqlFileStatements(new URL('./reader-indexes.sql', import.meta.url)),
  async apply(sql, recorded) {
    const event = asIdentityEvent(recorded);
    if (event) await applyIdentityEvent(sql, event, recorded);
  },
  sets: { footprint: identityFootprint, applyRun: applyIdentityRun },
};
