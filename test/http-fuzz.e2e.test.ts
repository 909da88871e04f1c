import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAt } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { prepareFuzzSubject, type FuzzSubject } from './support/fuzz/fuzz-subject.js';
import { operationsOf, type OpenApiDocument } from './support/fuzz/openapi-operations.js';
import { requestsFor, type FuzzRequest } from './support/fuzz/request-arbitraries.js';
import { send, type FuzzResponse } from './support/fuzz/send.js';

/**
 * A fuzz run of the whole HTTP surface: every operation of the OpenAPI document the API serves, with
 * valid, boundary and malformed parameters and bodies (broken JSON, other media types, gzip, deflate and
 * br bodies whole and corrupt, invalid UTF-8), odd and duplicate headers, as an anonymous caller and as
 * a signed-up user with a JWT or an API key. No answer may be a 5xx, every 4xx carries the error body,
 * and the service is still ready afterwards.
 *
 * Replay a run with `FUZZ_SEED=<the printed seed>`; `FUZZ_REQUESTS` changes how many requests are sent.
 * The stack is the test's own: what the fuzzer creates (public objects among them) stays out of the
 * other end-to-end tests.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_125);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const CONCURRENCY = 4;
/** No request is started after this: the run stays bounded on a slow machine, however many are left. */
const SENDING_BUDGET_MS = 75_000;

interface Offence {
  readonly request: FuzzRequest;
  readonly response: FuzzResponse | null;
  readonly problem: string;
}

function describeOffence({ request, response, problem }: Offence): string {
  const headers = JSON.stringify(request.headers, (_key, value: unknown) =>
    typeof value === 'string' && value.length > 200 ? `${value.slice(0, 200)}…(${value.length})` : value,
  );
  const body =
    request.body === null ? '(none)' : JSON.stringify(request.body.subarray(0, 300).toString('latin1'));
  const answer = response
    ? `${response.status} ${response.contentType} ${response.body.slice(0, 500)}`
    : '(no answer)';
  return [
    `${problem}: ${request.method} ${request.target.slice(0, 300)}  [${request.operation}, ${request.credential}]`,
    `  headers: ${headers}`,
    `  body (${request.body?.length ?? 0} bytes): ${body}`,
    `  answer: ${answer}`,
  ].join('\n');
}

/** What is wrong with an answer, or `null`. A 503 that asks to retry while the projector catches up is a documented answer. */
function problemOf(request: FuzzRequest, response: FuzzResponse): string | null {
  if (response.status >= 500) {
    const documented =
      response.status === 503 && response.retryAfter !== null && response.body.includes('"NOT_CAUGHT_UP"');
    return documented ? null : `answered ${response.status}`;
  }
  if (response.status >= 400 && request.method !== 'HEAD') {
    try {
      const body = JSON.parse(response.body) as { message?: unknown };
      if (typeof body.message !== 'string') return `answered ${response.status} without a string message`;
    } catch {
      return `answered ${response.status} without a JSON body`;
    }
  }
  return null;
}

/** Request i targets operation i mod n: every operation is reached in the first round. */
function interleave(perOperation: readonly FuzzRequest[][], total: number): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  for (let round = 0; requests.length < total; round += 1) {
    for (const list of perOperation) {
      const next = list[round];
      if (next && requests.length < total) requests.push(next);
    }
    if (perOperation.every((list) => list.length <= round)) break;
  }
  return requests;
}

describe('HTTP fuzz run of every route in the OpenAPI document', () => {
  let stack: Stack;
  let subject: FuzzSubject;
  let document: OpenApiDocument;

  beforeAll(async () => {
    stack = await startStack();
    subject = await prepareFuzzSubject(stack.baseUrl);
    document = (await callAt<OpenApiDocument>(stack.baseUrl, 'GET', '/api/v1/openapi.json')).body;
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('answers no 5xx, a JSON message with every 4xx, and stays ready', { timeout: 170_000 }, async () => {
    const operations = operationsOf(document);
    const perOperation = Math.ceil(REQUESTS / operations.length);
    const context = { document, knownIds: subject.knownIds };
    const requests = interleave(
      operations.map((operation, index) =>
        fc.sample(requestsFor(operation, context), { seed: SEED + index, numRuns: perOperation }),
      ),
      REQUESTS,
    );
    console.log(
      `http fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${requests.length} requests over ${operations.length} operations`,
    );

    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const offences: Offence[] = [];
    const statuses = new Map<number, number>();
    const reached = new Set<string>();
    const deadline = Date.now() + SENDING_BUDGET_MS;
    let next = 0;
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (next < requests.length && Date.now() < deadline) {
        const request = requests[next++];
        if (!request) break;
        // Signing out with the fuzzer's own JWT would end its session for every later request.
        const credential =
          request.operation === 'POST /api/auth/sign-out' && request.credential === 'jwt'
            ? 'api-key'
            : request.credential;
        const credentialHeaders = credential === 'anonymous' ? {} : subject.credentials[credential];
        sent += 1;
        reached.add(request.operation);
        try {
          const response = await send(stack.baseUrl, agent, request, credentialHeaders);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const problem = problemOf(request, response);
          if (problem !== null) offences.push({ request, response, problem });
        } catch (error) {
          offences.push({ request, response: null, problem: `no answer (${String(error)})` });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();

    const tally = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`);
    console.log(`http fuzz: ${sent} requests sent; statuses ${tally.join(' ')}`);
    if (offences.length > 0) {
      console.log(
        `http fuzz: ${offences.length} offending answers (seed ${SEED}):\n${offences.slice(0, 25).map(describeOffence).join('\n')}`,
      );
    }
    expect(
      offences.map((offence) => `${offence.problem}: ${offence.request.method} ${offence.request.operation}`),
    ).toEqual([]);
    expect(operations.filter((operation) => !reached.has(`${operation.method} ${operation.path}`))).toEqual(
      [],
    );

    const ready = await callAt<{ status: string }>(stack.baseUrl, 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(['ready', 'degraded']).toContain(ready.body.status);
  });
});
