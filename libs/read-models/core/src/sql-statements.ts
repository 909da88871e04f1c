import { readFileSync } from 'node:fs';

/**
 * Splits a DDL script into its statements at the semicolons outside string literals, quoted names,
 * dollar-quoted bodies (`DO $$ … $$`, function bodies) and comments, so a caller can run them one at a
 * time and tell how far it got. Comments are kept with the statement they precede; chunks holding
 * nothing but comments and blanks are dropped. Enough for the projector's own DDL files, which use no
 * `E''` escapes and no nested block comments.
 */
export function sqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let index = 0;
  while (index < script.length) {
    const rest = script.slice(index);
    if (rest.startsWith('--')) {
      const end = script.indexOf('\n', index);
      index = end === -1 ? script.length : end + 1;
    } else if (rest.startsWith('/*')) {
      index = closingOf(script, '*/', index + 2);
    } else if (rest[0] === "'" || rest[0] === '"') {
      index = closingOf(script, rest[0], index + 1);
    } else if (rest[0] === '$' && /^\$[A-Za-z_]*\$/.test(rest)) {
      const tag = /^\$[A-Za-z_]*\$/.exec(rest)?.[0] ?? '$$';
      index = closingOf(script, tag, index + tag.length);
    } else if (rest[0] === ';') {
      statements.push(script.slice(start, index));
      index += 1;
      start = index;
    } else {
      index += 1;
    }
  }
  statements.push(script.slice(start));
  return statements.map((statement) => statement.trim()).filter((statement) => hasCode(statement));
}

/** Past the next `closing` from `from` (a doubled quote closes and reopens, which comes to the same). */
function closingOf(script: string, closing: string, from: number): number {
  const end = script.indexOf(closing, from);
  if (end === -1) throw new Error(`unterminated ${closing} in a DDL script`);
  return end + closing.length;
}

function hasCode(statement: string): boolean {
  return statement
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .some((line) => line.trim() !== '' && !line.trim().startsWith('--'));
}

/**
 * A short name for a statement in progress reports: the object a `CREATE` makes (`portal_objects_parent`),
 * else its first words.
 */
export function statementLabel(statement: string): string {
  const code = statement
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const creates =
    /CREATE (?:UNIQUE )?(?:OR REPLACE )?(INDEX|TRIGGER|FUNCTION|STATISTICS|TABLE)(?: IF NOT EXISTS)? ([\w.]+)/i;
  const created = new RegExp(`^${creates.source}`, 'i').exec(code);
  if (created) return `${(created[1] ?? '').toLowerCase()} ${created[2] ?? ''}`;
  // A DO block: what it creates or fills first.
  const inBlock = /^DO\b/i.test(code) ? (creates.exec(code) ?? /INSERT INTO ([\w.]+)/i.exec(code)) : null;
  if (inBlock)
    return inBlock.length > 2
      ? `${(inBlock[1] ?? '').toLowerCase()} ${inBlock[2] ?? ''}…`
      : `fill ${inBlock[1] ?? ''}`;
  return code.length > 40 ? `${code.slice(0, 40)}…` : code;
}

/** The statements of a DDL file beside the caller's module (`new URL('./x.sql', import.meta.url)`). */
export function sqlFileStatements(file: URL): string[] {
  return sqlStatements(readFileSync(file, 'utf8'));
}
