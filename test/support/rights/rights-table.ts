import { readFileSync } from 'node:fs';
import type { Cell } from './model.js';
import { leadingCode, parseMarkdownTables, type MarkdownTable } from './markdown-tables.js';
import {
  deleteScenarios,
  moveScenarios,
  operations,
  relations,
  situations,
  structureCallers,
  type Operation,
} from './vocabulary.js';

/**
 * The rights table of docs/identity.md as cases, one per cell: "Rights on one object" (a table per
 * situation: caller × operation), "Moves" (scenario × caller) and "Deletes" (scenario × caller, plain
 * and recursive). Anything the vocabulary does not name, a missing row or column, or a cell that is
 * not one of the table's words is an error: the doc and the tests cannot drift apart quietly.
 */

export const SECTION = 'The rights table';

export interface ObjectCase {
  readonly situation: string;
  readonly relation: string;
  readonly operation: Operation;
  readonly expected: Cell;
}

export interface MoveCase {
  readonly scenario: string;
  readonly caller: string;
  readonly expected: Cell;
}

export interface DeleteCase extends MoveCase {
  readonly recursive: boolean;
}

export interface RightsTable {
  readonly objects: readonly ObjectCase[];
  readonly moves: readonly MoveCase[];
  readonly deletes: readonly DeleteCase[];
}

const cells: readonly Cell[] = ['✓', '–', '401', '403', '404', '409'];
/** Columns that say whether the object is shown, not a status. */
const shownColumns: readonly Operation[] = ['listed', 'item list', 'search', 'feed'];

export function identityDocument(): string {
  return readFileSync(new URL('../../../docs/identity.md', import.meta.url), 'utf8');
}

function fail(table: MarkdownTable, message: string): never {
  throw new Error(`docs/identity.md line ${table.line} (${table.headings.join(' › ')}): ${message}`);
}

function cellOf(table: MarkdownTable, text: string, shown: boolean): Cell {
  const cell = cells.find((known) => known === text);
  if (cell === undefined) fail(table, `"${text}" is none of ${cells.join(' ')}`);
  if (shown ? cell !== '✓' && cell !== '–' : cell === '–') {
    fail(table, `"${text}" in a column that ${shown ? 'says ✓ or –' : 'gives ✓ or a status'}`);
  }
  return cell;
}

/** The header must name each of `expected` once, after the first column (`first`). */
function requireHeader(table: MarkdownTable, first: string, expected: readonly string[]): void {
  const [label, ...columns] = table.header;
  if (label !== first) fail(table, `the first column is "${String(label)}", not "${first}"`);
  const sorted = (list: readonly string[]) => [...list].sort().join(' | ');
  if (sorted(columns) !== sorted(expected)) {
    fail(table, `the columns are ${columns.join(' | ')}; expected ${expected.join(' | ')}`);
  }
}

/** Every key once, no other: the rows of a table, the tables of a section. */
function requireAll(where: string, found: readonly string[], keys: readonly string[]): void {
  const missing = keys.filter((key) => !found.includes(key));
  const extra = found.filter((key, index) => !keys.includes(key) || found.indexOf(key) !== index);
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `docs/identity.md, ${where}: missing ${JSON.stringify(missing)}, unknown or repeated ${JSON.stringify(extra)}`,
    );
  }
}

function rowsByCode(table: MarkdownTable, known: readonly string[]): [string, readonly string[]][] {
  const rows = table.rows.map((row): [string, readonly string[]] => {
    const code = leadingCode(row[0] ?? '');
    if (code === null || !known.includes(code)) fail(table, `unknown row "${String(row[0])}"`);
    return [code, row];
  });
  requireAll(
    table.headings.join(' › '),
    rows.map(([code]) => code),
    known,
  );
  return rows;
}

function objectCases(table: MarkdownTable, situation: string): ObjectCase[] {
  requireHeader(table, 'caller', operations);
  const labels = Object.keys(relations);
  requireAll(
    `"${situation}"`,
    table.rows.map((row) => row[0] ?? ''),
    labels,
  );
  return table.rows.flatMap((row) =>
    operations.map((operation) => {
      const text = row[table.header.indexOf(operation)] ?? '';
      const expected = cellOf(table, text, shownColumns.includes(operation));
      return { situation, relation: row[0] ?? '', operation, expected };
    }),
  );
}

function callerCells(table: MarkdownTable, row: readonly string[]): { caller: string; expected: Cell }[] {
  return table.header.slice(1).map((caller, index) => ({
    caller,
    expected: cellOf(table, row[index + 1] ?? '', false),
  }));
}

export function readRightsTable(markdown: string = identityDocument()): RightsTable {
  const tables = parseMarkdownTables(markdown).filter((table) => table.headings.includes(SECTION));
  const objects: ObjectCase[] = [];
  const moves: MoveCase[] = [];
  const deletes: DeleteCase[] = [];
  const seenSituations: string[] = [];
  const seenDeleteModes: string[] = [];
  for (const table of tables) {
    const [, part, sub = ''] = table.headings.slice(table.headings.indexOf(SECTION));
    if (part === 'Rights on one object' && table.header[0] === 'column') {
      // The legend of the columns: it names each operation once.
      requireAll(
        'the columns of "Rights on one object"',
        table.rows.map((row) => row[0] ?? ''),
        operations,
      );
    } else if (part === 'Rights on one object') {
      const situation = leadingCode(sub);
      if (situation === null || !(situation in situations)) fail(table, `unknown situation "${sub}"`);
      seenSituations.push(situation);
      objects.push(...objectCases(table, situation));
    } else if (part === 'Moves') {
      requireHeader(table, 'move', Object.keys(structureCallers));
      for (const [scenario, row] of rowsByCode(table, Object.keys(moveScenarios))) {
        moves.push(...callerCells(table, row).map((cell) => ({ scenario, ...cell })));
      }
    } else if (part === 'Deletes') {
      const mode = leadingCode(sub);
      if (mode !== 'plain' && mode !== 'recursive') fail(table, `"${sub}" is neither plain nor recursive`);
      seenDeleteModes.push(mode);
      requireHeader(table, 'container', Object.keys(structureCallers));
      for (const [scenario, row] of rowsByCode(table, Object.keys(deleteScenarios))) {
        deletes.push(
          ...callerCells(table, row).map((cell) => ({ scenario, recursive: mode === 'recursive', ...cell })),
        );
      }
    } else {
      fail(table, 'a table outside "Rights on one object", "Moves" and "Deletes"');
    }
  }
  requireAll('"Rights on one object"', seenSituations, Object.keys(situations));
  requireAll('"Deletes"', seenDeleteModes, ['plain', 'recursive']);
  if (moves.length === 0) throw new Error('docs/identity.md has no "Moves" table');
  return { objects, moves, deletes };
}
