import { readFileSync } from 'node:fs';
import { formatPosition, type RecordedEvent } from '@portal/domain';
import { quoteIdentifier } from '@portal/read-model-core';
import type { Sql } from '@portal/read-model-core';

export const deadLettersDdl = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8');

export interface DeadLetter {
  readonly projection: string;
  readonly event: RecordedEvent;
  readonly error: string;
}

export async function recordDeadLetter(
  sql: Sql,
  operationsSchema: string,
  letter: DeadLetter,
): Promise<void> {
  const { event } = letter;
  await sql.query(
    `INSERT INTO ${quoteIdentifier(operationsSchema)}.dead_letters
       (projection, event_id, stream_id, revision, position, type, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      letter.projection,
      event.id,
      event.streamId,
      event.revision.toString(),
      formatPosition(event.position),
      event.type,
      letter.error,
    ],
  );
}
