import { AUDIT_CSV_COLUMNS } from '@portal/contracts';
import type { AuditRow } from '@portal/read-model-audit';

/**
 * One RFC 4180 field. A value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return) gets a leading `'` so it is shown as text (OWASP "CSV injection"): actor
 * names and event data are other people's input.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CRLF-terminated record. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export const auditCsvHeader = csvRecord(AUDIT_CSV_COLUMNS);

/** A row in the columns of `AUDIT_CSV_COLUMNS`; `data` as compact JSON in one field. */
export function auditCsvRecord(row: AuditRow): string {
  return csvRecord([
    row.position,
    row.occurred_at.toISOString(),
    row.type,
    row.actor_id ?? '',
    row.actor_name ?? '',
    row.object_id ?? '',
    row.object_kind ?? '',
    row.revision,
    JSON.stringify(row.data),
    row.operator ?? '',
  ]);
}
