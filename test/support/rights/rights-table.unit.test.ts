import { describe, expect, it } from 'vitest';
import { expectedDeleteCell, expectedMoveCell, expectedObjectCell } from './expectations.js';
import { leadingCode, parseMarkdownTables } from './markdown-tables.js';
import { actingOf, RightsModel } from './model.js';
import { identityDocument, readRightsTable } from './rights-table.js';
import {
  deleteScenarios,
  moveScenarios,
  operations,
  relations,
  situations,
  structureCallers,
} from './vocabulary.js';

describe('parseMarkdownTables', () => {
  it('reads each table with the headings above it, its header and its rows', () => {
    const tables = parseMarkdownTables(
      [
        '# Doc',
        'Some text | with a pipe.',
        '## Part',
        '### Sub',
        '',
        '| a   | b \\| c | d |',
        '| :-- | :-----: | --: |',
        '| 1 | `x` | ✓ |',
        '|2|3|4|',
        '',
        '## Other',
        '#### Skipped level',
        '| only |',
        '| ---- |',
        '| one  |',
        'after',
      ].join('\n'),
    );
    expect(tables).toEqual([
      {
        headings: ['Doc', 'Part', 'Sub'],
        header: ['a', 'b | c', 'd'],
        rows: [
          ['1', '`x`', '✓'],
          ['2', '3', '4'],
        ],
        line: 6,
      },
      { headings: ['Doc', 'Other', 'Skipped level'], header: ['only'], rows: [['one']], line: 13 },
    ]);
  });

  it('leaves tables in code fences and lines that only look like rows alone', () => {
    const text = ['```', '| a |', '| - |', '| 1 |', '```', '| not | a table |', 'text'].join('\n');
    expect(parseMarkdownTables(text)).toEqual([]);
  });

  it('refuses a row whose cells do not match the header', () => {
    expect(() => parseMarkdownTables('| a | b |\n| - | - |\n| 1 |\n')).toThrow(/line 3: 1 cells/);
  });

  it('reads the code a row or heading starts with', () => {
    expect(leadingCode('`org-to-org`: from P1 to P2')).toBe('org-to-org');
    expect(leadingCode('viewer')).toBeNull();
  });
});

describe('the rights table of docs/identity.md', () => {
  const table = readRightsTable();

  it('has every cell: situations × rows × operations, moves and deletes × callers', () => {
    const callers = Object.keys(structureCallers).length;
    expect(table.objects).toHaveLength(
      Object.keys(situations).length * Object.keys(relations).length * operations.length,
    );
    expect(table.moves).toHaveLength(Object.keys(moveScenarios).length * callers);
    expect(table.deletes).toHaveLength(Object.keys(deleteScenarios).length * 2 * callers);
  });

  it('says in every cell what the model of the rules computes', () => {
    const disagreements = [
      ...table.objects
        .filter((cell) => expectedObjectCell(cell.situation, cell.relation, cell.operation) !== cell.expected)
        .map((cell) => `${cell.situation} › ${cell.relation} › ${cell.operation}: ${cell.expected}`),
      ...table.moves
        .filter((cell) => expectedMoveCell(cell.scenario, cell.caller) !== cell.expected)
        .map((cell) => `move ${cell.scenario} › ${cell.caller}: ${cell.expected}`),
      ...table.deletes
        .filter((cell) => expectedDeleteCell(cell.scenario, cell.recursive, cell.caller) !== cell.expected)
        .map((cell) => `delete ${cell.scenario} › ${cell.caller}: ${cell.expected}`),
    ];
    expect(disagreements).toEqual([]);
  });

  /** The doc with the first cell after `label` (in the first table that has that row) replaced. */
  const withFirstCellOf = (label: string, replacement: string): string => {
    const document = identityDocument();
    const at = document.indexOf(`| ${label} `, document.indexOf('## The rights table'));
    expect(at).toBeGreaterThan(0);
    const row = document.slice(at + label.length + 2);
    return document.slice(0, at + label.length + 2) + row.replace(/\|\s*\S+\s*\|/, `| ${replacement} |`);
  };

  it('fails on a cell edited in the doc alone', () => {
    const label = 'editor of an organization with an editor share';
    const edited = readRightsTable(withFirstCellOf(label, '403')).objects.find(
      (cell) => cell.relation === label,
    );
    expect(edited?.expected).toBe('403');
    if (edited) expect(expectedObjectCell(edited.situation, edited.relation, edited.operation)).toBe('✓');
  });

  it('fails on a row, a column or a situation the vocabulary does not know', () => {
    const document = identityDocument();
    expect(() => readRightsTable(document.replace('| viewer with an editor share', '| a stranger'))).toThrow(
      /missing \["viewer with an editor share"\]/,
    );
    expect(() => readRightsTable(document.replace('| list shares', '| list everything'))).toThrow(/columns/);
    expect(() => readRightsTable(document.replace('#### `org-in-shared`', '#### `org-in-a-box`'))).toThrow(
      /unknown situation/,
    );
    expect(() => readRightsTable(document.replace('| `to-root`', '| `to-the-moon`'))).toThrow(/unknown row/);
    expect(() => readRightsTable(withFirstCellOf('admin', 'maybe'))).toThrow(/"maybe"/);
  });
});

/** The model on its own, on a few facts of the doc stated by hand, so it cannot agree with anything. */
describe('the rights model', () => {
  const model = new RightsModel([
    { name: 'P', org: 'A', creator: 'creator', visibility: 'org', shares: [], parent: null },
    {
      name: 'S',
      org: 'A',
      creator: 'creator',
      visibility: 'org',
      shares: [{ to: { person: 'editorShare' }, permission: 'editor' }],
      parent: null,
    },
    { name: 'H', org: 'A', creator: 'owner', visibility: 'private', shares: [], parent: 'S' },
    { name: 'O', org: 'A', creator: 'creator', visibility: 'org', shares: [], parent: 'S' },
  ]);
  const as = (person: 'viewer' | 'editor' | 'admin' | 'creator' | 'editorShare' | 'outsider') =>
    actingOf({ person });

  it('lets members read what the organization sees, and only admins and its creator the private', () => {
    expect(model.read(as('viewer'), 'P')).toBe('✓');
    expect(model.read(as('outsider'), 'P')).toBe('404');
    expect(model.read(as('editor'), 'H')).toBe('404');
    expect(model.read(as('admin'), 'H')).toBe('✓');
  });

  it('stops a share at an object private on its own', () => {
    expect(model.change(as('editorShare'), 'O', 'edit')).toBe('✓');
    expect(model.read(as('editorShare'), 'H')).toBe('404');
  });

  it('refuses a move that widens access to whoever is not an admin or the creator of all of it', () => {
    expect(model.move(as('editor'), 'P', 'S')).toBe('403');
    expect(model.move(as('creator'), 'P', 'S')).toBe('✓');
    expect(model.move(as('admin'), 'P', 'S')).toBe('✓');
  });

  it('refuses a delete of a container with hidden content with 403, not 409', () => {
    expect(model.delete(as('editor'), 'S', false)).toBe('403');
    expect(model.delete(as('admin'), 'S', false)).toBe('409');
    expect(model.delete(as('admin'), 'S', true)).toBe('✓');
  });
});
