import { z } from 'zod';
import { createCatalogBodySchema } from './catalogs.js';
import { createCollectionBodySchema } from './collections.js';
import { idSchema } from './common.js';
import { createItemBodySchema } from './items.js';
import { boundedText, expected, strictObject, uuid } from './messages.js';
import { movePortalItemBodySchema, updatePortalItemBodySchema } from './portal-items.js';

/** Where NDJSON bulk loads are posted. */
export const BULK_PATH = '/api/v1/portal/bulk';
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/** Invented bound: bytes of one line (the JSON body limit's default), so a line is held in memory bounded. */
export const MAX_BULK_LINE_BYTES = 1024 * 1024;
/** Invented bound: lines per request; a pipeline loading more sends several requests. */
export const MAX_BULK_LINES = 1_000_000;

const lineTypes = ['createCatalog', 'createCollection', 'createItem', 'update', 'move'] as const;

function lineError(issue: { readonly code?: string; readonly input?: unknown }): string {
  return issue.code === 'invalid_union'
    ? `must be one of ${lineTypes.join(', ')}`
    : expected('a JSON object')(issue);
}

const idempotencyKey = boundedText(1, 255).exactOptional().meta({
  description:
    "This line's `Idempotency-Key`: a line sent again with the same key and command answers the first result again (`replayed`) instead of applying it twice.",
});

/** `If-Match` of one line: an `ETag` of this API (`"3"`), or its revision alone (`3`). */
const ifMatch = z
  .string({ error: expected('an ETag such as "3"') })
  .regex(/^(?:W\/)?"?\d{1,19}"?$/, { error: 'must be an ETag of this API, e.g. "3"' })
  .exactOptional()
  .meta({ description: "The object's `ETag` as last read: the line is refused (412) if it changed since." });

export const bulkLineSchema = z
  .discriminatedUnion(
    'type',
    [
      strictObject({ type: z.literal('createCatalog'), body: createCatalogBodySchema, idempotencyKey }),
      strictObject({ type: z.literal('createCollection'), body: createCollectionBodySchema, idempotencyKey }),
      strictObject({ type: z.literal('createItem'), body: createItemBodySchema, idempotencyKey }),
      strictObject({
        type: z.literal('update'),
        id: uuid(),
        body: updatePortalItemBodySchema,
        ifMatch,
        idempotencyKey,
      }),
      strictObject({
        type: z.literal('move'),
        id: uuid(),
        body: movePortalItemBodySchema,
        ifMatch,
        idempotencyKey,
      }),
    ],
    { error: lineError },
  )
  .meta({ description: 'One line of an NDJSON bulk request: one command.' });
export type BulkLine = z.infer<typeof bulkLineSchema>;

/** The revision an `ifMatch` names. */
export function revisionOfIfMatch(value: string): bigint {
  return BigInt(value.replace(/^W\//, '').replaceAll('"', ''));
}

export const bulkUploadSchema = z
  .object({
    bucket: z.string(),
    key: z.string(),
    uploadId: z.string(),
    partSize: z.int().positive(),
  })
  .meta({
    description:
      "A created item's multipart upload; `POST /api/v1/portal/items/{id}/upload/urls` gives the part URLs.",
  });

export const bulkResultLineSchema = z
  .object({
    line: z.int().min(1).meta({ description: 'The line of the request this answers (1 for the first).' }),
    status: z.int().meta({ description: 'The HTTP status the command would have had on its own.' }),
    id: idSchema.exactOptional().meta({ description: 'The object created or changed.' }),
    upload: bulkUploadSchema.exactOptional(),
    code: z.string().exactOptional().meta({ description: 'Stable machine-readable code of a refusal.' }),
    message: z.string().exactOptional().meta({ description: 'Why the line was refused.' }),
    replayed: z
      .literal(true)
      .exactOptional()
      .meta({ description: "The line's Idempotency-Key was seen before: this is the first result again." }),
  })
  .meta({ description: 'One result line: a success with `id`, or a refusal with `message`.' });
export type BulkResultLine = z.infer<typeof bulkResultLineSchema>;

export const bulkSummarySchema = z
  .object({
    done: z.literal(true),
    lines: z.int().min(0).meta({ description: 'Lines read (blank lines included).' }),
    applied: z.int().min(0).meta({ description: 'Lines that succeeded (replays included).' }),
    failed: z.int().min(0).meta({ description: 'Lines refused.' }),
    position: z
      .string()
      .nullable()
      .meta({ description: 'The newest event written, for `X-Min-Position`; null when none was.' }),
    projected: z.boolean().meta({ description: 'Whether the read models include every line applied.' }),
    complete: z.boolean().meta({
      description:
        'false when the request was cut short (too many lines): lines after `lines` were not read.',
    }),
  })
  .meta({ description: 'The last line of a bulk response: its totals.' });
export type BulkSummary = z.infer<typeof bulkSummarySchema>;

export const bulkResponseLineSchema = z
  .union([bulkResultLineSchema, bulkSummarySchema])
  .meta({ description: 'One line of an NDJSON bulk response.' });
