import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCql2Json, parseCql2Text, printCql2Json, printCql2Text } from '../src/index.js';
import { cql2Tree } from './arbitraries.js';

describe('CQL2 round trips', () => {
  it('text: print, parse, same tree', () => {
    fc.assert(
      fc.property(cql2Tree, (tree) => {
        expect(parseCql2Text(printCql2Text(tree))).toEqual(tree);
      }),
      { numRuns: 2000 },
    );
  });

  it('JSON: print, serialise, parse, same tree', () => {
    fc.assert(
      fc.property(cql2Tree, (tree) => {
        expect(parseCql2Json(JSON.parse(JSON.stringify(printCql2Json(tree))))).toEqual(tree);
      }),
      { numRuns: 2000 },
    );
  });
});
