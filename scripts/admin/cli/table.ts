/** Rows as aligned columns under a header, for a person reading a terminal. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** `12 s`, `3 min 4 s`, `2 h 5 min`: a duration a person reads at a glance. */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}

/** A timestamp as ISO 8601 UTC without milliseconds, or `-`. */
export function when(date: Date | null | undefined): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-';
}

/** One line of text at most `max` characters (error messages can be long). */
export function clip(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
