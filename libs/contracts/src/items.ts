import { z } from 'zod';
import { idSchema } from './common.js';
import { linksSchema } from './link.js';
import { boundedText, expected, strictObject } from './messages.js';
import { descriptionSchema, parentIdSchema, titleSchema } from './portal-fields.js';

/** S3's largest object; the contract sets no bound. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 4;
export const FILE_NAME_MAX = 255;
export const CONTENT_TYPE_MAX = 255;

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
    fileName: boundedText(1, FILE_NAME_MAX).exactOptional(),
    contentType: boundedText(1, CONTENT_TYPE_MAX)
      .exactOptional()
      .meta({ description: 'Media type of the file.' }),
  },
  'a JSON object (the request body)',
);
export type CreateItemBody = z.infer<typeof createItemBodySchema>;

export const partUrlSchema = z.object({
  partNumber: z.int().min(1).max(10_000),
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
