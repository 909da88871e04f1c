import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, projectImportGraph, runtimeSpecifiers } from './import-cycles.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

describe('runtimeSpecifiers', () => {
  it('counts what loads a module at run time, and not what is erased', () => {
    const text = [
      "import type { Pool } from './erased-import.js';",
      "export type { Row } from './erased-export.js';",
      "import { type Only } from './kept-by-verbatim-syntax.js';",
      "import { value } from './value.js';",
      "import './side-effect.js';",
      "export { again } from './re-export.js';",
      "export * from './star.js';",
      'export const local = 1;',
    ].join('\n');
    expect(runtimeSpecifiers('file.ts', text)).toEqual([
      './kept-by-verbatim-syntax.js',
      './value.js',
      './side-effect.js',
      './re-export.js',
      './star.js',
    ]);
  });
});

describe('importCycles', () => {
  it('finds the modules of each cycle, and a module importing itself', () => {
    const graph = new Map([
      ['sort.ts', ['filter.ts', 'time.ts']],
      ['filter.ts', ['sort.ts']],
      ['time.ts', []],
      ['query.ts', ['sort.ts', 'query.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['filter.ts', 'sort.ts'], ['query.ts']]);
  });

  it('finds none in a graph without one, however deep', () => {
    const chain = new Map(
      Array.from({ length: 5_000 }, (_, n) => [`m${n}`, n === 4_999 ? [] : [`m${n + 1}`]]),
    );
    expect(importCycles(chain)).toEqual([]);
  });
});

describe("the project's modules", () => {
  it('import each other without a cycle', () => {
    const graph = projectImportGraph(projectRoot, ['apps', 'libs', 'bench', 'scripts', 'test']);
    expect(graph.size).toBeGreaterThan(500);
    expect(importCycles(graph)).toEqual([]);
  });
});
