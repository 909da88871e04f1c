import type { Request, Response } from 'express';
import {
  createApiKeyBodySchema,
  revokeApiKeyBodySchema,
  type ApiKey,
  type CreatedApiKey,
} from '@portal/contracts';
import { DomainError, requireRole } from '@portal/domain';
import { announceIdentityChange } from '@portal/platform';
import type { ApiDependencies } from '../dependencies.js';
import { respondToCommand } from '../commands/respond.js';
import { parseInput } from '../http/validate.js';
import {
  deleteApiKey,
  findApiKeyInOrganization,
  insertApiKey,
  listApiKeys,
  newApiKey,
  revokeApiKeyRow,
  type ApiKeyRecord,
} from './api-key-store.js';
import { callerOf } from './caller.js';
import { organizationActorOf, requireActiveOrganization, requireCredential } from './caller-rules.js';
import { runOrganizationCommand } from './organization-commands.js';

const DAY_MS = 86_400_000;

export function apiKeyView(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    organizationId: record.orgId,
    name: record.name,
    role: record.role,
    prefix: record.prefix,
    createdBy: record.createdBy,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  };
}

/** Keys are managed by people: an API key cannot create, list or revoke keys. */
function keyManager(req: Request, doing: string) {
  const caller = requireCredential(callerOf(req), ['session', 'jwt'], doing);
  requireRole(caller, 'admin', doing);
  const { orgId } = requireActiveOrganization(caller);
  return { caller, orgId };
}

/**
 * `POST /api/auth/api-key/create`: the organization's decider checks the role (at most the creator's);
 * the digest row is written before ApiKeyCreated and deleted if that append fails.
 */
export async function createApiKey(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = keyManager(req, 'create API keys');
  const body = parseInput(createApiKeyBodySchema, req.body, 'API key');
  const at = deps.now();
  const id = deps.newId();
  const { key, prefix, digest } = newApiKey();
  const expiresAt =
    body.expiresInDays === undefined ? null : new Date(at.getTime() + body.expiresInDays * DAY_MS);
  const record: ApiKeyRecord = {
    id,
    orgId,
    createdBy: caller.userId,
    name: body.name,
    role: body.role,
    prefix,
    createdAt: at,
    expiresAt,
    revokedAt: null,
  };
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    {
      type: 'CreateApiKey',
      data: {
        keyId: id,
        name: body.name,
        role: body.role,
        prefix,
        expiresAt: expiresAt?.toISOString() ?? null,
        actor: organizationActorOf(caller),
      },
    },
    { userId: caller.userId, at },
    {
      sideEffect: {
        apply: () => insertApiKey(deps.pool, { ...record, digest }),
        undo: () => deleteApiKey(deps.pool, id),
      },
    },
  );
  res.setHeader('Cache-Control', 'no-store');
  const created: CreatedApiKey = { ...apiKeyView(record), key };
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 201, body: created },
  );
}

/** `GET /api/auth/api-key/list`: the active organization's keys, newest first, never the keys themselves. */
export async function listOrganizationApiKeys(
  deps: ApiDependencies,
  req: Request,
  res: Response,
): Promise<void> {
  const { orgId } = keyManager(req, 'list API keys');
  const keys = await listApiKeys(deps.pool, orgId);
  res.json({ items: keys.map(apiKeyView) });
}

/** `POST /api/auth/api-key/revoke`: the key stops working at once; ApiKeyRevoked records who did it. */
export async function revokeApiKey(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { caller, orgId } = keyManager(req, 'revoke API keys');
  const { keyId } = parseInput(revokeApiKeyBodySchema, req.body, 'API key revocation');
  const found = await findApiKeyInOrganization(deps.pool, keyId, orgId);
  if (!found) throw new DomainError('NOT_FOUND', 'API key not found');
  const at = deps.now();
  const { outcome } = await runOrganizationCommand(
    deps,
    req,
    orgId,
    {
      type: 'RevokeApiKey',
      data: { keyId, actor: organizationActorOf(caller) },
    },
    { userId: caller.userId, at },
    // Revoked before the event even when the key was already revoked in the stream: the row is what counts.
    { sideEffect: { apply: () => revokeApiKeyRow(deps.pool, keyId, at) } },
  );
  if (outcome.position === null) await revokeApiKeyRow(deps.pool, keyId, at);
  // This process stops accepting it now, the others when they hear the announcement (and again when the
  // projector signals the ApiKeyRevoked).
  deps.auth.apiKeys.clear();
  await announceIdentityChange(deps.pool);
  const revoked = await findApiKeyInOrganization(deps.pool, keyId, orgId);
  await respondToCommand(
    deps,
    req,
    res,
    { position: outcome.position, revision: null },
    { status: 200, body: apiKeyView(revoked ?? { ...found, revokedAt: at }) },
  );
}
