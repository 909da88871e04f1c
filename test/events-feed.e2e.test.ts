import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineKeyAt } from './support/auth.js';
import { callAt } from './support/http.js';
import { changeOf, SseStream, type SseMessage } from './support/sse.js';
import { startStack, type Stack } from './support/stack.js';

/**
 * `GET /api/v1/events` against a stack of its own: a short heartbeat, a replay bound small enough to
 * pass in a test, and a shutdown grace far longer than any test may wait.
 */
const HEARTBEAT_MS = 300;
const REPLAY_MAX_EVENTS = 40;
const SHUTDOWN_GRACE_MS = 3_600_000;

let stack: Stack;
let owner: Record<string, string>;
let stranger: Record<string, string>;
const streams: SseStream[] = [];

beforeAll(async () => {
  stack = await startStack({
    SSE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    SSE_REPLAY_MAX_EVENTS: String(REPLAY_MAX_EVENTS),
    API_SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
  });
  [owner, stranger] = await Promise.all([pipelineKeyAt(stack.baseUrl), pipelineKeyAt(stack.baseUrl)]);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await stack.stop();
});

/** The stack's API process: the one listening on its port. */
function apiProcessOf(target: Stack): number {
  const port = new URL(target.baseUrl).port;
  const listening = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listening)?.[1];
  if (!pid) throw new Error(`no process listens on port ${port}`);
  return Number(pid);
}

async function open(headers: Record<string, string> = {}, path = '/api/v1/events'): Promise<SseStream> {
  const stream = await SseStream.open(stack.baseUrl, path, headers);
  streams.push(stream);
  return stream;
}

/** Answered as soon as the event is stored, before the projector has applied it. */
const early = { prefer: 'respond-async' };

async function createCatalog(
  credential: Record<string, string>,
  title: string,
  visibility: 'private' | 'org' | 'public' = 'org',
): Promise<{ id: string; position: string }> {
  const created = await callAt<{ portalItemId: string }>(
    stack.baseUrl,
    'POST',
    '/api/v1/portal/catalogs/create',
    {
      headers: { ...credential, ...early },
      body: { title, description: 'Followed by the change feed', links: [], visibility },
    },
  );
  expect([201, 202]).toContain(created.status);
  return { id: created.body.portalItemId, position: created.headers.get('x-event-position') ?? '' };
}

async function retitle(credential: Record<string, string>, id: string, title: string): Promise<string> {
  const updated = await callAt(stack.baseUrl, 'PATCH', `/api/v1/portal/items/${id}`, {
    headers: { ...credential, ...early },
    body: { title },
  });
  expect([200, 202]).toContain(updated.status);
  return updated.headers.get('x-event-position') ?? '';
}

const about = (id: string, type?: string) => (message: SseMessage) =>
  message.event !== 'reset' &&
  changeOf(message).objectId === id &&
  (type === undefined || message.event === type);

describe('GET /api/v1/events', () => {
  it('answers an event stream that is neither cached nor buffered, with heartbeats', async () => {
    const stream = await open();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    // Their interval is the hub's to keep (its unit test runs on a fake clock); here: they flow.
    await stream.until((s) => s.comments.filter((c) => c === 'heartbeat').length >= 3, 'three heartbeats');
    expect(stream.messages).toEqual([]);
    stream.close();
  });

  it('sends a create and an update only once a GET shows them', async () => {
    const stream = await open(owner);
    const { id, position } = await createCatalog(owner, 'Fresh catalog');

    const created = await stream.next(about(id, 'CatalogCreated'), 'the create');
    expect(created.id).toBe(position);
    expect(changeOf(created)).toMatchObject({
      objectId: id,
      kind: 'catalog',
      type: 'CatalogCreated',
      revision: 0,
      position,
    });
    // No X-Min-Position: the event itself promises the read model has the change.
    const afterCreate = await callAt<{ title: string }>(stack.baseUrl, 'GET', `/api/v1/portal/items/${id}`, {
      headers: owner,
    });
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.body.title).toBe('Fresh catalog');

    const updatePosition = await retitle(owner, id, 'Renamed catalog');
    const updated = await stream.next(about(id, 'PortalObjectUpdated'), 'the update');
    expect(changeOf(updated)).toMatchObject({ revision: 1, position: updatePosition });
    const afterUpdate = await callAt<{ title: string }>(stack.baseUrl, 'GET', `/api/v1/portal/items/${id}`, {
      headers: owner,
    });
    expect(afterUpdate.body.title).toBe('Renamed catalog');
    stream.close();
  });

  it('resumes with Last-Event-ID without a gap or a duplicate while changes keep coming', async () => {
    const { id } = await createCatalog(owner, 'Busy catalog');
    const first = await open(owner);
    const expected: string[] = [];
    // Thirty updates, one after the other, going on through the disconnect and the resume.
    const writer = (async () => {
      for (let n = 0; n < 30; n += 1) expected.push(await retitle(owner, id, `Busy ${n}`));
    })();

    await first.until((s) => s.messages.filter(about(id, 'PortalObjectUpdated')).length >= 5, 'five updates');
    first.close();
    await first.ended;
    const resumeFrom = first.lastEventId ?? '';
    expect(resumeFrom).not.toBe('');
    // A few changes happen while nobody listens.
    await new Promise((resolve) => setTimeout(resolve, 150));

    const second = await open({ ...owner, 'last-event-id': resumeFrom });
    await writer;
    const last = expected.at(-1) ?? '';
    await second.until((s) => s.messages.some((m) => m.id === last), 'the last update');

    const seen = [...first.messages, ...second.messages]
      .filter(about(id, 'PortalObjectUpdated'))
      .map((m) => m.id);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
    expect(second.messages.some((m) => m.event === 'reset')).toBe(false);
    second.close();
  });

  it('takes the resume point from ?lastEventId= when no header is sent', async () => {
    const { id } = await createCatalog(owner, 'Query resume');
    const first = await open(owner);
    await retitle(owner, id, 'Query resume 1');
    await first.next(about(id, 'PortalObjectUpdated'), 'the first update');
    first.close();
    const position = await retitle(owner, id, 'Query resume 2');

    const second = await open(
      owner,
      `/api/v1/events?lastEventId=${encodeURIComponent(first.lastEventId ?? '')}`,
    );
    const replayed = await second.next(about(id), 'the missed update');
    expect(replayed.id).toBe(position);
    second.close();
  });

  it("keeps an organization's org-visible changes from other organizations and anonymous callers", async () => {
    const member = await open(owner);
    const outsider = await open(stranger);
    const anonymous = await open();

    const hidden = await createCatalog(owner, 'Members only', 'org');
    const secret = await createCatalog(owner, 'Admins only', 'private');
    const shown = await createCatalog(owner, 'For everyone', 'public');
    const last = await retitle(owner, shown.id, 'For everyone, renamed');

    // Events come in order: once the public update arrived, the hidden ones would have come before it.
    for (const stream of [member, outsider, anonymous]) {
      await stream.until((s) => s.messages.some((m) => m.id === last), 'the public update');
    }
    expect(member.messages.some(about(hidden.id))).toBe(true);
    expect(member.messages.some(about(secret.id))).toBe(true);
    for (const stream of [outsider, anonymous]) {
      const objects = stream.messages.map((m) => changeOf(m).objectId);
      expect(objects).not.toContain(hidden.id);
      expect(objects).not.toContain(secret.id);
      expect(objects.filter((objectId) => objectId === shown.id)).toHaveLength(2);
    }
    for (const stream of [member, outsider, anonymous]) stream.close();
  });

  it('answers 400 to a Last-Event-ID it could never have sent', async () => {
    for (const headers of [{ 'last-event-id': 'not-a-position' }, { 'last-event-id': '1.2.3' }]) {
      const answer = await callAt(stack.baseUrl, 'GET', '/api/v1/events', { headers });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const query = await callAt(stack.baseUrl, 'GET', '/api/v1/events?lastEventId=abc');
    expect(query.status).toBe(400);
  });

  it('resets a resume from a position it does not hold, then goes live', async () => {
    const stream = await open({ ...owner, 'last-event-id': '999999999.999999999' });
    const reset = await stream.next((m) => m.event === 'reset', 'the reset');
    expect(JSON.parse(reset.data)).toMatchObject({ reason: 'unknown-last-event-id' });
    const { id } = await createCatalog(owner, 'After a reset');
    await stream.next(about(id, 'CatalogCreated'), 'a live change after the reset');
    stream.close();
  });

  it('resets a client further behind than the replay bound instead of replaying it all', async () => {
    const { id } = await createCatalog(owner, 'Far behind');
    const first = await open(owner);
    await first.next(about(id, 'CatalogCreated'), 'the create');
    first.close();
    let last = '';
    for (let n = 0; n <= REPLAY_MAX_EVENTS; n += 1) last = await retitle(owner, id, `Far behind ${n}`);
    await callAt(stack.baseUrl, 'GET', '/health', { headers: { 'x-min-position': last } });

    const second = await open({ ...owner, 'last-event-id': first.lastEventId ?? '' });
    const reset = await second.next((m) => m.event === 'reset', 'the reset');
    const body = JSON.parse(reset.data) as { reason: string; position: string | null };
    expect(body.reason).toBe('too-far-behind');
    // The reset's id is where the live feed continues: a reconnect from it replays nothing old.
    expect(reset.id).toBe(body.position);
    expect(second.messages.filter(about(id))).toEqual([]);
    const next = await retitle(owner, id, 'Far behind, live');
    await second.until((s) => s.messages.some((m) => m.id === next), 'the live change');
    second.close();
  });

  it('ends open streams and exits when the API is told to stop, not held by them', async () => {
    const stream = await open(owner);
    await stream.until((s) => s.comments.length > 0, 'the stream to start');
    const api = apiProcessOf(stack);
    process.kill(api, 'SIGTERM');
    await stream.ended;
    // An open stream would hold the API for its whole shutdown grace, an hour here: that it exits within
    // the test's timeout says no stream held it. (Not at once either: fetch keeps a connection of the
    // earlier, aborted streams that node counts as busy until fetch's 4 s keep-alive ends.)
    while (existsSync(`/proc/${api}`)) await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
