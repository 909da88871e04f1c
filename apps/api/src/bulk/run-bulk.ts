import { createGunzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import {
  BULK_PATH,
  bulkLineSchema,
  describeZodError,
  MAX_BULK_LINE_BYTES,
  MAX_BULK_LINES,
  NDJSON_MEDIA_TYPE,
  type BulkResultLine,
  type BulkSummary,
} from '@portal/contracts';
import { requireSignedIn } from '@portal/commands';
import { comparePositions, formatPosition, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { callerOf } from '../auth/caller.js';
import { commandCaller } from '../commands/command-caller.js';
import { metadataOf } from '../commands/metadata.js';
import { prefersAsync } from '../http/consistency.js';
import { idempotencyScope } from '../http/idempotency.js';
import { HttpProblem } from '../http/problem.js';
import { applyChunk, type ChunkFrame, type ParsedLine } from './apply-chunk.js';
import { LineKeys } from './line-idempotency.js';
import { ndjsonLines, type RawLine } from './ndjson-lines.js';

/** Lines applied together (one `appendMany` for the creates, one for the updates). */
const CHUNK_LINES = 500;
/** …or fewer, when their text reaches this many bytes: what a request holds in memory at most. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** A line of the chunk being gathered: a command to apply, or a refusal already known (bad JSON shape). */
type PendingLine = ParsedLine | { readonly line: number; readonly refused: BulkResultLine };

/** A line that makes the stream unreadable from there on: the request ends at it. */
class MalformedLine extends Error {
  constructor(
    readonly line: number,
    readonly status: 400 | 413,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function bodyOf(req: Request): AsyncIterable<Buffer> {
  const encoding = (req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity') return req;
  if (encoding === 'gzip') return req.pipe(createGunzip());
  throw new HttpProblem(
    415,
    'Content-Encoding of a bulk request must be gzip or identity',
    'UNSUPPORTED_CONTENT_ENCODING',
  );
}

/** A line as a command, a line-level refusal, or the end of a readable stream. */
function parseLine(raw: RawLine): PendingLine {
  if (raw.kind === 'too-long') {
    throw new MalformedLine(
      raw.line,
      413,
      'LINE_TOO_LARGE',
      `line ${raw.line} is longer than ${MAX_BULK_LINE_BYTES} bytes`,
    );
  }
  if (raw.kind === 'not-utf8') {
    throw new MalformedLine(raw.line, 400, 'INVALID_UTF8', `line ${raw.line} is not valid UTF-8`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.text);
  } catch {
    throw new MalformedLine(raw.line, 400, 'MALFORMED_JSON', `line ${raw.line} is not valid JSON`);
  }
  const parsed = bulkLineSchema.safeParse(json);
  if (parsed.success) return { line: raw.line, command: parsed.data };
  const { message } = describeZodError(parsed.error);
  return {
    line: raw.line,
    refused: {
      line: raw.line,
      status: 400,
      code: 'VALIDATION_FAILED',
      message: `invalid command: ${message}`,
    },
  };
}

/** Writes result lines, waiting for the client to read when its buffer is full. */
async function write(res: Response, text: string): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  if (!res.headersSent) {
    res.status(200);
    res.setHeader('Content-Type', `${NDJSON_MEDIA_TYPE}; charset=utf-8`);
  }
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const lineText = (result: BulkResultLine | BulkSummary) => `${JSON.stringify(result)}\n`;

/**
 * `POST /api/v1/portal/bulk` (docs/bulk-ingest.md): NDJSON, one command per line, read as it arrives
 * and applied in chunks; the results of a chunk are streamed back as soon as it is applied, in line
 * order, then a summary. Memory stays bounded by one chunk whatever the request's length: the next
 * chunk is read only once the previous one is applied and its results handed to the socket.
 *
 * A line that is valid JSON but not a valid command, or that a rule refuses, gets its own result. A line
 * that is not JSON (or not UTF-8, or longer than the bound) leaves the rest of the stream unreadable:
 * met before any chunk was applied, the request is answered 400/413 with nothing written; later, the
 * lines before it are applied, it gets its error, and the summary says the request was cut there.
 * A client that goes away is not answered further: the chunk being applied is finished (and its
 * per-line keys recorded), nothing after it is read.
 */
export function runBulk(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    if (!req.is(NDJSON_MEDIA_TYPE)) {
      throw new HttpProblem(
        415,
        `a bulk request body must be ${NDJSON_MEDIA_TYPE}`,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    if (req.header('idempotency-key') !== undefined) {
      throw new HttpProblem(
        400,
        'a bulk request takes an idempotencyKey on each line, not an Idempotency-Key header',
        'INVALID_IDEMPOTENCY_KEY',
      );
    }
    const caller = await commandCaller(deps, req);
    requireSignedIn(caller, 'run commands');
    const body = bodyOf(req);
    const keys = new LineKeys(deps.pool, idempotencyScope(callerOf(req), 'POST', BULK_PATH));
    // Mutated by the close listener and by `flush`, read after awaits: one object, not loose variables.
    const run = { gone: false, started: false, applied: 0, failed: 0, newest: null as Position | null };
    res.on('close', () => {
      if (!res.writableFinished) run.gone = true;
    });

    let pending: PendingLine[] = [];
    let pendingBytes = 0;
    const objectsInChunk = new Set<string>();
    const keysInChunk = new Set<string>();
    let lines = 0;

    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      const chunk = pending;
      pending = [];
      pendingBytes = 0;
      objectsInChunk.clear();
      keysInChunk.clear();
      run.started = true;
      const now = deps.now();
      const frame: ChunkFrame = { caller, metadata: metadataOf(req, now), now, log: req.log, keys };
      const commands = chunk.filter((line): line is ParsedLine => 'command' in line);
      const { results, newest: chunkNewest } = await applyChunk(deps, frame, commands);
      if (chunkNewest && (run.newest === null || comparePositions(chunkNewest, run.newest) > 0)) {
        run.newest = chunkNewest;
      }
      const byLine = new Map(results.map((result) => [result.line, result]));
      let text = '';
      for (const line of chunk) {
        const result = 'refused' in line ? line.refused : byLine.get(line.line);
        if (!result) continue;
        if (result.status < 300) run.applied += 1;
        else run.failed += 1;
        text += lineText(result);
      }
      if (!run.gone) await write(res, text);
    };

    let cutAt: MalformedLine | null = null;
    try {
      for await (const raw of ndjsonLines(body, MAX_BULK_LINE_BYTES)) {
        if (raw.line > MAX_BULK_LINES) {
          throw new MalformedLine(
            raw.line,
            413,
            'TOO_MANY_LINES',
            `a bulk request holds at most ${MAX_BULK_LINES} lines; send the rest in another request`,
          );
        }
        const line = parseLine(raw);
        lines = raw.line;
        if ('command' in line) {
          const { command } = line;
          const object = command.type === 'update' || command.type === 'move' ? command.id : null;
          const key = command.idempotencyKey;
          // A chunk's lines must not depend on each other: one naming an object or key already in it
          // waits for the next chunk, and a move (a structure operation) runs in a chunk of its own.
          const dependent =
            (object !== null && objectsInChunk.has(object)) ||
            (key !== undefined && keysInChunk.has(key)) ||
            command.type === 'move';
          if (dependent) await flush();
          if (object !== null) objectsInChunk.add(object);
          if (key !== undefined) keysInChunk.add(key);
        }
        pending.push(line);
        pendingBytes += raw.kind === 'text' ? raw.text.length : 0;
        if (
          pending.length >= CHUNK_LINES ||
          pendingBytes >= CHUNK_BYTES ||
          ('command' in line && line.command.type === 'move')
        ) {
          await flush();
        }
        if (run.gone) return;
      }
    } catch (error) {
      if (!(error instanceof MalformedLine)) {
        if (run.gone || req.destroyed) return;
        throw error;
      }
      if (!run.started) throw new HttpProblem(error.status, error.message, error.code);
      cutAt = error;
    }
    if (run.gone) return;
    await flush();
    if (cutAt) {
      run.failed += 1;
      lines = cutAt.line;
      const { line, status, code, message } = cutAt;
      await write(res, lineText({ line, status, code, message: `${message}; nothing after it was read` }));
    }
    const { newest, applied, failed } = run;
    const projected =
      newest === null || prefersAsync(req)
        ? newest === null
        : await deps.projection.waitFor(newest, deps.config.PROJECTION_WAIT_MS);
    const summary: BulkSummary = {
      done: true,
      lines,
      applied,
      failed,
      position: newest === null ? null : formatPosition(newest),
      projected,
      complete: cutAt === null,
    };
    await write(res, lineText(summary));
    res.end();
  };
}
