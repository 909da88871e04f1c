import { z } from 'zod';
import { timestampSchema } from './common.js';

export const serviceLinkSchema = z.object({
  rel: z.string(),
  href: z.string(),
  type: z.string().exactOptional(),
  title: z.string().exactOptional(),
});
export type ServiceLink = z.infer<typeof serviceLinkSchema>;

/** `GET /`: what the service is and where to go next (OpenAPI document, browser root, health). */
export const serviceDescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  version: z.string().meta({ description: 'API version.' }),
  links: z.array(serviceLinkSchema),
});
export type ServiceDescription = z.infer<typeof serviceDescriptionSchema>;

/** `GET /health`: the process is alive; says nothing about dependencies. */
export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

export const dependencyCheckSchema = z.object({
  status: z.enum(['up', 'down']),
  message: z
    .string()
    .exactOptional()
    .meta({ description: 'Why the dependency is down, or the projection lag.' }),
});
export type DependencyCheck = z.infer<typeof dependencyCheckSchema>;

/** `GET /health/ready`: 200 when every dependency is up, 503 otherwise, with the same body. */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checkedAt: timestampSchema,
  checks: z.record(z.string(), dependencyCheckSchema).meta({
    description: 'By dependency: eventStore, postgres, redis, s3, projections.',
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;
