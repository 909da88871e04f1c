import * as http from 'node:http';

export interface ChangeTiming {
  readonly startedAt: number;
  answeredAt: number | null;
  readonly measured: boolean;
}

export interface LoadOutcome {
  readonly sent: number;
  readonly answered: number;
  readonly failed: number;
  /** Ticks when `maxInFlight` requests were already waiting: the target rate was not reached. */
  readonly skipped: number;
  readonly measuredSeconds: number;
}

export interface LoadPlan {
  readonly baseUrl: string;
  readonly headers: Record<string, string>;
  readonly objectIds: readonly string[];
  readonly ratePerSecond: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
  readonly maxInFlight: number;
}

/**
 * Title updates at a fixed rate (open loop: a slow answer does not slow the schedule), each answered
 * after its projection as the API does by default. Every answer's `X-Event-Position` is recorded with
 * its request start and answer time; `onAnswer` lets receipts that came first be settled.
 */
export async function runChangeLoad(
  plan: LoadPlan,
  timings: Map<string, ChangeTiming>,
  onAnswer: (position: string, timing: ChangeTiming) => void,
): Promise<LoadOutcome> {
  const url = new URL(plan.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.maxInFlight });
  let inFlight = 0;
  let sent = 0;
  let answered = 0;
  let failed = 0;
  let skipped = 0;
  let next = 0;
  const started = performance.now();
  const measureFrom = started + plan.warmupSeconds * 1000;
  const end = measureFrom + plan.seconds * 1000;
  const done: Promise<void>[] = [];

  const send = (measured: boolean) => {
    const id = plan.objectIds[next % plan.objectIds.length] ?? '';
    next += 1;
    const body = JSON.stringify({ title: `Bench change ${next}` });
    const startedAt = performance.now();
    inFlight += 1;
    sent += 1;
    done.push(
      new Promise<void>((resolve) => {
        const request = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: `/api/v1/portal/items/${id}`,
            method: 'PATCH',
            agent,
            headers: {
              ...plan.headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            response.once('end', () => {
              inFlight -= 1;
              const position = response.headers['x-event-position'];
              if (response.statusCode === 200 && typeof position === 'string') {
                answered += 1;
                const timing: ChangeTiming = { startedAt, answeredAt: performance.now(), measured };
                timings.set(position, timing);
                onAnswer(position, timing);
              } else failed += 1;
              resolve();
            });
          },
        );
        request.on('error', () => {
          inFlight -= 1;
          failed += 1;
          resolve();
        });
        request.end(body);
      }),
    );
  };

  // A 1 ms tick sends what the schedule owes by now.
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      if (now >= end) {
        clearInterval(timer);
        resolve();
        return;
      }
      const owed = Math.floor(((now - started) * plan.ratePerSecond) / 1000) - sent - skipped;
      for (let n = 0; n < owed; n += 1) {
        if (inFlight >= plan.maxInFlight) skipped += 1;
        else send(now >= measureFrom);
      }
    }, 1);
  });
  await Promise.all(done);
  agent.destroy();
  return { sent, answered, failed, skipped, measuredSeconds: plan.seconds };
}
