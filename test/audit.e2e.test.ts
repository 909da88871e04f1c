import { beforeAll, describe, expect, inject, it } from 'vitest';
import { auditPageSchema, AUDIT_CSV_COLUMNS, type AuditEvent, type AuditPage } from '@portal/contracts';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { call, expectCommand, expectMatchesContract } from './support/http.js';

/**
 * The audit feed of organization A (an owner, an admin, an editor, a viewer) beside organization B (an
 * owner who also acts on A's objects through a share). In A: root R holding C holding K; root E. The
 * editor renames K, creates E and moves K from C to E; the owner shares R with B's owner. In B: root X.
 */

let ownerA: SignedInUser;
let adminA: SignedInUser;
let editorA: SignedInUser;
let viewerA: SignedInUser;
let ownerB: SignedInUser;
const ids: Record<string, string> = {};

// A name a spreadsheet would run as a formula, with a quote and a comma for RFC 4180 quoting.
const EDITOR_NAME = '=HYPERLINK("https://evil.example","click"), editor';

async function created(
  user: SignedInUser,
  kind: 'catalogs' | 'collections',
  fields: Record<string, unknown>,
) {
  const response = await call<{ portalItemId: string }>('POST', `/api/v1/portal/${kind}/create`, {
    headers: user.headers,
    body: { description: 'audit test', links: [], ...fields },
  });
  await expectCommand(response, 201, `create ${kind}`);
  return response.body.portalItemId;
}

function feed(user: SignedInUser | null, query = '') {
  return call<AuditPage>(
    'GET',
    `/api/v1/audit/events${query}`,
    user ? { headers: user.headers } : { as: 'anonymous' },
  );
}

/** Every page of a query, followed by its `next` cursors. */
async function allEvents(user: SignedInUser, query: Record<string, string> = {}): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, ...(cursor === null ? {} : { cursor }) });
    const page = await feed(user, `?${params.toString()}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expectMatchesContract(auditPageSchema, page.body);
    events.push(...page.body.items);
    cursor = page.body.next;
  } while (cursor !== null);
  return events;
}

/** RFC 4180: quoted fields may hold commas, CRLFs and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += char;
  }
  if (field !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

async function csvExport(user: SignedInUser, query = '') {
  const response = await fetch(`${inject('baseUrl')}/api/v1/audit/events${query}`, {
    headers: { ...user.headers, accept: 'text/csv' },
  });
  const text = await response.text();
  // Errors are the message object in JSON, whatever the Accept.
  const csv = (response.headers.get('content-type') ?? '').startsWith('text/csv');
  return { response, records: csv ? parseCsv(text) : [] };
}

/** A CSV record as the JSON item it stands for (a formula-looking cell loses its guard quote). */
function fromCsv(record: string[]): AuditEvent {
  const [position, occurredAt, type, actorId, actorName, objectId, objectKind, revision, data, operator] =
    record;
  const unguard = (cell = '') => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
  return {
    position: position ?? '',
    type: type ?? '',
    occurredAt: occurredAt ?? '',
    actor: { id: actorId || null, name: actorName ? unguard(actorName) : null },
    object: objectId ? { id: objectId, kind: (objectKind || null) as 'catalog' | null } : null,
    revision: Number(revision),
    data: JSON.parse(data ?? 'null') as Record<string, unknown>,
    operator: operator ? unguard(operator) : null,
  };
}

beforeAll(async () => {
  ownerA = await signUp({ name: 'Owner A' });
  adminA = await addMember(ownerA, await signUp({ name: 'Admin A' }), 'admin');
  editorA = await addMember(ownerA, await signUp({ name: EDITOR_NAME }), 'editor');
  viewerA = await addMember(ownerA, await signUp({ name: 'Viewer A' }), 'viewer');
  ownerB = await signUp({ name: 'Owner B' });

  ids.R = await created(ownerA, 'catalogs', { title: 'R' });
  ids.C = await created(ownerA, 'catalogs', { title: 'C', parentId: ids.R });
  ids.K = await created(ownerA, 'collections', { title: 'K', parentId: ids.C });
  ids.X = await created(ownerB, 'catalogs', { title: 'X' });
  await expectCommand(
    await call('PATCH', `/api/v1/portal/items/${ids.K}`, { headers: editorA.headers, body: { title: 'K2' } }),
    200,
    'rename K',
  );
  ids.E = await created(editorA, 'catalogs', { title: 'E' });
  await expectCommand(
    await call('POST', `/api/v1/portal/items/${ids.K}/move`, {
      headers: editorA.headers,
      body: { parentId: ids.E },
    }),
    200,
    'move K',
  );
  await expectCommand(
    await call('POST', `/api/v1/portal/items/${ids.R}/shares`, {
      headers: ownerA.headers,
      body: { principal: { type: 'user', id: ownerB.userId }, permission: 'editor' },
    }),
    201,
    'share R',
  );
  // B's owner changes A's object through the share: it is A's event, in A's feed, never in B's.
  await expectCommand(
    await call('PATCH', `/api/v1/portal/items/${ids.C}`, {
      headers: ownerB.headers,
      body: { title: 'C by B' },
    }),
    200,
    'rename C',
  );
}, 90_000);

describe('who may read the audit feed', () => {
  it('is the active organization’s admins and owners: others 403, anonymous callers 401', async () => {
    expect((await feed(ownerA)).status).toBe(200);
    expect((await feed(adminA)).status).toBe(200);
    expect((await feed(editorA)).status).toBe(403);
    expect((await feed(viewerA)).status).toBe(403);
    const anonymous = await feed(null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers 406 to an Accept it cannot serve, and 400 to bad filters', async () => {
    const xml = await call('GET', '/api/v1/audit/events', {
      headers: { ...ownerA.headers, accept: 'application/xml' },
    });
    expect(xml.status).toBe(406);
    expect(xml.body).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    for (const query of [
      '?from=yesterday',
      '?to=2025-02-30T00:00:00Z',
      '?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z',
      '?actorId=nope',
      '?type=Not-A-Type',
      '?objectId=1',
      '?subtree=true',
      '?limit=0',
      '?limit=1001',
      '?cursor=bogus',
    ]) {
      const response = await feed(ownerA, query);
      expect(response.status, query).toBe(400);
      expect(typeof (response.body as unknown as { message: string }).message).toBe('string');
    }
  });
});

describe('the feed of organization A', () => {
  it('holds its objects’ and its own events, in order, and nothing of organization B', async () => {
    const events = await allEvents(ownerA, { limit: '1000' });
    const positions = events.map((event) => event.position.split('.').map(BigInt)[0] ?? 0n);
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(events.some((event) => event.object?.id === ids.X)).toBe(false);
    expect(events.some((event) => event.type === 'UserRegistered')).toBe(false);
    // B's owner appears once: the change they made to A's object through the share.
    const byB = events.filter((event) => event.actor.id === ownerB.userId);
    expect(byB.map((event) => [event.type, event.object?.id])).toEqual([['PortalObjectUpdated', ids.C]]);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'OrganizationCreated',
        'MemberInvited',
        'MemberAdded',
        'CatalogCreated',
        'ObjectShared',
      ]),
    );
    const update = events.find((event) => event.type === 'PortalObjectUpdated' && event.object?.id === ids.K);
    expect(update).toMatchObject({
      actor: { id: editorA.userId, name: EDITOR_NAME },
      object: { id: ids.K, kind: 'collection' },
      revision: 1,
      data: { id: ids.K, changes: { title: 'K2' } },
    });

    const inB = await allEvents(ownerB);
    expect(inB.some((event) => [ids.R, ids.C, ids.K, ids.E].includes(event.object?.id ?? ''))).toBe(false);
    expect(inB.filter((event) => event.object !== null).map((event) => event.object?.id)).toEqual([ids.X]);
  });

  it("finds nothing for another organization's object, even as a subtree", async () => {
    for (const query of [
      `?objectId=${ids.X}`,
      `?objectId=${ids.X}&subtree=true`,
      `?objectId=${ids.R}&subtree=true`,
    ]) {
      const own = query.includes(ids.R ?? '');
      const response = await feed(own ? ownerB : ownerA, query);
      expect(response.status).toBe(200);
      expect(response.body.items).toEqual([]);
    }
  });

  it('filters by actor and by type', async () => {
    const byEditor = await allEvents(adminA, { actorId: editorA.userId });
    expect(byEditor.every((event) => event.actor.id === editorA.userId)).toBe(true);
    expect(
      byEditor.filter((event) => event.object !== null).map((event) => [event.type, event.object?.id]),
    ).toEqual([
      ['PortalObjectUpdated', ids.K],
      ['CatalogCreated', ids.E],
      ['PortalObjectMoved', ids.K],
    ]);

    const changes = await allEvents(adminA, { type: 'PortalObjectMoved,ObjectShared' });
    expect(changes.map((event) => [event.type, event.object?.id])).toEqual([
      ['PortalObjectMoved', ids.K],
      ['ObjectShared', ids.R],
    ]);
    expect(await allEvents(adminA, { type: 'NoSuchEvent' })).toEqual([]);
  });

  it('filters by time: from (inclusive) and to (exclusive) split the feed', async () => {
    const all = await allEvents(ownerA);
    const middle = all[Math.floor(all.length / 2)]?.occurredAt ?? '';
    const from = await allEvents(ownerA, { from: middle });
    const to = await allEvents(ownerA, { to: middle });
    expect(from.every((event) => event.occurredAt >= middle)).toBe(true);
    expect(to.every((event) => event.occurredAt < middle)).toBe(true);
    expect([...to, ...from]).toEqual(all);
    const offset = new Date(Date.parse(middle)).toISOString().replace('Z', '+00:00');
    expect(await allEvents(ownerA, { from: offset })).toEqual(from);
  });

  it('follows an object and, with subtree=true, everything below it at the time', async () => {
    const rootOnly = await allEvents(ownerA, { objectId: ids.R ?? '' });
    expect(rootOnly.map((event) => event.type)).toEqual(['CatalogCreated', 'ObjectShared']);

    const subtree = await allEvents(ownerA, { objectId: ids.R ?? '', subtree: 'true' });
    expect(subtree.map((event) => [event.type, event.object?.id])).toEqual([
      ['CatalogCreated', ids.R],
      ['CatalogCreated', ids.C],
      ['CollectionCreated', ids.K],
      ['PortalObjectUpdated', ids.K],
      // K leaving C for E: below both its old and its new place.
      ['PortalObjectMoved', ids.K],
      ['ObjectShared', ids.R],
      ['PortalObjectUpdated', ids.C],
    ]);
    const below = await allEvents(ownerA, { objectId: ids.E ?? '', subtree: 'true' });
    expect(below.map((event) => [event.type, event.object?.id])).toEqual([
      ['CatalogCreated', ids.E],
      ['PortalObjectMoved', ids.K],
    ]);
  });

  it('pages with an opaque cursor and a next link that give the same events as one page', async () => {
    const whole = await feed(ownerA, '?limit=1000');
    expect(whole.body.next).toBeNull();
    expect(whole.body.links).toEqual([]);
    const first = await feed(ownerA, '?limit=2&type=CatalogCreated,CollectionCreated');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.links[0]?.href).toContain('type=CatalogCreated%2CCollectionCreated');
    const second = await call<AuditPage>(
      'GET',
      new URL(first.body.links[0]?.href ?? '').pathname + new URL(first.body.links[0]?.href ?? '').search,
      {
        headers: ownerA.headers,
      },
    );
    expect(second.status).toBe(200);
    expect(second.body.items.map((event) => event.object?.id)).toEqual([ids.K, ids.E]);
    expect(await allEvents(ownerA, { limit: '3' })).toEqual(whole.body.items);
    // Another organization's cursor is not one of this feed's.
    const foreign = await feed(ownerB, `?cursor=${first.body.next ?? ''}`);
    expect(foreign.status).toBe(400);
  });
});

describe('the CSV export', () => {
  it('streams the same rows as JSON, RFC 4180-quoted and formula-safe, as an attachment', async () => {
    const json = await allEvents(ownerA, { limit: '1000' });
    const { response, records } = await csvExport(ownerA);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-events-.*\.csv"$/,
    );
    expect(response.headers.get('link')).toBeNull();
    expect(records[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const rows = records.slice(1);
    expect(rows.map(fromCsv)).toEqual(json);
    const editorCells = rows.filter((row) => row[3] === editorA.userId).map((row) => row[4]);
    expect(editorCells.length).toBeGreaterThan(0);
    expect(new Set(editorCells)).toEqual(new Set([`'${EDITOR_NAME}`]));
  });

  it('takes the filters, up to limit rows, and names the next export in a Link header', async () => {
    const json = await allEvents(ownerA, { objectId: ids.R ?? '', subtree: 'true' });
    const first = await csvExport(ownerA, `?objectId=${ids.R}&subtree=true&limit=4`);
    expect(first.records.slice(1).map(fromCsv)).toEqual(json.slice(0, 4));
    const link = /^<([^>]+)>; rel="next"; type="text\/csv"$/.exec(first.response.headers.get('link') ?? '');
    expect(link).not.toBeNull();
    const next = new URL(link?.[1] ?? '');
    const rest = await csvExport(ownerA, next.search);
    expect(rest.response.headers.get('link')).toBeNull();
    expect(rest.records.slice(1).map(fromCsv)).toEqual(json.slice(4));
    // CSV allows large exports; JSON pages stop at 1000.
    expect((await csvExport(ownerA, '?limit=5000')).response.status).toBe(200);
    expect((await csvExport(ownerA, '?limit=100001')).response.status).toBe(400);
  });

  it('is refused to editors and viewers as JSON is', async () => {
    for (const user of [editorA, viewerA]) {
      const { response } = await csvExport(user);
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });
});
