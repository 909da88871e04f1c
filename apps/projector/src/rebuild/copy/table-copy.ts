import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from '@portal/platform';
import { from as copyFrom } from 'pg-copy-streams';
import { quoteIdentifier } from '@portal/read-model-core';
import { copyLine, type CopyValue } from './copy-text.js';

/** Rows per chunk handed to the stream: big enough that a chunk costs little, small enough to stream. */
const rowsPerChunk = 2000;

function* chunksOf(rows: Iterable<readonly CopyValue[]>): Generator<Buffer> {
  // Appended to one string (V8 keeps the pieces and copies them once, into the buffer).
  let text = '';
  let lines = 0;
  for (const row of rows) {
    text += copyLine(row);
    lines += 1;
    if (lines >= rowsPerChunk) {
      yield Buffer.from(text);
      text = '';
      lines = 0;
    }
  }
  if (lines > 0) yield Buffer.from(text);
}

/**
 * Writes `rows` into `schema.table` with one `COPY … FROM STDIN` (text format) on `client`, streamed in
 * chunks, so a table of a million rows is never one string in memory. Returns the rows PostgreSQL took.
 */
export async function copyRows(
  client: PoolClient,
  target: { readonly schema: string; readonly table: string; readonly columns: readonly string[] },
  rows: Iterable<readonly CopyValue[]>,
): Promise<number> {
  const columns = target.columns.map(quoteIdentifier).join(', ');
  const stream = client.query(
    copyFrom(
      `COPY ${quoteIdentifier(target.schema)}.${quoteIdentifier(target.table)} (${columns}) FROM STDIN`,
    ),
  );
  await pipeline(Readable.from(chunksOf(rows)), stream);
  return stream.rowCount;
}
