export { auditReadModel } from './read-model.js';
export type { AuditRow, ChangeRow } from './rows.js';
// What a rebuild that folds the history in memory writes as the handlers would.
export { auditSubjectOf, auditValues } from './audit-row.js';
