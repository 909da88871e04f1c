import { Cql2Error, positionAt } from './errors.js';

export type TokenType = 'identifier' | 'quoted' | 'string' | 'number' | 'punct' | 'end';

export interface Token {
  type: TokenType;
  /** Identifier and punctuation text; the unescaped content of strings and quoted identifiers. */
  value: string;
  offset: number;
}

// Identifiers as the standard defines them: a letter, ':' or '_', then letters, digits, combining
// marks, ':', '_' and '.' (so `eo:cloud_cover` and `properties.sat:orbit` are single names).
const identifierStart = /[\p{L}:_]/u;
const identifierPart = /[\p{L}\p{N}\p{M}:_.\u203F\u2040]/u;
const numberPattern = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const twoCharPunct = new Set(['<>', '<=', '>=']);
const oneCharPunct = new Set(['=', '<', '>', '(', ')', ',', '+', '-', '*', '/', '%', '^']);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const fail = (message: string, offset: number): never => {
    const position = positionAt(text, offset);
    throw new Cql2Error(`${message} at line ${position.line}, column ${position.column}`, { position });
  };
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      index += 1;
      continue;
    }
    const start = index;
    if (char === "'" || char === '"') {
      let value = '';
      index += 1;
      for (;;) {
        if (index >= text.length) {
          fail(char === "'" ? 'unterminated string literal' : 'unterminated quoted property name', start);
        }
        const next = text.charAt(index);
        if (next === char) {
          if (text.charAt(index + 1) === char) {
            value += char;
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        value += next;
        index += 1;
      }
      tokens.push({ type: char === "'" ? 'string' : 'quoted', value, offset: start });
      continue;
    }
    numberPattern.lastIndex = index;
    const number = (char >= '0' && char <= '9') || char === '.' ? numberPattern.exec(text) : null;
    if (number) {
      index += number[0].length;
      tokens.push({ type: 'number', value: number[0], offset: start });
      continue;
    }
    const codePoint = String.fromCodePoint(text.codePointAt(index) ?? 0);
    if (identifierStart.test(codePoint)) {
      index += codePoint.length;
      for (;;) {
        const part = String.fromCodePoint(text.codePointAt(index) ?? 0);
        if (index >= text.length || !identifierPart.test(part)) break;
        index += part.length;
      }
      tokens.push({ type: 'identifier', value: text.slice(start, index), offset: start });
      continue;
    }
    const two = text.slice(index, index + 2);
    if (twoCharPunct.has(two)) {
      tokens.push({ type: 'punct', value: two, offset: start });
      index += 2;
      continue;
    }
    if (oneCharPunct.has(char)) {
      tokens.push({ type: 'punct', value: char, offset: start });
      index += 1;
      continue;
    }
    fail(`unexpected character ${JSON.stringify(codePoint)}`, start);
  }
  tokens.push({ type: 'end', value: '', offset: text.length });
  return tokens;
}
