import { z } from 'zod';
import { idSchema, pageSchema, timestampSchema } from './common.js';
import { boundedArray, boundedText, expected, strictObject, uuid } from './messages.js';

const body = 'a JSON object (the request body)';

/** Invented bounds: a URL a browser would take, and a subscription list a person can read. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_EVENT_TYPES = 100;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;

/**
 * The event types an endpoint can subscribe to, as the event store names them: every event of an
 * organization's objects and of the organization itself. A user's own events (`UserRegistered`,
 * `UserDisabled`) belong to no organization and are never delivered. A unit test keeps this list equal to the domain's event types.
 */
export const webhookEventTypes = [
  'CatalogCreated',
  'CollectionCreated',
  'PortalObjectUpdated',
  'PortalObjectMoved',
  'PortalObjectDeleted',
  'VisibilityChanged',
  'ObjectShared',
  'ObjectUnshared',
  'ItemUploadStarted',
  'ItemRegistered',
  'UploadCompletionRequested',
  'AssetAttached',
  'UploadCompleted',
  'UploadFailed',
  'UploadAborted',
  'UploadExpired',
  'OrganizationCreated',
  'MemberAdded',
  'MemberInvited',
  'InvitationCancelled',
  'MemberRoleChanged',
  'MemberRemoved',
  'ApiKeyCreated',
  'ApiKeyRevoked',
  'WebhookRegistered',
  'WebhookRemoved',
  'WebhookDisabled',
  'WebhookEnabled',
  'WebhookSecretRotated',
] as const;

const subscribable: ReadonlySet<string> = new Set(['*', ...webhookEventTypes]);

/** An event type, or `*` for every type. Unknown names are reported once, by the list (below). */
export const webhookEventTypeSchema = z
  .string({ error: expected('a string') })
  .max(100, { error: 'must be at most 100 characters' })
  .meta({ enum: ['*', ...webhookEventTypes] });

/** The subscription list: each name must be known, so a typo never subscribes to nothing silently. */
const webhookEventTypeListSchema = boundedArray(webhookEventTypeSchema, {
  min: 1,
  max: MAX_WEBHOOK_EVENT_TYPES,
  unit: 'event type',
}).superRefine((types, context) => {
  const unknown = [...new Set(types.filter((type) => !subscribable.has(type)))];
  if (unknown.length === 0) return;
  context.addIssue({
    code: 'custom',
    message: `unknown event types ${unknown.map((type) => JSON.stringify(type)).join(', ')}; each must be "*" or one of: ${webhookEventTypes.join(', ')}`,
  });
});

/** `POST /api/v1/webhooks`. The URL rules (https, no private targets) are checked by the API. */
export const registerWebhookBodySchema = strictObject(
  {
    url: boundedText(1, MAX_WEBHOOK_URL_LENGTH).meta({
      description:
        'Where deliveries are POSTed: `https://`, a public address (see docs/webhooks.md for the rules).',
    }),
    eventTypes: webhookEventTypeListSchema.meta({
      description: 'Event types to deliver, or `["*"]` for every event of the organization.',
    }),
    description: boundedText(0, MAX_WEBHOOK_DESCRIPTION_LENGTH).exactOptional(),
  },
  body,
);
export type RegisterWebhookBody = z.infer<typeof registerWebhookBodySchema>;

export const webhookSchema = z.object({
  id: idSchema,
  organizationId: idSchema,
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledAt: timestampSchema.nullable(),
  disabledReason: z.string().nullable().meta({ description: 'Why deliveries stopped, when they did.' }),
  consecutiveFailures: z.int().meta({ description: 'Failed deliveries since the last successful one.' }),
  createdBy: idSchema,
  createdAt: timestampSchema,
  secretRotatedAt: timestampSchema
    .nullable()
    .meta({ description: 'When the signing secret was last rotated; null if never.' }),
  previousSecretExpiresAt: timestampSchema.nullable().meta({
    description:
      'Until when the secret before the last rotation also signs deliveries (a second `v1=`); null if never rotated. In the past: it no longer does.',
  }),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of registration and of a rotation: the only time the signing secret is shown. */
export const createdWebhookSchema = webhookSchema.extend({
  secret: z.string().meta({
    description: 'Key of the `X-Portal-Signature` HMAC (docs/webhooks.md). Shown this once; store it.',
  }),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** Invented bound: a week is long enough to roll a new secret out to any receiver. */
export const MAX_WEBHOOK_SECRET_GRACE_SECONDS = 7 * 86_400;

/** `POST /api/v1/webhooks/{id}/rotate-secret`; the body may be absent. */
export const rotateWebhookSecretBodySchema = strictObject(
  {
    gracePeriodSeconds: z
      .int({ error: `must be an integer from 0 to ${MAX_WEBHOOK_SECRET_GRACE_SECONDS}` })
      .min(0, { error: `must be an integer from 0 to ${MAX_WEBHOOK_SECRET_GRACE_SECONDS}` })
      .max(MAX_WEBHOOK_SECRET_GRACE_SECONDS, {
        error: `must be an integer from 0 to ${MAX_WEBHOOK_SECRET_GRACE_SECONDS}`,
      })
      .exactOptional()
      .meta({
        description:
          'How long the current secret still signs deliveries next to the new one; `WEBHOOK_SECRET_GRACE_SECONDS` (a day) when absent. 0 ends it at once (a leaked secret).',
      }),
  },
  body,
);

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });

/** One attempt to deliver one event to one endpoint. */
export const webhookDeliverySchema = z.object({
  deliveryId: uuid().meta({ description: '`X-Portal-Delivery`: the same for every attempt of one event.' }),
  eventId: z.string().meta({ description: "The event's position: the payload's `id`." }),
  eventType: z.string(),
  attempt: z.int().meta({ description: '1 for the first attempt.' }),
  attemptedAt: timestampSchema,
  statusCode: z.int().nullable().meta({ description: "The receiver's status; null when none came." }),
  error: z.string().nullable().meta({ description: 'What went wrong, when the attempt failed.' }),
  durationMs: z.int(),
  succeeded: z.boolean(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryPageSchema = pageSchema(webhookDeliverySchema);
