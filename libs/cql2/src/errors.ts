/** Where in a CQL2 text a syntax error was found: 0-based offset, 1-based line and column. */
export interface Cql2Position {
  offset: number;
  line: number;
  column: number;
}

/**
 * Every rejected filter: syntax errors (with `position` and `expected` for text), malformed JSON,
 * unknown properties, type errors, unsupported functions and exceeded limits. The API answers 400 with
 * `message`; nothing about a bad filter is a server error.
 */
export class Cql2Error extends Error {
  readonly position: Cql2Position | undefined;
  readonly expected: readonly string[];

  constructor(message: string, details: { position?: Cql2Position; expected?: readonly string[] } = {}) {
    super(message);
    this.name = 'Cql2Error';
    this.position = details.position;
    this.expected = details.expected ?? [];
  }
}

export function positionAt(text: string, offset: number): Cql2Position {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}
