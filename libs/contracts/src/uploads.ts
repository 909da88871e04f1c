import { z } from 'zod';
import { idSchema } from './common.js';

/** The answer to `complete` (202) and `abort` (200): which upload, and the status it moved to. */
export const uploadAcceptedSchema = z.object({
  portalItemId: idSchema,
  uploadId: z.string(),
  status: z.enum(['processing', 'aborted']),
});
export type UploadAccepted = z.infer<typeof uploadAcceptedSchema>;
