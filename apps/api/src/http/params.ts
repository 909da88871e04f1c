import { z } from 'zod';
import { idSchema } from '@portal/contracts';

/** `/:id` path parameters: a malformed id answers 400, never a database error. */
export const idParamsSchema = z.object({ id: idSchema });
