export { auditReadModel } from './read-model.js';
export type { AuditRow, ChangeRow } from './rows.js';
