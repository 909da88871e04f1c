import { describe, expect, it } from 'vitest';
import { parseCql2Filter, parseCql2Text } from '../src/index.js';

describe('parseCql2Filter reads the filter parameters of a request', () => {
  const tree = parseCql2Text('a = 1');
  const json = { op: '=', args: [{ property: 'a' }, 1] };

  it('takes a string as text and a value as JSON when filter-lang is absent', () => {
    expect(parseCql2Filter({ filter: 'a = 1' })).toEqual(tree);
    expect(parseCql2Filter({ filter: json })).toEqual(tree);
  });

  it('decodes a cql2-json string, as GET requests send it', () => {
    expect(parseCql2Filter({ filter: JSON.stringify(json), lang: 'cql2-json' })).toEqual(tree);
    expect(() => parseCql2Filter({ filter: '{nope', lang: 'cql2-json' })).toThrow('valid JSON');
  });

  it('refuses other languages and CRSs', () => {
    expect(() => parseCql2Filter({ filter: 'a = 1', lang: 'cql-text' })).toThrow(
      "unsupported filter-lang 'cql-text'",
    );
    expect(() => parseCql2Filter({ filter: json, lang: 'cql2-text' })).toThrow('must be a string');
    expect(() =>
      parseCql2Filter({ filter: 'a = 1', crs: 'http://www.opengis.net/def/crs/EPSG/0/3857' }),
    ).toThrow('unsupported filter-crs');
    expect(parseCql2Filter({ filter: 'a = 1', crs: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' })).toEqual(
      tree,
    );
  });
});
