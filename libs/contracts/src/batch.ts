import { z } from 'zod';
import { createCatalogBodySchema } from './catalogs.js';
import { createCollectionBodySchema } from './collections.js';
import { createdObjectSchema, messageSchema } from './common.js';
import { createItemBodySchema, uploadDescriptorSchema } from './items.js';
import { boundedArray, expected, strictObject } from './messages.js';

/** Invented bound: commands per `POST /` batch. */
export const MAX_BATCH_COMMANDS = 100;

const commandTypes = ['createCatalog', 'createCollection', 'createItem'] as const;

/** zod types this map for an unknown `type` only, but a non-object command reaches it too. */
function commandError(issue: { readonly code?: string; readonly input?: unknown }): string {
  return issue.code === 'invalid_union'
    ? `must be one of ${commandTypes.join(', ')}`
    : expected('a JSON object')(issue);
}

export const batchCommandSchema = z.discriminatedUnion(
  'type',
  [
    strictObject({ type: z.literal('createCatalog'), body: createCatalogBodySchema }),
    strictObject({ type: z.literal('createCollection'), body: createCollectionBodySchema }),
    strictObject({ type: z.literal('createItem'), body: createItemBodySchema }),
  ],
  { error: commandError },
);
export type BatchCommand = z.infer<typeof batchCommandSchema>;

/** `POST /`: create commands for pipelines, executed in order. */
export const batchRequestSchema = strictObject(
  { commands: boundedArray(batchCommandSchema, { min: 1, max: MAX_BATCH_COMMANDS, unit: 'command' }) },
  'a JSON object (the request body)',
);
export type BatchRequest = z.infer<typeof batchRequestSchema>;

export const batchResultSchema = z.object({
  status: z.int().meta({ description: 'The HTTP status the command would have had on its own.' }),
  body: z.union([createdObjectSchema, uploadDescriptorSchema, messageSchema]),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

export const batchResponseSchema = z.object({
  results: z.array(batchResultSchema).meta({ description: 'One result per command, in order.' }),
});
export type BatchResponse = z.infer<typeof batchResponseSchema>;
