import * as http from 'node:http';
import { LatencyHistogram } from './latency-histogram.js';

/** One change request: what to send, and how many changes its answer says were made. */
export interface ChangeRequest {
  readonly method: 'PATCH' | 'POST';
  readonly path: string;
  readonly body: string;
  /** Changes the request asks for. */
  readonly changes: number;
  changesMade(status: number, body: string): number;
}

export interface LoadPlan {
  readonly baseUrl: string;
  readonly headers: Record<string, string>;
  readonly requestsPerSecond: number;
  /** `performance.now()` times: sending starts at `startAt`, is measured from `measureFrom`, stops at `measureUntil`. */
  readonly startAt: number;
  readonly measureFrom: number;
  readonly measureUntil: number;
  readonly maxInFlight: number;
  /** The `n`-th request of the run. */
  requestAt(n: number): ChangeRequest;
}

export interface LoadOutcome {
  readonly requests: number;
  /** Changes the answers reported, all run long. */
  readonly changesMade: number;
  /** Of those, made by requests sent in the measured seconds. */
  readonly measuredChanges: number;
  readonly failedRequests: number;
  /** Changes asked for and not made (a refused request, or refused commands of a batch). */
  readonly failedChanges: number;
  /** Ticks when `maxInFlight` requests were already waiting: the target rate was not reached. */
  readonly skippedRequests: number;
  /** Answered 202: the change was made, but its projection took longer than the API waits (`PROJECTION_WAIT_MS`). */
  readonly lateAnswers: number;
  /** Request sent → answer read, of the measured requests that made changes. */
  readonly answerMs: LatencyHistogram;
}

/**
 * Change requests at a fixed rate, open loop: a slow answer does not slow the schedule, and a request
 * due while `maxInFlight` wait is skipped and counted, so the rate reached is what the machine managed.
 */
export async function runChangeLoad(plan: LoadPlan): Promise<LoadOutcome> {
  const url = new URL(plan.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.maxInFlight });
  const answerMs = new LatencyHistogram();
  let inFlight = 0;
  let requests = 0;
  let changesMade = 0;
  let measuredChanges = 0;
  let failedRequests = 0;
  let failedChanges = 0;
  let skippedRequests = 0;
  let lateAnswers = 0;
  const done: Promise<void>[] = [];

  const send = (measured: boolean) => {
    const change = plan.requestAt(requests);
    const startedAt = performance.now();
    inFlight += 1;
    requests += 1;
    const settle = (status: number, body: string) => {
      inFlight -= 1;
      const made = change.changesMade(status, body);
      if (made === 0) failedRequests += 1;
      if (status === 202) lateAnswers += 1;
      failedChanges += change.changes - made;
      changesMade += made;
      if (!measured) return;
      measuredChanges += made;
      if (made > 0) answerMs.record(performance.now() - startedAt);
    };
    done.push(
      new Promise<void>((resolve) => {
        const request = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: change.path,
            method: change.method,
            agent,
            headers: {
              ...plan.headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(change.body),
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.once('end', () => {
              settle(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
              resolve();
            });
          },
        );
        request.on('error', () => {
          settle(0, '');
          resolve();
        });
        request.end(change.body);
      }),
    );
  };

  // A 1 ms tick sends what the schedule owes by now.
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      if (now >= plan.measureUntil) {
        clearInterval(timer);
        resolve();
        return;
      }
      const due = Math.floor(((now - plan.startAt) * plan.requestsPerSecond) / 1000);
      for (let owed = due - requests - skippedRequests; owed > 0; owed -= 1) {
        if (inFlight >= plan.maxInFlight) skippedRequests += 1;
        else send(now >= plan.measureFrom);
      }
    }, 1);
  });
  await Promise.all(done);
  agent.destroy();
  return {
    requests,
    changesMade,
    measuredChanges,
    failedRequests,
    failedChanges,
    skippedRequests,
    lateAnswers,
    answerMs,
  };
}
