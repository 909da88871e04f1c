import fc from 'fast-check';
import { resolveRef, type JsonSchema, type OpenApiDocument } from './openapi-operations.js';

/**
 * Values for a JSON schema, in three flavours: `valid` (what the schema allows), `boundary` (its
 * edges: shortest, longest, smallest, largest, and one past each) and `malformed` (wrong types, extra
 * fields, huge strings, deep nesting). Identifiers come from a pool of real ids part of the time, so
 * requests get past "not found" into the code behind it.
 */
export interface ValueContext {
  readonly document: OpenApiDocument;
  /** Ids of objects that exist (catalogs, items, assets, users, organizations…). */
  readonly knownIds: readonly string[];
}

const MAX_DEPTH = 5;
/** Strings shorter than this are generated; longer bounds are reached by `boundary` only. */
const GENERATED_LENGTH = 40;

/** Text that often breaks parsers and stores: controls, bidi marks, astral characters, SQL and paths. */
export const awkwardText = fc.constantFrom(
  '',
  ' ',
  '\u200b',
  '\u0000',
  '\ud800',
  'caf\u00e9 \u5730\u56f3 \u{1f5fa}',
  '\u202eevil',
  "'; DROP TABLE read.portal_objects; --",
  '../../etc/passwd',
  '%00%ZZ',
  '<script>alert(1)</script>',
  '\\',
  '"',
  '\n\r\t',
  'null',
  '9'.repeat(400),
);

/** The schema behind a `$ref`; `true` (anything) and `false` read as the empty schema. */
function schemaAt(context: ValueContext, raw: unknown): JsonSchema {
  const schema: unknown = resolveRef(context.document, raw);
  return typeof schema === 'object' && schema !== null ? (schema as JsonSchema) : {};
}

function stringOf(schema: JsonSchema, context: ValueContext): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...context.knownIds), fc.uuid());
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
  }
  if (schema.format === 'email') return fc.emailAddress();
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : GENERATED_LENGTH;
  if (typeof schema.pattern === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((text) => text.length >= minLength && text.length <= maxLength);
    } catch {
      // A pattern fast-check cannot invert: plain strings instead.
    }
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, GENERATED_LENGTH)) });
}

function numberOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1e6;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1e6;
  if (schema.type === 'integer') {
    return fc.integer({
      min: Math.max(min, Number.MIN_SAFE_INTEGER),
      max: Math.min(max, Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectOf(schema: JsonSchema, context: ValueContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    model[name] = validValue(property, context, depth + 1);
  if (Object.keys(model).length === 0) {
    return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  }
  return fc.record(model, { requiredKeys: Object.keys(model).filter((name) => required.has(name)) });
}

/** A value the schema allows (approximately: formats and patterns fast-check cannot honour are ignored). */
export function validValue(raw: JsonSchema, context: ValueContext, depth = 0): fc.Arbitrary<unknown> {
  const schema = schemaAt(context, raw);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((option) => validValue(option, context, depth + 1)));
  if (Array.isArray(schema.allOf))
    return validValue((schema.allOf as JsonSchema[])[0] ?? {}, context, depth + 1);
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...(schema.type as string[]).map((type) => validValue({ ...schema, type }, context, depth)),
    );
  }
  switch (schema.type) {
    case 'string':
      return stringOf(schema, context);
    case 'integer':
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      // A tuple (`prefixItems`, with `items: false` after it) before a list.
      const items = (Array.isArray(schema.prefixItems) ? schema.prefixItems : (schema.items ?? {})) as
        JsonSchema | JsonSchema[];
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 4),
      );
      if (Array.isArray(items)) return fc.tuple(...items.map((item) => validValue(item, context, depth + 1)));
      return fc.array(validValue(items, context, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectOf(schema, context, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The schema's edges, and one step past each: strings of min−1, min, max and max+1 characters, numbers alike. */
export function boundaryValue(raw: JsonSchema, context: ValueContext, depth = 0): fc.Arbitrary<unknown> {
  const schema = schemaAt(context, raw);
  if (depth > MAX_DEPTH) return fc.constant(null);
  const edges: unknown[] = [];
  if (schema.type === 'string' || typeof schema.maxLength === 'number') {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 10_000;
    for (const length of [min - 1, min, max, max + 1]) if (length >= 0) edges.push('x'.repeat(length));
    edges.push('\u{1f5fa}'.repeat(Math.ceil(max / 2) + 1));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    for (const key of ['minimum', 'maximum'] as const) {
      const bound = schema[key];
      if (typeof bound === 'number') edges.push(bound, bound - 1, bound + 1);
    }
    edges.push(0, -1, 2 ** 53, -(2 ** 53), 1e308, 0.5);
  }
  if (schema.type === 'array') {
    const item = schemaAt(context, schema.items ?? {});
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 100;
    return fc.oneof(
      fc.constant([]),
      validValue(item, context, depth + 1).map((value) => Array<unknown>(max + 1).fill(value)),
      validValue(item, context, depth + 1).map((value) => Array<unknown>(max).fill(value)),
    );
  }
  if (schema.type === 'object' && schema.properties) {
    // One property at its edge, the others valid.
    const properties = Object.entries(schema.properties as Record<string, JsonSchema>);
    return fc
      .tuple(validValue(schema, context, depth), fc.integer({ min: 0, max: properties.length - 1 }))
      .chain(([base, index]) => {
        const [name = 'x', property = {}] = properties[index] ?? [];
        return boundaryValue(property, context, depth + 1).map((edge) => ({
          ...(base as Record<string, unknown>),
          [name]: edge,
        }));
      });
  }
  return edges.length > 0 ? fc.constantFrom(...edges) : validValue(schema, context, depth);
}

/** JSON nested `levels` deep, as text: JSON.stringify of such a value would itself overflow. */
export function deeplyNestedJson(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** Values no schema here allows: wrong types, unknown fields, huge strings, NUL, deep nesting. */
export function malformedValue(raw: JsonSchema, context: ValueContext): fc.Arbitrary<unknown> {
  const schema = schemaAt(context, raw);
  const wrongType = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.string({ maxLength: 10 }),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.constant({}),
    awkwardText,
  );
  const options: fc.Arbitrary<unknown>[] = [
    wrongType,
    fc.anything({ maxDepth: 3 }),
    fc.constant('x'.repeat(200_000)),
  ];
  if (schema.type === 'object' && schema.properties) {
    const names = Object.keys(schema.properties);
    options.push(
      validValue(schema, context).map((value) => ({ ...(value as object), unexpectedField: 1 })),
      fc
        .tuple(
          validValue(schema, context),
          fc.constantFrom(...names),
          fc.oneof(wrongType, fc.anything({ maxDepth: 4 })),
        )
        .map(([value, name, wrong]) => ({ ...(value as object), [name]: wrong })),
      fc
        .tuple(validValue(schema, context), fc.constantFrom(...names), awkwardText)
        .map(([value, name, text]) => ({ ...(value as object), [name]: text })),
      fc
        .tuple(validValue(schema, context), fc.constantFrom(...names))
        .map(([value, name]) =>
          Object.fromEntries(
            Object.entries(value as Record<string, unknown>).filter(([key]) => key !== name),
          ),
        ),
    );
  }
  return fc.oneof(...options);
}
