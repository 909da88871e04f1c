import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { applySchema, createLogger, createPool, type Pool } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousCaller, setCaller } from '../auth/caller.js';
import { errorMiddleware } from './error-middleware.js';
import {
  idempotency,
  idempotencyRequestHash,
  idempotencyScope,
  idempotencySchemaSql,
} from './idempotency.js';
import { HttpProblem } from './problem.js';
import { requestLogging } from './request-logging.js';
import { apiRouter, route } from './routes.js';

/**
 * The Idempotency-Key middleware on the real `api.idempotency_keys` table, in front of a create that
 * counts how often it ran. Callers are named by a test header; every test uses fresh users and keys.
 */
const CREATE = '/api/v1/things/create';
let pool: Pool;
let server: Server;
let baseUrl = '';
/** How often the create ran, per key: what "one object" means here. */
const runs = new Map<string, number>();
/** A create held open until the test releases it (a request still running, or one that died). */
let hold: Promise<void> | null = null;

beforeAll(async () => {
  pool = createPool({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test',
    applicationName: 'idempotency-test',
    max: 8,
  });
  await applySchema(pool, 'api', idempotencySchemaSql);
  const app = express();
  app.use(requestLogging(createLogger({ name: 'api', level: 'silent' })));
  app.use((req, _res, next) => {
    const userId = req.header('x-test-user') ?? null;
    setCaller(req, { ...anonymousCaller, userId, orgId: userId, role: userId === null ? null : 'owner' });
    next();
  });
  app.use(express.json());
  const router = apiRouter();
  route(router, CREATE, {
    post: [
      idempotency(pool),
      async (req, res) => {
        const key = req.header('idempotency-key') ?? '';
        runs.set(key, (runs.get(key) ?? 0) + 1);
        if (hold) await hold;
        res.status(201).json({ id: randomUUID() });
      },
    ],
  });
  app.use(router);
  app.use((req, _res, next) => {
    next(new HttpProblem(404, `no route for ${req.method} ${req.path}`, 'ROUTE_NOT_FOUND'));
  });
  app.use(errorMiddleware);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await pool.end();
});

interface Answer {
  readonly status: number;
  readonly body: { id?: string; code?: string };
  readonly replayed: boolean;
}

async function post(path: string, user: string, key: string, body: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-test-user': user },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Answer['body'],
    replayed: response.headers.get('idempotent-replayed') === 'true',
  };
}

describe('Idempotency-Key', () => {
  it('is one operation however the path is spelled: a trailing slash replays, another case is no route', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const body = JSON.stringify({ title: 'x' });
    const first = await post(CREATE, user, key, body);
    const slashed = await post(`${CREATE}/`, user, key, body);
    const shouted = await post(CREATE.toUpperCase(), user, key, body);
    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(slashed).toMatchObject({ status: 201, replayed: true, body: first.body });
    expect(shouted).toMatchObject({ status: 404, body: { code: 'ROUTE_NOT_FOUND' } });
    expect(runs.get(key)).toBe(1);
  });

  it('replays the same body with its fields in another order, and refuses another body', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const first = await post(CREATE, user, key, '{"title":"x","links":[{"rel":"a","href":"b"}]}');
    const reordered = await post(CREATE, user, key, '{ "links": [{"href":"b","rel":"a"}], "title": "x" }');
    expect(reordered).toMatchObject({ status: 201, replayed: true, body: first.body });
    const other = await post(CREATE, user, key, '{"title":"y","links":[{"rel":"a","href":"b"}]}');
    expect(other).toMatchObject({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(runs.get(key)).toBe(1);
  });

  it('runs concurrent duplicates once: the others replay it or answer 409 in progress', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const body = JSON.stringify({ title: 'x' });
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(CREATE, user, key, body)));
    expect(runs.get(key)).toBe(1);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.filter((answer) => !answer.replayed)).toHaveLength(1);
    expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
    for (const answer of answers.filter((each) => each.status !== 201)) {
      expect(answer).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } });
    }
  });

  it("keeps each caller's keys their own", async () => {
    const key = randomUUID();
    const body = JSON.stringify({ title: 'x' });
    const alice = await post(CREATE, randomUUID(), key, body);
    const bob = await post(CREATE, randomUUID(), key, body);
    expect(bob).toMatchObject({ status: 201, replayed: false });
    expect(bob.body.id).not.toBe(alice.body.id);
    expect(runs.get(key)).toBe(2);
  });

  it('answers 409 while the first request runs, and then replays it', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const body = JSON.stringify({ title: 'x' });
    let release = (): void => undefined;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    const first = post(CREATE, user, key, body);
    try {
      await waitForClaim(user, key);
      expect(await post(CREATE, user, key, body)).toMatchObject({
        status: 409,
        body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
      });
    } finally {
      hold = null;
      release();
    }
    const done = await first;
    expect(await post(CREATE, user, key, body)).toMatchObject({
      status: 201,
      replayed: true,
      body: done.body,
    });
  });

  it('takes over the claim of a first request that died before it answered', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const body = JSON.stringify({ title: 'x' });
    // What a process killed mid-request leaves: a claim without an outcome, three minutes old.
    await pool.query(
      `INSERT INTO api.idempotency_keys (scope, key, request_hash, created_at)
       VALUES ($1, $2, 'hash of the body the dead request had', now() - interval '3 minutes')`,
      [idempotencyScope({ userId: user, orgId: user }, 'POST', CREATE), key],
    );
    const retry = await post(CREATE, user, key, body);
    expect(retry).toMatchObject({ status: 201, replayed: false });
    expect(runs.get(key)).toBe(1);
    expect(await post(CREATE, user, key, body)).toMatchObject({
      status: 201,
      replayed: true,
      body: retry.body,
    });
  });

  it('keeps a fresh claim of a request still running', async () => {
    const user = randomUUID();
    const key = randomUUID();
    const body = { title: 'x' };
    await pool.query(`INSERT INTO api.idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)`, [
      idempotencyScope({ userId: user, orgId: user }, 'POST', CREATE),
      key,
      idempotencyRequestHash(body),
    ]);
    expect(await post(CREATE, user, key, JSON.stringify(body))).toMatchObject({
      status: 409,
      body: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
    });
    expect(await post(CREATE, user, key, '{"title":"y"}')).toMatchObject({ status: 422 });
    expect(runs.get(key)).toBeUndefined();
  });
});

async function waitForClaim(user: string, key: string): Promise<void> {
  const scope = idempotencyScope({ userId: user, orgId: user }, 'POST', CREATE);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = await pool.query('SELECT 1 FROM api.idempotency_keys WHERE scope = $1 AND key = $2', [
      scope,
      key,
    ]);
    if (found.rowCount === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the first request never claimed its key');
}
