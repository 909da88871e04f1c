import { z } from 'zod';
import { createVisibilitySchema } from './access.js';
import { createdObjectSchema, idSchema } from './common.js';
import { hrefAssetsSchema } from './href-assets.js';
import { stacItemNameSchema } from './stac-ids.js';
import { linksSchema } from './link.js';
import { boundedArray, boundedText, expected, strictObject } from './messages.js';
import { checkItemMetadata, itemMetadataShape } from './item-metadata.js';
import { descriptionSchema, parentIdSchema, titleSchema } from './portal-fields.js';

/** S3's largest object; the contract sets no bound. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 4;
export const FILE_NAME_MAX = 255;
export const CONTENT_TYPE_MAX = 255;

const MIB = 1024 ** 2;
/** S3's multipart bounds; the domain's part plan enforces the same. */
export const MIN_PART_BYTES = 5 * MIB;
export const MAX_PART_BYTES = 5 * 1024 * MIB;
export const MAX_PART_NUMBER = 10_000;

const partSizeSchema = z
  .int({ error: expected('a whole number of bytes') })
  .min(MIN_PART_BYTES, { error: `must be at least ${MIN_PART_BYTES} bytes (5 MiB)` })
  .max(MAX_PART_BYTES, { error: `must be at most ${MAX_PART_BYTES} bytes (5 GiB)` })
  .meta({ description: 'Bytes per part; default 64 MiB (grown when `size` needs more than 10,000 parts).' });

const partNumberSchema = z
  .int({ error: expected('a whole number') })
  .min(1, { error: `must be from 1 to ${MAX_PART_NUMBER}` })
  .max(MAX_PART_NUMBER, { error: `must be from 1 to ${MAX_PART_NUMBER}` });

/** RFC 9110 media type: token/token, then `; name=value` parameters (quoted values allowed), ASCII only. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*"))*$`,
);

const sizeSchema = z
  .int({ error: expected('a whole number of bytes') })
  .positive({ error: 'must be a positive number of bytes' })
  .max(MAX_UPLOAD_BYTES, { error: `must be at most ${MAX_UPLOAD_BYTES} bytes (5 TiB)` })
  .meta({ description: 'Size of the file in bytes; decides the part size and count.' });

export const createItemBodySchema = strictObject(
  {
    title: titleSchema,
    description: descriptionSchema.exactOptional(),
    parentId: parentIdSchema
      .exactOptional()
      .meta({ description: 'Id of the collection or catalog holding the item.' }),
    links: linksSchema,
    size: sizeSchema.exactOptional(),
    partSize: partSizeSchema.exactOptional(),
    fileName: boundedText(1, FILE_NAME_MAX).exactOptional(),
    contentType: boundedText(1, CONTENT_TYPE_MAX)
      // It becomes the object's Content-Type header: printable ASCII `type/subtype[; parameters]` only.
      .regex(MEDIA_TYPE, { error: 'must be a media type such as image/tiff or text/csv; charset=utf-8' })
      .exactOptional()
      .meta({ description: "Media type of the file (RFC 9110), stored as the object's Content-Type." }),
    ...itemMetadataShape,
    assets: hrefAssetsSchema.exactOptional().meta({
      description:
        'Assets registered by href, by key. Given (even `{}`), the item has no upload: it is `ready` at once and the answer is `{portalItemId}`, not an upload descriptor.',
    }),
    visibility: createVisibilitySchema,
    stacId: stacItemNameSchema.exactOptional(),
  },
  'a JSON object (the request body)',
  // Last: zod 4 refuses to extend a refined object. The cross-field rules of the datetimes.
)
  .superRefine(checkItemMetadata)
  .superRefine(checkNoUploadWithAssets);
export type CreateItemBody = z.infer<typeof createItemBodySchema>;

const uploadFields = ['size', 'partSize', 'fileName', 'contentType'] as const;

/** An item registered by href has no upload: the fields describing one do not apply to it. */
function checkNoUploadWithAssets(body: Partial<Record<string, unknown>>, ctx: z.RefinementCtx): void {
  if (body['assets'] === undefined) return;
  for (const field of uploadFields) {
    if (body[field] === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message:
        'does not apply to an item created with assets by href (it has no upload); leave out assets to upload a file',
    });
  }
}

export const partUrlSchema = z.object({
  partNumber: z.int().min(1).max(MAX_PART_NUMBER),
  url: z.string().meta({ description: 'Presigned URL to PUT this part to.' }),
});
export type PartUrl = z.infer<typeof partUrlSchema>;

/** The answer to an item create: where and how to upload the file in parts. */
export const uploadDescriptorSchema = z.object({
  portalItemId: idSchema,
  key: z.string().meta({ description: 'Object key of the upload.' }),
  bucket: z.string(),
  uploadId: z.string().meta({ description: 'S3 multipart upload id.' }),
  partSize: z.int().positive().meta({ description: 'Bytes per part (the last part may be smaller).' }),
  partUrls: z.array(partUrlSchema),
});
export type UploadDescriptor = z.infer<typeof uploadDescriptorSchema>;

/** The answer to an item create: the upload descriptor, or the created object for an item registered by href. */
export const createItemAnswerSchema = z.union([uploadDescriptorSchema, createdObjectSchema]);

/** Part numbers given in a request must not repeat. */
function distinctPartNumbers(numbers: readonly number[]): boolean {
  return new Set(numbers).size === numbers.length;
}

const namedPartSchema = strictObject(
  {
    partNumber: partNumberSchema,
    etag: boundedText(1, 256).meta({ description: 'The `ETag` header the part upload answered.' }),
  },
  'an object with partNumber and etag',
);

/** `POST .../upload/complete`: without `parts`, every part the object store holds is used. */
export const completeUploadBodySchema = strictObject(
  {
    parts: boundedArray(namedPartSchema, { min: 1, max: MAX_PART_NUMBER, unit: 'part' })
      .refine((parts) => distinctPartNumbers(parts.map((part) => part.partNumber)), {
        error: 'must not name a part number twice',
      })
      .exactOptional()
      .meta({ description: 'The parts to assemble, with the ETags their uploads answered.' }),
  },
  'a JSON object (the request body)',
);
export type CompleteUploadBody = z.infer<typeof completeUploadBodySchema>;

export const MAX_URLS_PER_REQUEST = 1000;

/** `POST .../upload/urls`: fresh presigned URLs for parts whose URLs expired or were lost. */
export const uploadUrlsBodySchema = strictObject(
  {
    partNumbers: boundedArray(partNumberSchema, { min: 1, max: MAX_URLS_PER_REQUEST, unit: 'part number' })
      .refine(distinctPartNumbers, { error: 'must not name a part number twice' })
      .meta({ description: 'Part numbers to presign.' }),
  },
  'a JSON object (the request body)',
);
export type UploadUrlsBody = z.infer<typeof uploadUrlsBodySchema>;

export const uploadUrlsSchema = z.object({
  portalItemId: idSchema,
  uploadId: z.string(),
  urlsExpireAt: z.iso.datetime().meta({ description: 'When these URLs stop working.' }),
  partUrls: z.array(partUrlSchema),
});
export type UploadUrls = z.infer<typeof uploadUrlsSchema>;

export const receivedPartSchema = z.object({
  partNumber: z.int().min(1).max(MAX_PART_NUMBER),
  size: z.int().min(0),
  etag: z.string(),
  lastModified: z.iso.datetime().nullable(),
});
export type ReceivedPart = z.infer<typeof receivedPartSchema>;

/** `GET .../upload`: where an upload stands, with the parts the object store holds while it is open. */
export const uploadStatusSchema = z.object({
  portalItemId: idSchema,
  uploadId: z.string(),
  bucket: z.string(),
  key: z.string(),
  status: z.enum(['uploading', 'processing', 'ready', 'failed', 'aborted', 'expired']),
  statusMessage: z.string().nullable().meta({ description: 'Why the last completion failed.' }),
  partSize: z.int().positive(),
  partCount: z.int().positive().nullable().meta({ description: 'Null when the size was not given.' }),
  size: z.int().min(0).nullable().meta({
    description:
      'Bytes of the file: the size declared on create, or, once ready, that of the assembled object. Null while an upload without a declared size is open.',
  }),
  fileName: z.string().nullable(),
  contentType: z.string().nullable(),
  partsReceived: z
    .array(receivedPartSchema)
    .meta({ description: 'Parts held by the object store; empty once the upload has ended.' }),
  bytesReceived: z.int().min(0),
  expiresAt: z.iso.datetime().meta({ description: 'An upload still open then is aborted.' }),
  completionRequestedAt: z.iso.datetime().nullable(),
});
export type UploadStatusRecord = z.infer<typeof uploadStatusSchema>;
