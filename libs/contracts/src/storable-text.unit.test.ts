import { describe, expect, it } from 'vitest';
import { findUnstorableJsonText, isStorableText } from './storable-text.js';
import { unstorableTexts } from './test-support/storable-text.js';

describe('isStorableText', () => {
  it.each(unstorableTexts)('refuses %s', (_name, text) => {
    expect(isStorableText(text)).toBe(false);
  });

  it.each([
    ['an empty string', ''],
    ['ASCII with other control characters', 'tab\there\nand \u0001'],
    ['a surrogate pair', '😀'],
    ['consecutive surrogate pairs', '😀🗺'],
    ['U+FFFF and U+E000', '\uffff\ue000'],
  ])('accepts %s', (_name, text) => {
    expect(isStorableText(text)).toBe(true);
  });
});

describe('findUnstorableJsonText', () => {
  it('finds nothing in storable JSON', () => {
    expect(findUnstorableJsonText({ a: ['x', 1, null, { b: '😀' }], c: true })).toBeUndefined();
  });

  it('gives the path of a string value inside objects and arrays', () => {
    expect(findUnstorableJsonText({ a: [{ b: 'ok' }, { b: ['ok', 'x\u0000'] }] })).toEqual({
      path: ['a', 1, 'b', 1],
      inKey: false,
    });
  });

  it('gives the path of an unstorable key, and says it is the key', () => {
    expect(findUnstorableJsonText({ a: { '\udc00': 'fine' } })).toEqual({
      path: ['a', '\udc00'],
      inKey: true,
    });
  });

  it('checks a bare string and reports an empty path', () => {
    expect(findUnstorableJsonText('\ud800')).toEqual({ path: [], inKey: false });
  });

  it('reports the shallowest offender first', () => {
    expect(findUnstorableJsonText({ deep: { deeper: '\u0000' }, shallow: '\u0000' })?.path).toEqual([
      'shallow',
    ]);
  });

  it('walks nesting far deeper than the call stack allows', () => {
    const depth = 200_000;
    let nested: unknown = '\u0000';
    for (let level = 0; level < depth; level++) nested = [nested];
    const found = findUnstorableJsonText({ root: nested });
    expect(found?.path.length).toBe(depth + 1);
    expect(found?.path[0]).toBe('root');
  });
});
