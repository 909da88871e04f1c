import { availableParallelism, loadavg } from 'node:os';

/** A cell as printed: numbers are rounded for reading; machines read the JSON line instead. */
export type Cell = string | number;

function show(cell: Cell): string {
  if (typeof cell === 'string') return cell;
  if (Number.isNaN(cell)) return '-';
  if (Number.isInteger(cell)) return cell.toLocaleString('en-US');
  if (Math.abs(cell) >= 100) return Math.round(cell).toLocaleString('en-US');
  if (Math.abs(cell) >= 10) return cell.toFixed(1);
  return cell.toFixed(2);
}

/** A plain-text table with right-aligned numbers, written to stdout. */
export function printTable(
  title: string,
  headers: readonly string[],
  rows: readonly (readonly Cell[])[],
): void {
  const text = rows.map((row) => row.map(show));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...text.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[], raw: readonly Cell[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return typeof raw[column] === 'number' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ');
  const out = [
    '',
    title,
    line(headers, headers),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...text.map((cells, index) => line(cells, rows[index] ?? [])),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The machine-readable result: one line of JSON, so `grep '^{"bench"'` finds it in the output. */
export function printJsonLine(bench: string, result: unknown): void {
  process.stdout.write(`${JSON.stringify({ bench, ...environmentFacts(), result })}\n`);
}

/** What a reader needs to judge the numbers: when, on how many cores, how busy the machine was. */
function environmentFacts(): Record<string, unknown> {
  return {
    at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
  };
}
