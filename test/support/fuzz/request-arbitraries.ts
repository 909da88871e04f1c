import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Operation, Parameter } from './openapi-operations.js';
import {
  awkwardText,
  boundaryValue,
  deeplyNestedJson,
  malformedValue,
  validValue,
  type ValueContext,
} from './schema-values.js';

/** Who sends a request: nobody, or the fuzzer's signed-up user with a JWT or an owner-role API key. */
export type Credential = 'anonymous' | 'jwt' | 'api-key';

export interface FuzzRequest {
  /** `GET /api/v1/portal/items/{id}`: the operation of the document this request was made from. */
  readonly operation: string;
  readonly method: string;
  /** Path and query, percent-encoded as sent. */
  readonly target: string;
  /** A header given as an array is sent once per value (duplicate header lines). */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer | null;
  readonly credential: Credential;
}

type Headers = Record<string, string | string[]>;

/** Brotli at a low quality: the default (11) takes a tenth of a second for a 200 kB body. */
const brotli = (bytes: Buffer): Buffer =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });

/** Printable ASCII and Latin-1: what an HTTP/1.1 header value may carry (Node refuses the rest). */
const headerText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)),
  ),
  maxLength: 60,
});

const positions = fc.oneof(
  fc.constantFrom('0.0', '-1.-1', '1.1', '99999999999.99999999999', '18446744073709551615.1', ' 1.1 '),
  headerText,
);

const oddHeaders: fc.Arbitrary<Headers> = fc.record(
  {
    'if-match': fc.oneof(
      fc.constantFrom('"0"', '"1"', '*', 'W/"0"', '"99999999999999999999"', '"a"'),
      headerText,
    ),
    'x-min-position': positions,
    'idempotency-key': fc.oneof(fc.uuid(), fc.constant('k'.repeat(300)), headerText),
    prefer: fc.constantFrom('respond-async', 'return=minimal', 'respond-async, wait=1'),
    'x-request-id': fc.oneof(fc.uuid(), headerText, fc.constant('r'.repeat(200))),
    accept: fc.constantFrom('text/csv', 'application/json', '*/*', 'text/html', 'text/event-stream', 'x/y;;'),
    'last-event-id': fc.oneof(positions, fc.constant('')),
    'x-long': fc.constant('v'.repeat(8_000)),
    'x-latin1': headerText,
    origin: fc.constantFrom('http://evil.example', 'null', 'http://portal-app.test'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*'),
  },
  { requiredKeys: [] },
);

const duplicateHeaders: fc.Arbitrary<Headers> = fc.constantFrom(
  { 'x-min-position': ['0.0', '99999999999.1'] },
  { 'if-match': ['"0"', '"1"'] },
  { 'content-type': ['application/json', 'text/plain'] },
  { 'idempotency-key': ['a', 'b'] },
  { authorization: ['Bearer a', 'Bearer b'] },
  {},
);

/** Garbage credentials, sent in place of the fuzzer's own now and then. */
const badCredentials: fc.Arbitrary<Headers> = fc.constantFrom(
  { authorization: 'Bearer nonsense' },
  { authorization: 'Basic dXNlcjpwYXNz' },
  { authorization: 'Bearer pcs_not-a-key' },
  { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' },
  { cookie: 'session=garbage' },
  { cookie: 'session=' },
);

/** JSON text of any value; `undefined` (which JSON.stringify answers with undefined) as `null`. */
function jsonText(value: unknown): string {
  const stringify = JSON.stringify as (value: unknown) => string | undefined;
  return stringify(value) ?? 'null';
}

/** The bytes and headers of a body: JSON, broken JSON, other media types, charsets and encodings. */
function bodyOf(value: fc.Arbitrary<unknown>): fc.Arbitrary<{ bytes: Buffer; headers: Headers }> {
  const json = value.map((v) => Buffer.from(jsonText(v)));
  const asJson = (bytes: Buffer, extra: Headers = {}) => ({
    bytes,
    headers: { 'content-type': 'application/json', ...extra },
  });
  return fc.oneof(
    { weight: 6, arbitrary: json.map((bytes) => asJson(bytes)) },
    { weight: 1, arbitrary: json.map((bytes) => asJson(gzipSync(bytes), { 'content-encoding': 'gzip' })) },
    {
      weight: 1,
      arbitrary: json.map((bytes) => asJson(deflateSync(bytes), { 'content-encoding': 'deflate' })),
    },
    { weight: 1, arbitrary: json.map((bytes) => asJson(brotli(bytes), { 'content-encoding': 'br' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.constantFrom('gzip', 'deflate', 'br'), fc.nat({ max: 20 }))
        .map(([bytes, encoding, cut]) =>
          asJson(cut % 2 === 0 ? bytes : gzipSync(bytes).subarray(0, cut), { 'content-encoding': encoding }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.constantFrom('compress', 'zstd', 'gzip, br', 'identity', 'x-gzip', ''))
        .map(([bytes, encoding]) => asJson(bytes, { 'content-encoding': encoding })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          json,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            'application/json; charset=utf-16le',
            'application/merge-patch+json',
            'application/json; charset=latin1',
          ),
        )
        .map(([bytes, type]) => ({ bytes, headers: { 'content-type': type } })),
    },
    { weight: 1, arbitrary: json.map((bytes) => ({ bytes, headers: {} })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom('{', '{"title": ', "{'a': 1}", 'nul', '[1,]', '{"a":1}{"b":2}', '\ufeff{}', ''),
          fc.string({ maxLength: 30 }),
          json.map((bytes) => bytes.subarray(0, Math.max(0, bytes.length - 1)).toString()),
        )
        .map((text) => asJson(Buffer.from(text))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80]))
        .map(([bytes, invalid]) =>
          asJson(Buffer.concat([bytes.subarray(0, 1), Buffer.from(invalid), bytes.subarray(1)])),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(4_000, 40_000)
        .map((levels) => asJson(Buffer.from(deeplyNestedJson(levels)))),
    },
    {
      weight: 1,
      arbitrary: fc.constant(asJson(Buffer.from(JSON.stringify({ blob: 'x'.repeat(1_100_000) })))),
    },
  );
}

/**
 * Percent-encodes every character outside the unreserved set. A lone surrogate (which
 * encodeURIComponent refuses) becomes its three generalized-UTF-8 bytes: invalid UTF-8 on the wire.
 */
function percentEncode(text: string): string {
  let encoded = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff ? text.charCodeAt(index + 1) : 0;
    if (pair >= 0xdc00 && pair <= 0xdfff) {
      encoded += encodeURIComponent(text.slice(index, index + 2));
      index += 1;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(text[index] ?? '');
    }
  }
  return encoded;
}

/** A path segment: a real id, another UUID, or something no id is (encoded, or raw but URL-safe). */
function segmentOf(context: ValueContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...context.knownIds) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 2,
      arbitrary: fc.oneof(awkwardText, fc.string({ maxLength: 20 })).map(percentEncode),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%ZZ',
        '..',
        '.',
        '%2F',
        '%2e%2e',
        'a%00b',
        '%E0%A4%A',
        'x'.repeat(400),
        'A0000000-0000-0000-0000-00000000000G',
        '00000000-0000-0000-0000-000000000000',
      ),
    },
  );
}

function parameterValue(parameter: Parameter, context: ValueContext): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: validValue(parameter.schema, context) },
    { weight: 2, arbitrary: boundaryValue(parameter.schema, context) },
    {
      weight: 2,
      arbitrary: fc.oneof(awkwardText, fc.string({ maxLength: 20 }), fc.constant('x'.repeat(3_000))),
    },
  );
}

function queryOf(operation: Operation, context: ValueContext): fc.Arbitrary<string> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query') model[parameter.name] = parameterValue(parameter, context);
  }
  model.unknownParameter = fc.string({ maxLength: 10 });
  return fc.record(model, { requiredKeys: [] }).map((values) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(values)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        query.append(name, typeof one === 'string' ? one : jsonText(one));
      }
    }
    const text = query.toString();
    return text === '' ? '' : `?${text}`;
  });
}

function pathOf(operation: Operation, context: ValueContext): fc.Arbitrary<string> {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  const segments = names.map((name) =>
    name === 'path'
      ? fc
          .array(fc.oneof(segmentOf(context), fc.constantFrom('a', 'land-cover', '')), {
            minLength: 0,
            maxLength: 40,
          })
          .map((parts) => parts.join('/'))
      : name === 'type'
        ? fc.oneof(fc.constantFrom('user', 'organization'), segmentOf(context))
        : segmentOf(context),
  );
  return fc.tuple(...segments).map((values) => {
    let index = 0;
    return operation.path.replace(/\{\w+\}/g, () => values[index++] ?? '');
  });
}

function bodyValue(operation: Operation, context: ValueContext): fc.Arbitrary<unknown> {
  const schema = operation.body ?? { type: 'object' };
  return fc.oneof(
    { weight: 4, arbitrary: validValue(schema, context) },
    { weight: 3, arbitrary: boundaryValue(schema, context) },
    { weight: 3, arbitrary: malformedValue(schema, context) },
  );
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/**
 * Requests a client would send: the operation's method, real ids, valid parameters and body as plain
 * JSON, a credential. They get past validation into the handlers, where the chaotic ones rarely do.
 */
function wellFormedRequestFor(operation: Operation, context: ValueContext): fc.Arbitrary<FuzzRequest> {
  const known = fc.constantFrom(...context.knownIds);
  return fc
    .record({
      ids: fc.array(known, { minLength: 4, maxLength: 4 }),
      query: fc.record(
        Object.fromEntries(
          operation.parameters
            .filter((parameter) => parameter.in === 'query')
            .map((parameter) => [parameter.name, validValue(parameter.schema, context)]),
        ),
        { requiredKeys: [] },
      ),
      body: operation.body === null ? fc.constant(undefined) : validValue(operation.body, context),
      credential: fc.constantFrom<Credential>('jwt', 'api-key'),
    })
    .map(({ ids, query, body, credential }) => {
      let index = 0;
      const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
        name === 'type' ? 'user' : name === 'path' ? 'fuzz-catalog' : (ids[index++ % ids.length] ?? ''),
      );
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query))
        search.append(name, typeof value === 'string' ? value : jsonText(value));
      const text = search.toString();
      return {
        operation: `${operation.method} ${operation.path}`,
        method: operation.method,
        target: `${path}${text === '' ? '' : `?${text}`}`,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : Buffer.from(jsonText(body)),
        credential,
      };
    });
}

/** Requests for one operation: well-formed ones, and chaotic ones with every part in every flavour. */
export function requestsFor(operation: Operation, context: ValueContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 1, arbitrary: wellFormedRequestFor(operation, context) },
    { weight: 3, arbitrary: chaoticRequestFor(operation, context) },
  );
}

/** Its own method mostly, its parameters and body valid, at their edges or malformed, odd headers. */
function chaoticRequestFor(operation: Operation, context: ValueContext): fc.Arbitrary<FuzzRequest> {
  const wantsBody = operation.body !== null;
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(operation.method) },
        { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      ),
      path: pathOf(operation, context),
      query: queryOf(operation, context),
      body: fc.oneof(
        {
          weight: wantsBody ? 9 : 1,
          arbitrary: bodyOf(bodyValue(operation, context)).map(
            (body) => body as { bytes: Buffer; headers: Headers } | null,
          ),
        },
        { weight: wantsBody ? 1 : 9, arbitrary: fc.constant(null) },
      ),
      odd: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: oddHeaders }),
      duplicates: fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: duplicateHeaders },
      ),
      badCredential: fc.oneof(
        { weight: 12, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: badCredentials },
      ),
      credential: fc.constantFrom<Credential>('anonymous', 'jwt', 'jwt', 'api-key', 'api-key'),
      clientAddress: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
    })
    .map((parts) => {
      const headers: Headers = {
        ...parts.odd,
        ...parts.duplicates,
        ...(parts.body?.headers ?? {}),
        ...parts.badCredential,
        // Sign-in limits count per client address: each request comes from one of its own.
        'x-forwarded-for': parts.clientAddress,
      };
      return {
        operation: `${operation.method} ${operation.path}`,
        method: parts.method,
        target: `${parts.path}${parts.query}`,
        headers,
        body: parts.body?.bytes ?? null,
        credential: Object.keys(parts.badCredential).length > 0 ? 'anonymous' : parts.credential,
      };
    });
}
