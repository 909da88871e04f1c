import { arrayOps, comparisonOps, spatialOps, temporalOps } from './ast.js';
import type {
  ArithmeticOp,
  ArrayLiteral,
  ArrayOp,
  ComparisonOp,
  Cql2Node,
  Geometry,
  IntervalBound,
  Position,
  SpatialOp,
  TemporalOp,
} from './ast.js';
import { Cql2Error, positionAt } from './errors.js';
import { reservedWords } from './keywords.js';
import { tokenize } from './lexer.js';
import type { Token } from './lexer.js';
import { MAX_CQL2_DEPTH, MAX_CQL2_TEXT_LENGTH } from './limits.js';
import { dateMicros, timestampMicros } from './literals.js';
import { checkSize, isBooleanOperand, shapeProblem } from './shape.js';

/**
 * Parses CQL2 text (OGC 21-065) into the tree. Keywords are case-insensitive. Throws Cql2Error naming
 * the line, column and the expected tokens.
 */
export function parseCql2Text(text: string): Cql2Node {
  if (text.length > MAX_CQL2_TEXT_LENGTH) {
    throw new Cql2Error(`the filter is longer than ${MAX_CQL2_TEXT_LENGTH} characters`);
  }
  const parser = new TextParser(text, tokenize(text));
  const start = parser.peek();
  const node = parser.parseOr();
  parser.expectEnd();
  if (!isBooleanOperand(node)) parser.failAt(start, 'a filter must be a predicate', ['a predicate']);
  checkSize(node);
  return node;
}

const spatialByName = new Map<string, SpatialOp>(spatialOps.map((op) => [op.toUpperCase(), op]));
const temporalByName = new Map<string, TemporalOp>(temporalOps.map((op) => [op.toUpperCase(), op]));
const arrayByName = new Map<string, ArrayOp>(arrayOps.map((op) => [op.toUpperCase(), op]));
const comparisonSet = new Set<string>(comparisonOps);
const geometryWords = new Set([
  'POINT',
  'LINESTRING',
  'POLYGON',
  'MULTIPOINT',
  'MULTILINESTRING',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
]);

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the filter';
    case 'string':
      return `the string '${token.value.slice(0, 40)}'`;
    case 'quoted':
      return `"${token.value.slice(0, 40)}"`;
    case 'number':
    case 'identifier':
    case 'punct':
      return `"${token.value.slice(0, 40)}"`;
  }
}

class TextParser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index += 1;
    return token;
  }

  failAt(token: Token, message: string, expected: string[]): never {
    const position = positionAt(this.text, token.offset);
    const wanted = expected.length ? `; expected ${expected.join(' or ')}` : '';
    throw new Cql2Error(
      `${message} at line ${position.line}, column ${position.column}${wanted}, found ${describe(token)}`,
      { position, expected },
    );
  }

  private unexpected(expected: string[]): never {
    return this.failAt(this.peek(), 'syntax error', expected);
  }

  private isWord(word: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.type === 'identifier' && token.value.toUpperCase() === word;
  }

  private isPunct(value: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.type === 'punct' && token.value === value;
  }

  private expectWord(word: string): void {
    if (!this.isWord(word)) this.unexpected([word]);
    this.next();
  }

  private expectPunct(value: string): void {
    if (!this.isPunct(value)) this.unexpected([`"${value}"`]);
    this.next();
  }

  expectEnd(): void {
    if (this.peek().type !== 'end') this.unexpected(['AND', 'OR', 'the end of the filter']);
  }

  private enter(): void {
    this.depth += 1;
    if (this.depth > MAX_CQL2_DEPTH)
      this.failAt(this.peek(), `the filter nests deeper than ${MAX_CQL2_DEPTH} levels`, []);
  }

  /** Builds a node, refusing it at `start` when its operands are of the wrong class. */
  private make<T extends Cql2Node>(start: Token, node: T): T {
    const problem = shapeProblem(node);
    if (problem) this.failAt(start, problem, []);
    return node;
  }

  parseOr(): Cql2Node {
    this.enter();
    const start = this.peek();
    const args = [this.parseAnd()];
    while (this.isWord('OR')) {
      this.next();
      args.push(this.parseAnd());
    }
    this.depth -= 1;
    return args.length === 1 ? (args[0] as Cql2Node) : this.make(start, { kind: 'or', args });
  }

  private parseAnd(): Cql2Node {
    const start = this.peek();
    const args = [this.parseNot()];
    while (this.isWord('AND')) {
      this.next();
      args.push(this.parseNot());
    }
    return args.length === 1 ? (args[0] as Cql2Node) : this.make(start, { kind: 'and', args });
  }

  private parseNot(): Cql2Node {
    const start = this.peek();
    if (!this.isWord('NOT')) return this.parsePredicate();
    this.next();
    this.enter();
    const arg = this.parseNot();
    this.depth -= 1;
    return this.make(start, { kind: 'not', arg });
  }

  private parsePredicate(): Cql2Node {
    const start = this.peek();
    const left = this.parseAdditive();
    const token = this.peek();
    if (token.type === 'punct' && comparisonSet.has(token.value)) {
      this.next();
      const right = this.parseAdditive();
      return this.make(start, { kind: 'comparison', op: token.value as ComparisonOp, left, right });
    }
    const negated = this.isWord('NOT');
    if (negated) {
      if (!this.isWord('LIKE', 1) && !this.isWord('BETWEEN', 1) && !this.isWord('IN', 1)) {
        this.next();
        this.unexpected(['LIKE', 'BETWEEN', 'IN']);
      }
      this.next();
    }
    let predicate: Cql2Node | undefined;
    if (this.isWord('LIKE')) {
      this.next();
      predicate = this.make(start, { kind: 'like', value: left, pattern: this.parsePattern() });
    } else if (this.isWord('BETWEEN')) {
      this.next();
      const low = this.parseAdditive();
      this.expectWord('AND');
      const high = this.parseAdditive();
      predicate = this.make(start, { kind: 'between', value: left, low, high });
    } else if (this.isWord('IN')) {
      this.next();
      this.expectPunct('(');
      const list = [this.parseAdditive()];
      while (this.isPunct(',')) {
        this.next();
        list.push(this.parseAdditive());
      }
      this.expectPunct(')');
      predicate = this.make(start, { kind: 'in', value: left, list });
    } else if (this.isWord('IS')) {
      this.next();
      const notNull = this.isWord('NOT');
      if (notNull) this.next();
      this.expectWord('NULL');
      const isNull = this.make(start, { kind: 'isNull', arg: left });
      return notNull ? { kind: 'not', arg: isNull } : isNull;
    }
    if (!predicate) return left;
    return negated ? { kind: 'not', arg: predicate } : predicate;
  }

  private parsePattern(): Cql2Node {
    const token = this.peek();
    if (token.type === 'string') {
      this.next();
      return { kind: 'string', value: token.value };
    }
    for (const kind of ['casei', 'accenti'] as const) {
      if (this.isWord(kind.toUpperCase())) {
        this.next();
        this.expectPunct('(');
        this.enter();
        const arg = this.parsePattern();
        this.depth -= 1;
        this.expectPunct(')');
        return { kind, arg };
      }
    }
    return this.unexpected(['a string pattern', 'CASEI', 'ACCENTI']);
  }

  private parseAdditive(): Cql2Node {
    const start = this.peek();
    let left = this.parseMultiplicative();
    while (this.isPunct('+') || this.isPunct('-')) {
      const op = this.next().value as ArithmeticOp;
      const right = this.parseMultiplicative();
      left = this.make(start, { kind: 'arithmetic', op, left, right });
    }
    return left;
  }

  private parseMultiplicative(): Cql2Node {
    const start = this.peek();
    let left = this.parsePower();
    for (;;) {
      let op: ArithmeticOp;
      if (this.isPunct('*') || this.isPunct('/') || this.isPunct('%')) op = this.peek().value as ArithmeticOp;
      else if (this.isWord('DIV')) op = 'div';
      else return left;
      this.next();
      const right = this.parsePower();
      left = this.make(start, { kind: 'arithmetic', op, left, right });
    }
  }

  private parsePower(): Cql2Node {
    const start = this.peek();
    const left = this.parseUnary();
    if (!this.isPunct('^')) return left;
    this.next();
    this.enter();
    const right = this.parsePower();
    this.depth -= 1;
    return this.make(start, { kind: 'arithmetic', op: '^', left, right });
  }

  private parseUnary(): Cql2Node {
    const start = this.peek();
    if (!this.isPunct('-') && !this.isPunct('+')) return this.parsePrimary();
    const sign = this.next().value;
    if (this.peek().type === 'number') {
      const value = Number(this.next().value);
      return this.make(start, { kind: 'number', value: sign === '-' && value !== 0 ? -value : value });
    }
    if (sign === '+') this.unexpected(['a number']);
    this.enter();
    const operand = this.parseUnary();
    this.depth -= 1;
    // -x is written as -1 * x, which both encodings can express.
    return this.make(start, {
      kind: 'arithmetic',
      op: '*',
      left: { kind: 'number', value: -1 },
      right: operand,
    });
  }

  private parsePrimary(): Cql2Node {
    const token = this.peek();
    switch (token.type) {
      case 'number':
        this.next();
        return this.make(token, { kind: 'number', value: Number(token.value) });
      case 'string':
        this.next();
        return { kind: 'string', value: token.value };
      case 'quoted':
        this.next();
        return this.isPunct('(')
          ? this.parseFunction(token, token.value)
          : { kind: 'property', name: token.value };
      case 'punct':
        if (token.value !== '(') break;
        this.next();
        {
          const inner = this.parseOr();
          this.expectPunct(')');
          return inner;
        }
      case 'identifier':
        return this.parseWord(token);
      case 'end':
        break;
    }
    return this.unexpected(['a property', 'a literal', 'a function', '"("']);
  }

  private parseWord(token: Token): Cql2Node {
    const word = token.value.toUpperCase();
    this.next();
    if (word === 'TRUE' || word === 'FALSE') return { kind: 'boolean', value: word === 'TRUE' };
    if (word === 'CASEI' || word === 'ACCENTI') {
      this.expectPunct('(');
      this.enter();
      const arg = this.parseAdditive();
      this.depth -= 1;
      this.expectPunct(')');
      return this.make(token, { kind: word === 'CASEI' ? 'casei' : 'accenti', arg });
    }
    if (word === 'TIMESTAMP' || word === 'DATE') {
      this.expectPunct('(');
      const value = this.expectString();
      this.expectPunct(')');
      return this.make(token, { kind: word === 'DATE' ? 'date' : 'timestamp', value });
    }
    if (word === 'INTERVAL') {
      this.expectPunct('(');
      const start = this.parseIntervalBound();
      this.expectPunct(',');
      const end = this.parseIntervalBound();
      this.expectPunct(')');
      return { kind: 'interval', start, end };
    }
    if (word === 'BBOX') {
      this.expectPunct('(');
      const values = [this.parseSignedNumber()];
      while (this.isPunct(',')) {
        this.next();
        values.push(this.parseSignedNumber());
      }
      this.expectPunct(')');
      return this.make(token, { kind: 'bbox', values });
    }
    if (geometryWords.has(word)) {
      this.index -= 1;
      return this.make(token, { kind: 'geometry', geometry: this.parseGeometry() });
    }
    const spatial = spatialByName.get(word);
    if (spatial) {
      const [left, right] = this.parseTwoArguments(() => this.parseAdditive());
      return this.make(token, { kind: 'spatial', op: spatial, left, right });
    }
    const temporal = temporalByName.get(word);
    if (temporal) {
      const [left, right] = this.parseTwoArguments(() => this.parseAdditive());
      return this.make(token, { kind: 'temporal', op: temporal, left, right });
    }
    const array = arrayByName.get(word);
    if (array) {
      const [left, right] = this.parseTwoArguments(() => this.parseArrayArgument());
      return this.make(token, { kind: 'arrayPredicate', op: array, left, right });
    }
    if (reservedWords.has(word)) {
      return this.failAt(token, `unexpected keyword ${word}`, [
        'a property',
        'a literal',
        'a function',
        '"("',
      ]);
    }
    if (this.isPunct('(')) return this.parseFunction(token, token.value);
    return { kind: 'property', name: token.value };
  }

  private parseTwoArguments(parse: () => Cql2Node): [Cql2Node, Cql2Node] {
    this.expectPunct('(');
    this.enter();
    const left = parse();
    this.expectPunct(',');
    const right = parse();
    this.depth -= 1;
    this.expectPunct(')');
    return [left, right];
  }

  private parseFunction(token: Token, name: string): Cql2Node {
    this.expectPunct('(');
    this.enter();
    const args: Cql2Node[] = [];
    if (!this.isPunct(')')) {
      args.push(this.parseOr());
      while (this.isPunct(',')) {
        this.next();
        args.push(this.parseOr());
      }
    }
    this.depth -= 1;
    this.expectPunct(')');
    return this.make(token, { kind: 'function', name, args });
  }

  private parseArrayArgument(): Cql2Node {
    return this.isPunct('(') ? this.parseArray() : this.parseAdditive();
  }

  private parseArray(): ArrayLiteral {
    const start = this.peek();
    this.expectPunct('(');
    this.enter();
    const items: Cql2Node[] = [];
    if (!this.isPunct(')')) {
      items.push(this.parseArrayArgument());
      while (this.isPunct(',')) {
        this.next();
        items.push(this.parseArrayArgument());
      }
    }
    this.depth -= 1;
    this.expectPunct(')');
    return this.make(start, { kind: 'array', items });
  }

  private parseIntervalBound(): IntervalBound {
    const token = this.peek();
    if (token.type === 'string') {
      this.next();
      if (token.value === '..') return { kind: 'unbounded' };
      if (dateMicros(token.value) !== undefined) return { kind: 'date', value: token.value };
      if (timestampMicros(token.value) !== undefined) return { kind: 'timestamp', value: token.value };
      return this.failAt(token, `invalid interval bound '${token.value}'`, ["'..'", 'a date', 'a timestamp']);
    }
    const bound = this.parsePrimary();
    if (bound.kind === 'property' || bound.kind === 'function') return bound;
    return this.failAt(token, 'bad interval bound', ["'..'", 'a date', 'a timestamp', 'a property']);
  }

  private expectString(): string {
    const token = this.peek();
    if (token.type !== 'string') this.unexpected(['a string']);
    this.next();
    return token.value;
  }

  private parseSignedNumber(): number {
    let sign = 1;
    if (this.isPunct('-') || this.isPunct('+')) sign = this.next().value === '-' ? -1 : 1;
    const token = this.peek();
    if (token.type !== 'number') this.unexpected(['a number']);
    this.next();
    const value = Number(token.value) * sign;
    return value === 0 ? 0 : value;
  }

  private parseGeometry(): Geometry {
    const token = this.peek();
    const word = token.type === 'identifier' ? token.value.toUpperCase() : '';
    if (!geometryWords.has(word)) this.unexpected([...geometryWords]);
    this.next();
    if (this.isWord('Z')) this.next();
    this.enter();
    let geometry: Geometry;
    switch (word) {
      case 'POINT':
        this.expectPunct('(');
        geometry = { type: 'Point', coordinates: this.parsePosition() };
        this.expectPunct(')');
        break;
      case 'LINESTRING':
        geometry = { type: 'LineString', coordinates: this.parsePositions() };
        break;
      case 'POLYGON':
        geometry = { type: 'Polygon', coordinates: this.parseList(() => this.parsePositions()) };
        break;
      case 'MULTIPOINT':
        geometry = { type: 'MultiPoint', coordinates: this.parseList(() => this.parseMultiPointMember()) };
        break;
      case 'MULTILINESTRING':
        geometry = { type: 'MultiLineString', coordinates: this.parseList(() => this.parsePositions()) };
        break;
      case 'MULTIPOLYGON':
        geometry = {
          type: 'MultiPolygon',
          coordinates: this.parseList(() => this.parseList(() => this.parsePositions())),
        };
        break;
      default:
        geometry = { type: 'GeometryCollection', geometries: this.parseList(() => this.parseGeometry()) };
    }
    this.depth -= 1;
    return geometry;
  }

  private parseList<T>(parse: () => T): T[] {
    this.expectPunct('(');
    const items = [parse()];
    while (this.isPunct(',')) {
      this.next();
      items.push(parse());
    }
    this.expectPunct(')');
    return items;
  }

  private parsePositions(): Position[] {
    return this.parseList(() => this.parsePosition());
  }

  /** MULTIPOINT members are written `(x y)` by the standard, and bare `x y` by much of the world. */
  private parseMultiPointMember(): Position {
    if (!this.isPunct('(')) return this.parsePosition();
    this.next();
    const position = this.parsePosition();
    this.expectPunct(')');
    return position;
  }

  private parsePosition(): Position {
    const position = [this.parseSignedNumber(), this.parseSignedNumber()];
    if (this.peek().type === 'number' || this.isPunct('-') || this.isPunct('+'))
      position.push(this.parseSignedNumber());
    return position;
  }
}
