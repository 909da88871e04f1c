import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bulkLineSchema, bulkResponseLineSchema, revisionOfIfMatch } from './bulk.js';
import { validCatalogBody, validCollectionBody, validItemBody } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('bulk line', () => {
  it('accepts each kind of command, with or without an idempotency key', () => {
    const id = randomUUID();
    const lines = [
      { type: 'createCatalog', body: validCatalogBody(), idempotencyKey: 'k1' },
      { type: 'createCollection', body: validCollectionBody() },
      { type: 'createItem', body: validItemBody() },
      { type: 'update', id, body: { title: 'New' }, ifMatch: '"3"' },
      { type: 'move', id, body: { parentId: null }, idempotencyKey: 'k2' },
    ];
    for (const line of lines) expect(acceptanceOf(bulkLineSchema, line)).toEqual(line);
  });

  it('validates the body with its single endpoint schema, naming the field', () => {
    expect(
      rejectionOf(bulkLineSchema, { type: 'createCatalog', body: { ...validCatalogBody(), title: '' } })
        .message,
    ).toBe('body.title: must be at least 1 character');
    expect(rejectionOf(bulkLineSchema, { type: 'update', id: 'nope', body: {} }).message).toContain('id');
  });

  it('refuses an unknown type, unknown fields, and keys or ETags out of bounds', () => {
    expect(rejectionOf(bulkLineSchema, { type: 'dropEverything' }).message).toContain(
      'must be one of createCatalog, createCollection, createItem, update, move',
    );
    expect(rejectionOf(bulkLineSchema, [1, 2]).message).toContain('must be a JSON object');
    const extra = { type: 'createCatalog', body: validCatalogBody(), extra: true };
    expect(rejectionOf(bulkLineSchema, extra).message).toContain('extra');
    const longKey = { type: 'createCatalog', body: validCatalogBody(), idempotencyKey: 'k'.repeat(256) };
    expect(rejectionOf(bulkLineSchema, longKey).message).toContain('idempotencyKey');
    const badEtag = { type: 'update', id: randomUUID(), body: {}, ifMatch: 'latest' };
    expect(rejectionOf(bulkLineSchema, badEtag).message).toContain('ifMatch');
  });

  it('reads the revision of an ETag, quoted, weak or bare', () => {
    expect([revisionOfIfMatch('"3"'), revisionOfIfMatch('W/"12"'), revisionOfIfMatch('7')]).toEqual([
      3n,
      12n,
      7n,
    ]);
  });
});

describe('bulk response line', () => {
  it('is a result line or the summary', () => {
    const result = { line: 2, status: 201, id: randomUUID() };
    const refusal = { line: 3, status: 409, code: 'PARENT_NOT_FOUND', message: 'gone' };
    const summary = {
      done: true,
      lines: 3,
      applied: 1,
      failed: 1,
      position: '1.2',
      projected: true,
      complete: true,
    };
    for (const line of [result, refusal, summary]) {
      expect(bulkResponseLineSchema.parse(line)).toEqual(line);
    }
  });
});
