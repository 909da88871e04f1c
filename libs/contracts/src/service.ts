import { z } from 'zod';

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

/** One dependency's answer: `ok`, what it reported when it answered, or why it did not. */
export const dependencyCheckSchema = z.object({
  ok: z.boolean(),
  detail: z
    .record(z.string(), z.unknown())
    .exactOptional()
    .meta({ description: 'What the dependency reported, e.g. the projection position.' }),
  error: z.string().exactOptional().meta({ description: 'Why the dependency did not answer.' }),
});
export type DependencyCheck = z.infer<typeof dependencyCheckSchema>;

/**
 * `ready`: every dependency answers. `degraded`: every critical one (PostgreSQL, the event store)
 * answers, some other (Redis, S3, the upload worker) does not. `not-ready`: a critical one does not.
 */
export const readinessStatuses = ['ready', 'degraded', 'not-ready'] as const;

/** `GET /health/ready`: 200 when ready or degraded, 503 when not ready, with the same body. */
export const readinessSchema = z.object({
  status: z.enum(readinessStatuses),
  checks: z.record(z.string(), dependencyCheckSchema).meta({
    description: 'By dependency name, e.g. postgres, eventStore, redis, s3, uploadWorker.',
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;
