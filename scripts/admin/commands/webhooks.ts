import { formatPosition, isUuid } from '@portal/domain';
import { recordWebhookEnabled } from '../../../apps/api/src/webhooks/enable-webhook.js';
import { migrateApiSchemas } from '../../../apps/api/src/migrations/api-migrations.js';
import {
  findWebhookOfAnyOrganization,
  listWebhooksOfAnyOrganization,
  type WebhookRecord,
} from '../../../apps/api/src/webhooks/webhook-store.js';
import { arg, defineCommand, stringOption, type AdminContext } from '../cli/command.js';
import { notFound, usageFailure } from '../cli/failure.js';
import { operatorMetadata } from '../cli/operator.js';
import { clip, table, when } from '../cli/table.js';
import { commandHandling, organizationByRef } from './identity.js';

const MAX_LIMIT = 1000;

/**
 * The endpoint's host only: its URL may carry the receiver's token in the path or query, so the
 * console shows what WebhookRegistered records and an auditor sees, never the whole URL.
 */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}

function webhookJson(record: WebhookRecord) {
  return {
    id: record.id,
    organizationId: record.orgId,
    host: hostOf(record.url),
    eventTypes: [...record.eventTypes],
    description: record.description,
    enabled: record.enabled,
    disabledAt: record.disabledAt?.toISOString() ?? null,
    disabledReason: record.disabledReason,
    consecutiveFailures: record.consecutiveFailures,
    createdAt: record.createdAt.toISOString(),
  };
}

async function webhookSchemaReady(context: AdminContext): Promise<void> {
  await migrateApiSchemas(context.resources.pool);
}

export const webhooksListCommand = defineCommand({
  path: ['webhooks', 'list'],
  positionals: [],
  options: {
    org: { type: 'string', value: 'slug|id', description: "only this organization's endpoints" },
    disabled: { type: 'boolean', description: 'only disabled endpoints' },
    limit: {
      type: 'string',
      value: 'n',
      description: `at most this many, oldest first (default 100, at most ${MAX_LIMIT})`,
    },
  },
  summary: 'webhook endpoints of every organization (or one), disabled ones with the reason',
  details: [
    'Lists endpoints that are not removed: organization, host (never the URL, which may hold the',
    "receiver's token), event types, whether deliveries are on, and for a disabled one when and why",
    '(the worker disables an endpoint after WEBHOOK_DISABLE_AFTER_FAILURES failed deliveries in a',
    'row). Changes nothing.',
  ].join('\n'),
  async run(context, input) {
    const limit = Number(stringOption(input, 'limit') ?? '100');
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw usageFailure(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
    }
    const org = stringOption(input, 'org');
    const orgId = org === undefined ? null : await organizationByRef(context, org);
    await webhookSchemaReady(context);
    const records = await listWebhooksOfAnyOrganization(context.resources.pool, {
      orgId,
      disabledOnly: input.options.disabled === true,
      limit,
    });
    const items = records.map(webhookJson);
    if (items.length === 0) return { json: { items }, text: 'no webhook endpoints' };
    const text = table(
      ['id', 'organization', 'host', 'events', 'deliveries'],
      items.map((item) => [
        item.id,
        item.organizationId,
        item.host,
        clip(item.eventTypes.join(','), 30),
        item.enabled
          ? `on (${item.consecutiveFailures} failed in a row)`
          : `disabled ${when(item.disabledAt === null ? null : new Date(item.disabledAt))}: ${clip(item.disabledReason ?? '', 50)}`,
      ]),
    );
    return { json: { items }, text };
  },
});

export const webhooksEnableCommand = defineCommand({
  path: ['webhooks', 'enable'],
  positionals: ['id'],
  options: {},
  summary: 're-enable a disabled webhook endpoint',
  details: [
    "Records EnableWebhook through the command handler, as an admin's POST /api/v1/webhooks/{id}/enable",
    'does, with your name as metadata.operator: deliveries resume with the events from now on (those',
    'of the time it was disabled are not sent) and its failure count starts again. An endpoint that is',
    'enabled stays so (exit 0, nothing recorded).',
  ].join('\n'),
  async run(context, input) {
    const id: unknown = arg(input, 'id');
    if (!isUuid(id)) {
      throw usageFailure(`<id> must be a webhook endpoint's id (a UUID), not "${arg(input, 'id')}"`);
    }
    await webhookSchemaReady(context);
    const { pool } = context.resources;
    const found = await findWebhookOfAnyOrganization(pool, id);
    if (!found) throw notFound(`no webhook endpoint ${id}`);
    const at = context.now();
    const { position } = await recordWebhookEnabled(
      { handling: await commandHandling(context), pool },
      {
        orgId: found.orgId,
        webhookId: id,
        actor: { operator: context.operator },
        metadata: operatorMetadata(context.operator, found.orgId, at),
        at,
      },
    );
    const after = (await findWebhookOfAnyOrganization(pool, id)) ?? found;
    const json = {
      ...webhookJson(after),
      wasEnabled: found.enabled,
      position: position && formatPosition(position),
    };
    const text = found.enabled
      ? `webhook ${id} (${json.host}) was already enabled; nothing recorded`
      : `webhook ${id} (${json.host}) enabled: deliveries resume with events from now on`;
    return { json, text };
  },
});
