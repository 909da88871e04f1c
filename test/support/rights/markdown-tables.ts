/**
 * The pipe tables of a markdown document (GitHub's flavour), each with the headings it stands under, so
 * a test can read a table the doc's readers read. Cells are trimmed; `\|` is a pipe inside a cell.
 */
export interface MarkdownTable {
  /** The headings above the table, outermost first (`## A`, `### B` → `['A', 'B']`). */
  readonly headings: readonly string[];
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The 1-based line of the header, for error messages. */
  readonly line: number;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const DELIMITER_CELL = /^:?-+:?$/;

/** The cells of one `| a | b |` line; `null` when the line is not a table row. */
function cellsOf(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|')) return null;
  const cells: string[] = [];
  let cell = '';
  for (let index = 1; index < trimmed.length; index += 1) {
    const char = trimmed.charAt(index);
    if (char === '\\' && trimmed.charAt(index + 1) === '|') {
      cell += '|';
      index += 1;
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  if (cell.trim() !== '') cells.push(cell.trim());
  return cells;
}

export function parseMarkdownTables(markdown: string): MarkdownTable[] {
  const lines = markdown.split(/\r?\n/);
  const tables: MarkdownTable[] = [];
  const headings: string[] = [];
  let inFence = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] ?? '#').length;
      // A skipped level (`##` then `####`) holds an empty heading, left out of `headings` below.
      headings.length = Math.min(headings.length, level - 1);
      while (headings.length < level - 1) headings.push('');
      headings.push(heading[2] ?? '');
      continue;
    }
    const header = cellsOf(line);
    const delimiter = cellsOf(lines[index + 1] ?? '');
    if (!header || !delimiter || !delimiter.every((cell) => DELIMITER_CELL.test(cell))) continue;
    if (delimiter.length !== header.length) {
      throw new Error(
        `line ${index + 2}: the delimiter row has ${delimiter.length} cells, the header ${header.length}`,
      );
    }
    const rows: string[][] = [];
    let at = index + 2;
    for (let row = cellsOf(lines[at] ?? ''); row; row = cellsOf(lines[at] ?? '')) {
      if (row.length !== header.length) {
        throw new Error(`line ${at + 1}: ${row.length} cells where the header has ${header.length}`);
      }
      rows.push(row);
      at += 1;
    }
    tables.push({ headings: headings.filter((text) => text !== ''), header, rows, line: index + 1 });
    index = at - 1;
  }
  return tables;
}

/** The text of a code span at the start of `text` (`` `org`: … `` → `org`), or `null`. */
export function leadingCode(text: string): string | null {
  return /^`([^`]+)`/.exec(text)?.[1] ?? null;
}
