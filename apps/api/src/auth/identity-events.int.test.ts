import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import type { EventStore } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { createLogger, loadConfig } from '@portal/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import { createApp } from '../app.js';
import type { ApiDependencies } from '../dependencies.js';
import { ChangeFeedHub, changeFeedSettingsOf } from '../events/change-feed-hub.js';
import type { ProjectionWaiter } from '../projection/projection-waiter.js';
import { createAuthServices } from './auth-services.js';

/**
 * The identity commands through the real app on the real `auth` schema, with an in-memory event store
 * the test can read and break: what the events say, and what is left behind when an append fails.
 */
const db = useAuthDatabase('identity_events');
const store = new InMemoryEventStore();
/** Stream prefixes whose appends fail, as a store that is down would. */
const failing = new Set<string>();
const breakableStore: EventStore = {
  append: (streamId, events, options) =>
    [...failing].some((prefix) => streamId.startsWith(prefix))
      ? Promise.reject(new Error('event store unavailable'))
      : store.append(streamId, events, options),
  readStream: (streamId) => store.readStream(streamId),
  subscribeAll: (options) => store.subscribeAll(options),
  headPosition: () => store.headPosition(),
  lastWrittenPosition: () => store.lastWrittenPosition(),
  close: () => store.close(),
};

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1', { maxRetriesPerRequest: 1 });
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'an-identity-events-test-secret-0123456789',
    PASSWORD_SCRYPT_COST: '10',
    QUEUE_PREFIX: `test-identity-${randomUUID()}`,
  });
  const logger = createLogger({ name: 'api', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps: ApiDependencies = {
    config,
    logger,
    pool: db.pool,
    eventStore: breakableStore,
    // No projector here: nothing to wait for.
    projection: { waitFor: () => Promise.resolve(true) } as unknown as ProjectionWaiter,
    objectStore: {} as ApiDependencies['objectStore'],
    uploadQueue: { enqueueCompletion: () => Promise.resolve() },
    readinessChecks: [],
    auth: createAuthServices(config, logger, redis),
    // Not started: these tests open no event stream.
    changeFeed: new ChangeFeedHub(
      db.pool,
      db.pool,
      { onAdvance: () => () => undefined },
      changeFeedSettingsOf(config),
      logger,
    ),
    now: () => new Date(),
    newId: randomUUID,
  };
  server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await redis.quit();
});

/** The fields these tests read from sign-up, sign-in and create answers. */
interface AnswerBody {
  readonly user?: { readonly id: string };
  readonly session?: { readonly activeOrganizationId: string };
  readonly csrfToken?: string;
  readonly id?: string;
  readonly key?: string;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as AnswerBody,
  };
}

const password = 'a password nobody guesses';

describe('identity events', () => {
  it('records sign-up as the new user: their registration and their personal organization', async () => {
    const email = `ada-${randomUUID()}@example.org`;
    const response = await post('/api/auth/sign-up/email', { email, password, name: 'Ada' });
    expect(response.status).toBe(201);
    const userId = String(response.body.user?.id);
    const orgId = String(response.body.session?.activeOrganizationId);

    const userEvents = await store.readStream(`user-${userId}`);
    const orgEvents = await store.readStream(`org-${orgId}`);
    expect(userEvents.map((event) => event.type)).toEqual(['UserRegistered']);
    expect(orgEvents.map((event) => event.type)).toEqual(['OrganizationCreated', 'MemberAdded']);
    expect(orgEvents[0]?.data).toMatchObject({ orgId, name: 'Ada', personal: true, createdBy: userId });
    expect(orgEvents[1]?.data).toEqual({ orgId, userId, role: 'owner', invitationId: null });
    for (const event of [...userEvents, ...orgEvents]) {
      expect(event.metadata).toMatchObject({ actorId: userId, orgId });
      // Passwords, hashes, session ids and keys never enter an event.
      const text = JSON.stringify({ data: event.data, metadata: event.metadata });
      expect(text).not.toContain(password);
      expect(text).not.toContain('scrypt');
      expect(text).not.toContain(String(response.body.csrfToken));
    }
  });

  it('records organization commands with the signed-in actor', async () => {
    const signedUp = await post('/api/auth/sign-up/email', {
      email: `grace-${randomUUID()}@example.org`,
      password,
      name: 'Grace',
    });
    const cookie = (signedUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const headers = { cookie, 'x-csrf-token': String(signedUp.body.csrfToken) };
    // What the projector would have written: the owner of the personal organization.
    await db.setMember(
      String(signedUp.body.session?.activeOrganizationId),
      String(signedUp.body.user?.id),
      'owner',
    );
    const created = await post('/api/auth/organization/create', { name: 'Survey' }, headers);
    expect(created.status).toBe(201);
    const key = await post('/api/auth/api-key/create', { name: 'ci', role: 'viewer' }, headers);
    expect(key.status).toBe(201);

    const userId = String(signedUp.body.user?.id);
    const events = [
      ...(await store.readStream(`org-${String(created.body.id)}`)),
      ...(await store.readStream(`org-${String(signedUp.body.session?.activeOrganizationId)}`)),
    ];
    expect(events.map((event) => event.type)).toContain('ApiKeyCreated');
    for (const event of events) expect(event.metadata.actorId).toBe(userId);
    expect(JSON.stringify(events.map((event) => event.data))).not.toContain(String(key.body.key));
  });

  it('releases the email when the user could not be recorded, so signing up again works', async () => {
    const email = `retry-${randomUUID()}@example.org`;
    failing.add('user-');
    try {
      const failed = await post('/api/auth/sign-up/email', { email, password, name: 'Retry' });
      expect(failed.status).toBe(500);
    } finally {
      failing.delete('user-');
    }
    const rows = await db.pool.query('SELECT 1 FROM auth.credentials WHERE lower(email) = lower($1)', [
      email,
    ]);
    expect(rows.rowCount).toBe(0);
    expect((await post('/api/auth/sign-up/email', { email, password, name: 'Retry' })).status).toBe(201);
  });

  it('keeps the email of a user whose organization failed, and gives them it at sign-in', async () => {
    const email = `half-${randomUUID()}@example.org`;
    failing.add('org-');
    try {
      expect((await post('/api/auth/sign-up/email', { email, password, name: 'Half' })).status).toBe(500);
    } finally {
      failing.delete('org-');
    }
    expect((await post('/api/auth/sign-up/email', { email, password, name: 'Half' })).status).toBe(409);
    const signedIn = await post('/api/auth/sign-in/email', { email, password });
    expect(signedIn.status).toBe(200);
    const orgEvents = await store.readStream(`org-${String(signedIn.body.session?.activeOrganizationId)}`);
    expect(orgEvents.map((event) => event.type)).toEqual(['OrganizationCreated', 'MemberAdded']);
  });
});
