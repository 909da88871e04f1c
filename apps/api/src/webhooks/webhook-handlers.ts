import type { Request, Response } from 'express';
import {
  listQuerySchema,
  registerWebhookBodySchema,
  rotateWebhookSecretBodySchema,
  type CreatedWebhook,
} from '@portal/contracts';
import { DomainError, requireRole, type OrganizationCommand } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import { respondToCommand } from '../commands/respond.js';
import { listPage } from '../http/list-page.js';
import { idParamsSchema } from '../http/params.js';
import { parseInput } from '../http/validate.js';
import { callerOf } from '../auth/caller.js';
import { organizationActorOf, requireActiveOrganization, requireSignedIn } from '../auth/caller-rules.js';
import { runOrganizationCommand } from '../auth/organization-commands.js';
import { listDeliveries } from './delivery-queries.js';
import { recordWebhookEnabled } from './enable-webhook.js';
import { checkTargetUrl, outboundPolicyOf } from './target-url.js';
import {
  deleteWebhook,
  findWebhook,
  insertWebhook,
  listWebhooks,
  markWebhookRemoved,
  type WebhookRecord,
} from './webhook-store.js';
import {
  newWebhookSecret,
  restoreStoredSecrets,
  rotateStoredSecret,
  sealWebhookSecret,
  type StoredSecrets,
} from './webhook-secrets.js';
import { webhookView } from './webhook-view.js';

/** Webhooks are the active organization's, for its admins and owners (any credential of theirs). */
function webhookAdmin(req: Request, doing: string) {
  const authenticated = callerOf(req);
  requireRole(authenticated, 'admin', doing);
  const caller = requireSignedIn(authenticated, doing);
  return { caller, orgId: requireActiveOrganization(caller).orgId };
}

async function requireWebhook(deps: ApiDependencies, req: Request, orgId: string): Promise<WebhookRecord> {
  const { id } = parseInput(idParamsSchema, req.params, 'path');
  const found = await findWebhook(deps.pool, id, orgId);
  if (!found) throw new DomainError('NOT_FOUND', 'webhook not found');
  return found;
}

/**
 * `POST /api/v1/webhooks`: the decider checks the role; the endpoint row (with its sealed secret) is
 * written before WebhookRegistered and deleted again if that append fails, as API keys are.
 */
export async function registerWebhook(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = webhookAdmin(req, 'register webhooks');
  const body = parseInput(registerWebhookBodySchema, req.body, 'webhook');
  const url = await checkTargetUrl(body.url, outboundPolicyOf(deps.config));
  const at = deps.now();
  const id = deps.newId();
  const secret = newWebhookSecret();
  const eventTypes = body.eventTypes.includes('*') ? ['*'] : [...new Set(body.eventTypes)];
  const description = body.description === undefined || body.description === '' ? null : body.description;
  const record: WebhookRecord = {
    id,
    orgId,
    url: url.toString(),
    eventTypes,
    description,
    createdBy: caller.userId,
    createdAt: at,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 0,
    secretRotatedAt: null,
    previousSecretExpiresAt: null,
  };
  const command: OrganizationCommand = {
    type: 'RegisterWebhook',
    data: { webhookId: id, host: url.host, eventTypes, description, actor: organizationActorOf(caller) },
  };
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    command,
    { userId: caller.userId, at },
    {
      sideEffect: {
        apply: () =>
          insertWebhook(deps.pool, {
            ...record,
            sealedSecret: sealWebhookSecret(deps.webhookSecrets, id, secret),
          }),
        undo: () => deleteWebhook(deps.pool, id),
      },
    },
  );
  res.setHeader('Cache-Control', 'no-store');
  const created: CreatedWebhook = { ...webhookView(record), secret };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 201, body: created },
  );
}

export async function listOrganizationWebhooks(
  deps: ApiDependencies,
  req: Request,
  res: Response,
): Promise<void> {
  const { orgId } = webhookAdmin(req, 'list webhooks');
  res.json({ items: (await listWebhooks(deps.pool, orgId)).map(webhookView) });
}

export async function getWebhook(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { orgId } = webhookAdmin(req, 'read webhooks');
  res.json(webhookView(await requireWebhook(deps, req, orgId)));
}

/** `DELETE /api/v1/webhooks/{id}`: no job is enqueued for it from now on; WebhookRemoved records who. */
export async function removeWebhook(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = webhookAdmin(req, 'remove webhooks');
  const found = await requireWebhook(deps, req, orgId);
  const at = deps.now();
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    { type: 'RemoveWebhook', data: { webhookId: found.id, actor: organizationActorOf(caller) } },
    { userId: caller.userId, at },
    { sideEffect: { apply: () => markWebhookRemoved(deps.pool, found.id, at) } },
  );
  // The stream already said removed (an earlier append that outlived its row update): the row follows.
  if (outcome.position === null) await markWebhookRemoved(deps.pool, found.id, at);
  const body = webhookView({ ...found, enabled: false });
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body },
  );
}

/** `POST /api/v1/webhooks/{id}/enable`: deliveries resume with events after this moment. */
export async function enableWebhook(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = webhookAdmin(req, 'enable webhooks');
  const found = await requireWebhook(deps, req, orgId);
  const at = deps.now();
  const { position } = await recordWebhookEnabled(
    { handling: commandContextOf(deps), pool: deps.pool },
    {
      orgId,
      webhookId: found.id,
      actor: organizationActorOf(caller),
      metadata: metadataOf(req, at, { userId: caller.userId, orgId }),
      at,
    },
  );
  const enabled = await findWebhook(deps.pool, found.id, orgId);
  await respondToCommand(
    deps,
    req,
    res,
    { position, revision: null },
    { status: 200, body: webhookView(enabled ?? found) },
  );
}

/**
 * `POST /api/v1/webhooks/{id}/rotate-secret`: a new secret, shown once; the current one becomes the
 * previous and still signs deliveries for the grace period. The row changes before WebhookSecretRotated
 * and is put back if that append fails, so a caller who got no answer keeps the secret they have.
 */
export async function rotateWebhookSecret(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = webhookAdmin(req, 'rotate webhook secrets');
  const found = await requireWebhook(deps, req, orgId);
  const { gracePeriodSeconds } = parseInput(rotateWebhookSecretBodySchema, req.body ?? {}, 'rotation');
  const at = deps.now();
  const grace = gracePeriodSeconds ?? deps.config.WEBHOOK_SECRET_GRACE_SECONDS;
  const previousExpiresAt = new Date(at.getTime() + grace * 1000);
  const secret = newWebhookSecret();
  const sealed = sealWebhookSecret(deps.webhookSecrets, found.id, secret);
  let before: StoredSecrets | null = null;
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    {
      type: 'RotateWebhookSecret',
      data: {
        webhookId: found.id,
        previousSecretExpiresAt: previousExpiresAt.toISOString(),
        actor: organizationActorOf(caller),
      },
    },
    { userId: caller.userId, at },
    {
      sideEffect: {
        apply: async () => {
          before = await rotateStoredSecret(deps.pool, found.id, { sealed, previousExpiresAt, at });
          if (before === null) throw new DomainError('NOT_FOUND', 'webhook not found');
        },
        undo: async () => {
          if (before !== null) await restoreStoredSecrets(deps.pool, found.id, sealed, before);
        },
      },
    },
  );
  const rotated = await findWebhook(deps.pool, found.id, orgId);
  res.setHeader('Cache-Control', 'no-store');
  const body: CreatedWebhook = {
    ...webhookView(rotated ?? { ...found, secretRotatedAt: at, previousSecretExpiresAt: previousExpiresAt }),
    secret,
  };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body },
  );
}

export async function listWebhookDeliveries(
  deps: ApiDependencies,
  req: Request,
  res: Response,
): Promise<void> {
  const { orgId } = webhookAdmin(req, 'read webhook deliveries');
  const found = await requireWebhook(deps, req, orgId);
  const query = parseInput(listQuerySchema, req.query, 'query');
  const page = await listDeliveries(deps.pool, found.id, query);
  res.json(listPage(req, deps.config, page));
}
