import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import type { SourceLine } from './records.js';

export interface Target {
  readonly url: URL;
  readonly apiKey: string;
}

/** What became of one line in the end. */
export interface LineResult {
  readonly origin: string;
  readonly status: number;
  readonly id?: string;
  readonly message?: string;
}

export interface SendOptions {
  readonly attempts: number;
  readonly onResult: (result: LineResult) => void;
  readonly onRetry: (reason: string, attempt: number, waitMs: number) => void;
  /** The summary line of each response (its `position` is the newest event it wrote). */
  readonly onSummary?: (summary: Record<string, unknown>) => void;
}

type ResponseLine = Record<string, unknown>;

/** Worth sending again: the service or the way to it failed, not the line. */
function isTransient(status: number, code: unknown): boolean {
  return status >= 500 || status === 429 || code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
}

/** One POST of `lines`; calls `onLine` per result line as it arrives. Rejects on a transport failure. */
function post(
  target: Target,
  lines: readonly SourceLine[],
  onLine: (line: ResponseLine) => void,
): Promise<number> {
  const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-ndjson',
        authorization: `Bearer ${target.apiKey}`,
      },
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        rest += text;
        for (let newline = rest.indexOf('\n'); newline !== -1; newline = rest.indexOf('\n')) {
          const line = rest.slice(0, newline);
          rest = rest.slice(newline + 1);
          if (line.trim() !== '') onLine(JSON.parse(line) as ResponseLine);
        }
      });
      res.on('error', reject);
      res.on('end', () => {
        if (rest.trim() !== '') onLine(JSON.parse(rest) as ResponseLine);
        resolve(res.statusCode ?? 0);
      });
    });
    const write = (index: number): void => {
      for (let next = index; next < lines.length; next += 1) {
        if (!req.write(`${lines[next]?.text ?? ''}\n`)) {
          req.once('drain', () => {
            write(next + 1);
          });
          return;
        }
      }
      req.end();
    };
    write(0);
  });
}

/**
 * Sends `lines` until each has a final result: a connection failure, a 5xx answer or a line answered
 * with a transient status is sent again (only the lines without a final result), waiting 0.5 s, 1 s,
 * 2 s, … between attempts. Every line carries an idempotency key, so a line the service applied
 * before the connection broke is answered again, not applied twice.
 */
export async function sendLines(
  target: Target,
  lines: readonly SourceLine[],
  options: SendOptions,
): Promise<void> {
  let pending = lines;
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    const retry: SourceLine[] = [];
    const answered = new Set<number>();
    let failure: string | null = null;
    // Set by the response callback: an error answer's message.
    const whole = { refusal: null as string | null };
    try {
      const status = await post(target, pending, (line) => {
        const number = line['line'];
        if (line['done'] === true) options.onSummary?.(line);
        if (typeof number !== 'number') {
          if (typeof line['message'] === 'string') whole.refusal = line['message'];
          return;
        }
        const source = pending[number - 1];
        if (!source) return;
        answered.add(number);
        const lineStatus = Number(line['status']);
        if (isTransient(lineStatus, line['code']) && attempt < options.attempts) {
          retry.push(source);
          return;
        }
        options.onResult({
          origin: source.origin,
          status: lineStatus,
          ...(typeof line['id'] === 'string' ? { id: line['id'] } : {}),
          ...(typeof line['message'] === 'string' ? { message: line['message'] } : {}),
        });
      });
      if (status >= 400 && status < 500 && status !== 429) {
        // The request as a whole was refused (a malformed stream, a bad credential): not worth repeating.
        for (const line of pending) {
          options.onResult({ origin: line.origin, status, message: whole.refusal ?? `HTTP ${status}` });
        }
        return;
      }
      if (status !== 200) failure = `HTTP ${status}`;
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const unanswered = pending.filter((_, index) => !answered.has(index + 1));
    if (failure !== null && attempt >= options.attempts) {
      for (const line of [...retry, ...unanswered]) {
        options.onResult({ origin: line.origin, status: 0, message: `not sent: ${failure}` });
      }
      return;
    }
    pending = [...unanswered, ...retry];
    if (pending.length > 0) {
      const waitMs = Math.min(30_000, 500 * 2 ** (attempt - 1));
      options.onRetry(failure ?? `${pending.length} lines answered with a transient status`, attempt, waitMs);
      await delay(waitMs);
    }
  }
}
