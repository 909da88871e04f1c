import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { AuditQuery } from '@portal/contracts';
import type { Logger, Pool } from '@portal/platform';
import { auditCursorOf } from './audit-cursor.js';
import { auditCsvHeader, auditCsvRecord } from './audit-csv.js';
import { auditRows, exportBoundary } from './audit-rows.js';

/** Rows fetched per query while streaming: memory stays flat however long the export. */
const CHUNK_ROWS = 1000;

export interface CsvExport {
  readonly pool: Pool;
  readonly log: Logger;
  readonly orgId: string;
  readonly query: AuditQuery;
  readonly afterSeq: string;
  readonly limit: number;
  /** The URL of the next export, given its cursor. */
  readonly nextUrl: (cursor: string) => string;
}

/**
 * Streams up to `limit` rows of the feed as `text/csv`, chunk by chunk, waiting for the client to drain
 * each. The end is fixed before the first byte (`exportBoundary`), so the `Link: rel="next"` header can
 * name the next export's cursor; a client that goes away stops the queries.
 */
export async function streamAuditCsv(req: Request, res: Response, job: CsvExport): Promise<void> {
  const { pool, orgId, query } = job;
  const boundary = await exportBoundary(pool, orgId, query, job.afterSeq, job.limit);
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
  res.setHeader('Content-Disposition', `attachment; filename="audit-events-${orgId}.csv"`);
  res.setHeader('Cache-Control', 'no-store');
  if (boundary.nextPosition !== null) {
    res.setHeader(
      'Link',
      `<${job.nextUrl(auditCursorOf(boundary.nextPosition))}>; rel="next"; type="text/csv"`,
    );
  }
  const client = { gone: false };
  res.on('close', () => {
    client.gone = true;
  });
  try {
    await write(res, auditCsvHeader);
    let afterSeq = job.afterSeq;
    while (!client.gone) {
      const rows = await auditRows(pool, orgId, query, {
        afterSeq,
        throughSeq: boundary.throughSeq,
        rows: CHUNK_ROWS,
      });
      if (rows.length > 0) await write(res, rows.map(auditCsvRecord).join(''));
      const last = rows.at(-1);
      if (!last || rows.length < CHUNK_ROWS) break;
      afterSeq = last.seq;
    }
    res.end();
  } catch (error) {
    // The status line is out: the only way left to say "incomplete" is to cut the connection.
    job.log.error({ err: error }, 'audit CSV export failed midway; closing the connection');
    req.socket.destroy();
  }
}

async function write(res: Response, text: string): Promise<void> {
  if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}
