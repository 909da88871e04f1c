import { describe, expect, it } from 'vitest';
import { browserNode, joinPath } from './node-rows.js';
import { QueryParams } from '@portal/read-model-core';
import {
  nodeColumns,
  visibleChildCount,
  visibleObject,
  type NodeRow,
} from '@portal/read-model-portal-objects';

const anonymous = ['public'];
const admin = ['public', 'user:u1', 'member:o1', 'member:o1/user:u1', 'editor:o1', 'admin:o1'];

describe('visibleObject', () => {
  it('binds the caller principals as one text[] parameter and keeps deleted_at IS NULL as a conjunct', () => {
    const params = new QueryParams();
    expect(visibleObject('o', admin, params)).toBe(
      '(o.deleted_at IS NULL AND o.read_principals && $1::text[])',
    );
    expect(params.values).toEqual([admin]);
  });

  it('binds them once per statement, however many rows the statement checks', () => {
    const params = new QueryParams();
    params.add('an id', 'uuid');
    const node = visibleObject('n', anonymous, params);
    const ancestor = visibleObject('a', anonymous, params);
    expect([node, ancestor]).toEqual([
      '(n.deleted_at IS NULL AND n.read_principals && $2::text[])',
      '(a.deleted_at IS NULL AND a.read_principals && $2::text[])',
    ]);
    expect(params.values).toEqual(['an id', anonymous]);
  });

  it('writes the same text for every caller, so one prepared statement serves them all', () => {
    const forAnonymous = new QueryParams();
    const forAdmin = new QueryParams();
    expect(nodeColumns('o', anonymous, forAnonymous)).toBe(nodeColumns('o', admin, forAdmin));
    expect(visibleObject('o', anonymous, forAnonymous)).toBe(visibleObject('o', admin, forAdmin));
    expect([forAnonymous.values, forAdmin.values]).toEqual([[anonymous], [admin]]);
  });
});

describe('visibleChildCount', () => {
  const text = visibleChildCount('o', admin, new QueryParams());

  it('takes the stored count for a leaf and for an admin of the node organization', () => {
    expect(text).toContain('WHEN o.child_count = 0 THEN 0');
    expect(text).toContain(`WHEN ('admin:' || o.org_id) = ANY($1::text[]) THEN o.child_count`);
  });

  it('otherwise subtracts the hidden ones among the children that are not public (only private for members)', () => {
    for (const visibility of ['private', 'org']) {
      const child = `o_${visibility}`;
      expect(text).toContain(`${child}.parent_id = o.id AND ${child}.deleted_at IS NULL`);
      expect(text).toContain(
        `${child}.effective_visibility <> 'public' AND ${child}.effective_visibility = '${visibility}'`,
      );
      expect(text).toContain(`AND NOT (${child}.read_principals && $1::text[])`);
    }
    expect(text).toContain(`CASE WHEN ('member:' || o.org_id) = ANY($1::text[]) THEN 0 ELSE (SELECT`);
    expect(text).toContain('GREATEST(0, o.child_count - (SELECT');
  });
});

describe('QueryParams.addShared', () => {
  it('reuses the placeholder of the same value and cast, and only of that', () => {
    const params = new QueryParams();
    const principals = ['public'];
    expect(params.addShared(principals, 'text[]')).toBe('$1::text[]');
    expect(params.add('x')).toBe('$2');
    expect(params.addShared(principals, 'text[]')).toBe('$1::text[]');
    expect(params.addShared(['public'], 'text[]')).toBe('$3::text[]');
    expect(params.addShared(principals, 'varchar[]')).toBe('$4::varchar[]');
    expect(params.values).toEqual([principals, 'x', ['public'], principals]);
  });
});

describe('paths of nodes below a hidden ancestor', () => {
  const row: NodeRow = {
    id: '6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f',
    kind: 'item',
    status: 'ready',
    title: 'T',
    slug: 't',
    parent_id: null,
    depth: 3,
    child_count: 0,
    created_at: new Date('2026-01-01T00:00:00Z'),
    updated_at: new Date('2026-01-01T00:00:00Z'),
  };

  it('have none: a path through a hidden object would name it', () => {
    expect(joinPath(null, 't')).toBeNull();
    expect(browserNode(row, null).path).toBeNull();
    expect(browserNode(row, 'a/b').path).toBe('a/b/t');
    expect(browserNode(row, '').path).toBe('t');
  });
});
