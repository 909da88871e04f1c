import { badParameter } from './stac-problem.js';

/**
 * The free-text extension's `q` (docs/stac.md, "Free text"), advanced form: terms and "quoted phrases",
 * separated by spaces or commas (either one: OR), `AND` and `OR` (upper case), parentheses, and `+term`
 * (required) / `-term` (excluded). Within one group the signs read as a search engine reads them: the
 * required terms must all match and the excluded ones must not; the unsigned ones then add nothing, or,
 * without a required term, at least one of them must match. A POST may also give an array of strings,
 * the basic form: any one of them, each a phrase.
 *
 * The result is a tree of terms (each a word or a phrase, matched as words in order) under AND, OR and
 * NOT, which `free-text-sql.ts` turns into one PostgreSQL tsquery.
 */
export type TextQuery =
  | { readonly kind: 'term'; readonly text: string }
  | { readonly kind: 'and' | 'or'; readonly args: readonly TextQuery[] }
  | { readonly kind: 'not'; readonly arg: TextQuery };

export const MAX_Q_LENGTH = 1000;
export const MAX_Q_TERMS = 50;
const MAX_Q_DEPTH = 10;

const invalid = (message: string) => badParameter('q', message, 'INVALID_Q');

type Token =
  | { readonly kind: 'term'; readonly text: string }
  | { readonly kind: 'open' | 'close' | 'and' | 'or' | 'plus' | 'minus' };

const SEPARATOR = /[\s,]/;

/** A term must hold a word: PostgreSQL finds nothing to search for in punctuation alone. */
function term(text: string): Token {
  if (!/[\p{L}\p{N}]/u.test(text)) throw invalid(`"${text}" holds no letter or digit`);
  return { kind: 'term', text };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (SEPARATOR.test(char)) {
      at += 1;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char === '(' ? 'open' : 'close' });
      at += 1;
    } else if (char === '"') {
      const end = text.indexOf('"', at + 1);
      if (end < 0) throw invalid('a quoted phrase is not closed');
      tokens.push(term(text.slice(at + 1, end).trim()));
      at = end + 1;
    } else if (
      (char === '+' || char === '-') &&
      at + 1 < text.length &&
      !SEPARATOR.test(text.charAt(at + 1))
    ) {
      tokens.push({ kind: char === '+' ? 'plus' : 'minus' });
      at += 1;
    } else if (char === '+' || char === '-') {
      throw invalid(`a ${char} must stand right before a term, a phrase or a parenthesis`);
    } else {
      let end = at;
      while (end < text.length && !/[\s,()"]/.test(text.charAt(end))) end += 1;
      const word = text.slice(at, end);
      tokens.push(word === 'AND' ? { kind: 'and' } : word === 'OR' ? { kind: 'or' } : term(word));
      at = end;
    }
  }
  return tokens;
}

const all = (args: TextQuery[]): TextQuery =>
  args.length === 1 ? (args[0] as TextQuery) : { kind: 'and', args };
const any = (args: TextQuery[]): TextQuery =>
  args.length === 1 ? (args[0] as TextQuery) : { kind: 'or', args };

interface Clause {
  readonly sign: 'plus' | 'minus' | null;
  readonly query: TextQuery;
}

class Parser {
  private at = 0;
  private terms = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): TextQuery {
    const query = this.group(0);
    if (this.at < this.tokens.length) throw invalid('a ) has no matching (');
    return query;
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  /** Clauses up to a `)` or the end, joined by OR (written or not), signs read as described above. */
  private group(depth: number): TextQuery {
    if (depth > MAX_Q_DEPTH) throw invalid(`parentheses nest more than ${MAX_Q_DEPTH} deep`);
    const clauses: Clause[] = [this.andChain(depth)];
    for (let next = this.peek(); next !== undefined && next.kind !== 'close'; next = this.peek()) {
      if (next.kind === 'or') this.at += 1;
      clauses.push(this.andChain(depth));
    }
    const required = clauses.filter((clause) => clause.sign === 'plus').map((clause) => clause.query);
    const excluded = clauses.filter((clause) => clause.sign === 'minus').map((clause) => clause.query);
    const optional = clauses.filter((clause) => clause.sign === null).map((clause) => clause.query);
    const wanted = required.length > 0 ? all(required) : optional.length > 0 ? any(optional) : null;
    if (excluded.length === 0) return wanted as TextQuery;
    const unwanted: TextQuery = { kind: 'not', arg: any(excluded) };
    return wanted === null ? unwanted : all([wanted, unwanted]);
  }

  /** `a AND -b AND c`: one clause; a sign inside a chain is that element's (- is NOT). */
  private andChain(depth: number): Clause {
    const first = this.unary(depth);
    if (this.peek()?.kind !== 'and') return first;
    const parts = [first];
    while (this.peek()?.kind === 'and') {
      this.at += 1;
      parts.push(this.unary(depth));
    }
    return {
      sign: null,
      query: all(
        parts.map((part) => (part.sign === 'minus' ? { kind: 'not', arg: part.query } : part.query)),
      ),
    };
  }

  private unary(depth: number): Clause {
    const token = this.peek();
    const sign = token?.kind === 'plus' || token?.kind === 'minus' ? token.kind : null;
    if (sign !== null) this.at += 1;
    return { sign, query: this.primary(depth) };
  }

  private primary(depth: number): TextQuery {
    const token = this.peek();
    if (token === undefined) throw invalid('ends where a term was expected');
    this.at += 1;
    switch (token.kind) {
      case 'term':
        this.terms += 1;
        if (this.terms > MAX_Q_TERMS) throw invalid(`must hold at most ${MAX_Q_TERMS} terms`);
        return { kind: 'term', text: token.text };
      case 'open': {
        if (this.peek()?.kind === 'close') throw invalid('() holds no term');
        const inner = this.group(depth + 1);
        if (this.peek()?.kind !== 'close') throw invalid('a ( is not closed');
        this.at += 1;
        return inner;
      }
      case 'close':
        throw invalid('a ) stands where a term was expected');
      case 'and':
      case 'or':
        throw invalid(`${token.kind.toUpperCase()} stands where a term was expected`);
      case 'plus':
      case 'minus':
        throw invalid('two signs in a row');
    }
  }
}

/** The GET `q`, or a POST `q` string. */
export function parseFreeText(text: string): TextQuery {
  if (text.length > MAX_Q_LENGTH) throw invalid(`must be at most ${MAX_Q_LENGTH} characters`);
  const tokens = tokenize(text);
  if (tokens.length === 0) throw invalid('must hold at least one term');
  return new Parser(tokens).parse();
}

/** A POST `q` array (the basic form): any of its strings, each searched as a phrase. */
export function parseFreeTextList(list: readonly string[]): TextQuery {
  if (list.length === 0) throw invalid('must hold at least one term');
  if (list.length > MAX_Q_TERMS) throw invalid(`must hold at most ${MAX_Q_TERMS} terms`);
  if (list.join(' ').length > MAX_Q_LENGTH) throw invalid(`must be at most ${MAX_Q_LENGTH} characters`);
  return any(list.map((text) => term(text.trim()) as { kind: 'term'; text: string }));
}
