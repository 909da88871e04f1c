import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, createCatalog, createCollection, waitForPosition } from './support/http.js';
import { apiKey, signUp, useSignedInCaller } from './support/auth.js';
import { postNdjson } from './support/ndjson.js';

// Every call of this file acts as a pipeline owning what it creates (an owner-role API key).
useSignedInCaller();

type Line = Record<string, unknown>;

const collectionLine = (parentId: string, title: string, idempotencyKey?: string) =>
  JSON.stringify({
    type: 'createCollection',
    body: { title, description: 'loaded in bulk', links: [], parentId },
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });

function resultsAndSummary(lines: readonly Line[]): { results: Line[]; summary: Line | undefined } {
  return {
    results: lines.filter((line) => 'line' in line),
    summary: lines.find((line) => line['done'] === true),
  };
}

/** Posts `lines`, then again those answered `IDEMPOTENCY_KEY_IN_PROGRESS`, until none is; results by line. */
async function sendUntilSettled(
  lines: readonly string[],
): Promise<{ results: Line[]; summary: Line | undefined }> {
  const results: Line[] = [];
  let pending = lines.map((text, index) => ({ text, index }));
  let summary: Line | undefined;
  while (pending.length > 0) {
    const answer = resultsAndSummary((await postNdjson(pending.map(({ text }) => text))).lines);
    // Each post waits for its own newest event; the last one's summary may have nothing new.
    if (typeof answer.summary?.['position'] === 'string') await waitForPosition(answer.summary['position']);
    summary = answer.summary;
    const retry: typeof pending = [];
    for (const [position, result] of answer.results.entries()) {
      const sent = pending[position];
      if (!sent) continue;
      if (result['code'] === 'IDEMPOTENCY_KEY_IN_PROGRESS') retry.push(sent);
      else results[sent.index] = { ...result, line: sent.index + 1 };
    }
    pending = retry;
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { results, summary };
}

async function childCountOf(catalogId: string, position: unknown): Promise<number> {
  if (typeof position === 'string') await waitForPosition(position);
  const catalog = await call<{ childCount: number }>('GET', `/api/v1/portal/catalogs/${catalogId}`);
  return catalog.body.childCount;
}

describe('POST /api/v1/portal/bulk loads NDJSON, one result line per command', () => {
  it('applies 100,000 lines in one request, each bad line refused on its own', async () => {
    const parentId = await createCatalog({ title: 'Bulk target' });
    const total = 100_000;
    // Every 10th line is refused by a rule (unknown parent), every 25th is not a valid command;
    // the others create collections under one catalog.
    const kindOf = (line: number) => (line % 25 === 0 ? 'invalid' : line % 10 === 0 ? 'orphan' : 'good');
    function* lines(): Generator<string> {
      for (let line = 1; line <= total; line += 1) {
        const kind = kindOf(line);
        if (kind === 'invalid') yield JSON.stringify({ type: 'createCollection', body: { title: '' } });
        else yield collectionLine(kind === 'orphan' ? randomUUID() : parentId, `Bulk ${line}`);
      }
    }
    const answer = await postNdjson(lines());
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('application/x-ndjson');
    const { results, summary } = resultsAndSummary(answer.lines);
    expect(results).toHaveLength(total);
    expect(results.map((result) => result['line'])).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const expected = { good: 201, orphan: 409, invalid: 400 } as const;
    const wrong = results.filter((result) => result['status'] !== expected[kindOf(Number(result['line']))]);
    expect(wrong.slice(0, 3)).toEqual([]);
    const good = results.filter((result) => result['status'] === 201);
    expect(new Set(good.map((result) => result['id'])).size).toBe(good.length);
    expect(results.find((result) => result['status'] === 409)).toMatchObject({ code: 'PARENT_NOT_FOUND' });
    expect(results.find((result) => result['status'] === 400)?.['message']).toContain('body.title');
    expect(summary).toMatchObject({ done: true, lines: total, applied: good.length, complete: true });
    expect(summary?.['failed']).toBe(total - good.length);
    expect(await childCountOf(parentId, summary?.['position'])).toBe(good.length);
    const sample = good[good.length - 1]?.['id'];
    const collection = await call('GET', `/api/v1/collections/${String(sample)}`);
    expect(collection.body).toMatchObject({ title: `Bulk ${total - 1}` });
  }, 600_000);

  it('creates catalogs and items, updates and moves, in line order', async () => {
    const source = await createCatalog({ title: 'Move source' });
    const target = await createCatalog({ title: 'Move target' });
    const collection = await createCollection({ title: 'Before', parentId: source });
    const answer = await postNdjson([
      JSON.stringify({ type: 'createCatalog', body: { title: 'Bulk catalog', description: 'x', links: [] } }),
      JSON.stringify({
        type: 'createItem',
        body: { title: 'Scene', links: [], parentId: collection, size: 10, tags: ['bulk'] },
      }),
      JSON.stringify({ type: 'update', id: collection, body: { title: 'After' } }),
      JSON.stringify({ type: 'move', id: collection, body: { parentId: target } }),
      JSON.stringify({ type: 'update', id: collection, body: { description: 'moved' }, ifMatch: '"0"' }),
      JSON.stringify({ type: 'update', id: randomUUID(), body: { title: 'Nobody' } }),
    ]);
    const { results, summary } = resultsAndSummary(answer.lines);
    expect(results.map((result) => result['status'])).toEqual([201, 201, 200, 200, 412, 404]);
    const upload = (results[1]?.['upload'] ?? {}) as Record<string, unknown>;
    expect(Object.keys(upload).sort()).toEqual(['bucket', 'key', 'partSize', 'uploadId']);
    await waitForPosition(String(summary?.['position']));
    const moved = await call('GET', `/api/v1/portal/items/${collection}`);
    expect(moved.body).toMatchObject({ title: 'After', parentId: target });
    const item = await call('GET', `/api/v1/portal/items/${String(results[1]?.['id'])}`);
    expect(item.body).toMatchObject({ kind: 'item', status: 'uploading', parentId: collection });
  });

  it('keeps what it acknowledged when the client goes away, and replays lines by their keys', async () => {
    const parentId = await createCatalog({ title: 'Interrupted target' });
    const total = 5_000;
    const run = randomUUID();
    const lines = Array.from({ length: total }, (_, index) =>
      collectionLine(parentId, `Interrupted ${index + 1}`, `${run}-${index + 1}`),
    );
    const first = await postNdjson(lines, { stopWhen: (received) => received.length >= 600 });
    expect(first.aborted).toBe(true);
    const acknowledged = resultsAndSummary(first.lines).results;
    expect(acknowledged.length).toBeGreaterThanOrEqual(600);
    expect(acknowledged.length).toBeLessThan(total);
    const firstIds = new Map(acknowledged.map((result) => [result['line'], result['id']]));
    expect(acknowledged.every((result) => result['status'] === 201)).toBe(true);

    // The same lines again: acknowledged ones answer their first id, the others are applied now. A
    // line whose first request may still be applying it answers 409 and is sent again, as a client would.
    const { results, summary } = await sendUntilSettled(lines);
    expect(results).toHaveLength(total);
    expect(results.filter((result) => result['status'] !== 201).slice(0, 3)).toEqual([]);
    for (const [line, id] of firstIds) {
      expect(results[Number(line) - 1]).toMatchObject({ id, replayed: true });
    }
    expect(new Set(results.map((result) => result['id'])).size).toBe(total);
    // Nothing half-applied and nothing twice: exactly one collection per line under the parent.
    expect(await childCountOf(parentId, summary?.['position'])).toBe(total);

    const reused = await postNdjson([collectionLine(parentId, 'Another title', `${run}-1`)]);
    expect(resultsAndSummary(reused.lines).results[0]).toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  }, 300_000);

  it('answers a malformed stream before anything is written', async () => {
    const parentId = await createCatalog({ title: 'Malformed target' });
    const notJson = await postNdjson([collectionLine(parentId, 'Never 1'), '{"type": "createColl']);
    expect(notJson.status).toBe(400);
    expect(notJson.lines[0]).toMatchObject({ code: 'MALFORMED_JSON' });
    expect(String(notJson.lines[0]?.['message'])).toContain('line 2');
    const tooLong = await postNdjson([
      collectionLine(parentId, 'Never 2'),
      JSON.stringify({ type: 'createCatalog', body: { title: 'x', description: 'y'.repeat(1_100_000) } }),
    ]);
    expect(tooLong.status).toBe(413);
    expect(await childCountOf(parentId, undefined)).toBe(0);

    const wrongType = await call('POST', '/api/v1/portal/bulk', { body: { commands: [] } });
    expect(wrongType.status).toBe(415);
    const anonymous = await call('POST', '/api/v1/portal/bulk', {
      rawBody: collectionLine(parentId, 'Anonymous'),
      headers: { 'content-type': 'application/x-ndjson' },
      as: 'anonymous',
    });
    expect(anonymous.status).toBe(401);
  });

  it('answers each line what its single command answers to another organization: nothing is created', async () => {
    const parentId = await createCatalog({ title: 'Not theirs' });
    const stranger = await apiKey(await signUp({ name: 'Stranger' }), { role: 'owner' });
    const single = await call('POST', '/api/v1/portal/collections/create', {
      headers: stranger.headers,
      body: { title: 'Single', description: 'refused', links: [], parentId },
    });
    const bulk = await postNdjson([collectionLine(parentId, 'Bulk')], { headers: stranger.headers });
    expect(bulk.status).toBe(200);
    const { results } = resultsAndSummary(bulk.lines);
    expect(single.status).toBeGreaterThanOrEqual(400);
    expect(results).toEqual([expect.objectContaining({ line: 1, status: single.status })]);
    expect(await childCountOf(parentId, undefined)).toBe(0);
  });

  it('reports exactly which lines were applied when the stream breaks after the first chunk', async () => {
    const parentId = await createCatalog({ title: 'Cut target' });
    const good = Array.from({ length: 700 }, (_, index) => collectionLine(parentId, `Cut ${index + 1}`));
    const answer = await postNdjson([...good, 'not json', collectionLine(parentId, 'After the cut')]);
    expect(answer.status).toBe(200);
    const { results, summary } = resultsAndSummary(answer.lines);
    expect(results).toHaveLength(701);
    expect(results.slice(0, 700).every((result) => result['status'] === 201)).toBe(true);
    expect(results[700]).toMatchObject({ line: 701, status: 400, code: 'MALFORMED_JSON' });
    expect(summary).toMatchObject({ lines: 701, applied: 700, failed: 1, complete: false });
    expect(await childCountOf(parentId, summary?.['position'])).toBe(700);
  });
});
