import { setTimeout as delay } from 'node:timers/promises';
import { callAt, type JsonResponse } from '../http.js';
import { joinAs, type Cast, type Person } from './cast.js';
import { unreachable, type Answer, type Command } from './commands.js';

/** Sends each command as a client would, over HTTP, and keeps what the model needs of the answer. */

const RETRIES_AFTER_503 = 4;

function personOf(cast: Cast, userId: string): Person {
  const person = cast.people.find((each) => each.userId === userId);
  if (!person) throw new Error(`no person ${userId}`);
  return person;
}

function answerOf(response: JsonResponse<Record<string, unknown> | null>): Answer {
  const body = response.body ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const ok = response.status < 300;
  return {
    status: response.status,
    code: ok ? null : text(body.code),
    message: ok ? null : text(body.message),
    createdId: ok ? text(body.portalItemId) : null,
    position: response.headers.get('x-event-position'),
  };
}

const createPaths = {
  catalog: '/api/v1/portal/catalogs/create',
  collection: '/api/v1/portal/collections/create',
  item: '/api/v1/portal/items/create',
} as const;

async function request(baseUrl: string, cast: Cast, command: Exclude<Command, { type: 'rejoin' }>) {
  const { headers } = personOf(cast, command.actor.userId);
  const post = (path: string, body: unknown) =>
    callAt<Record<string, unknown> | null>(baseUrl, 'POST', path, { headers, body });
  const items = '/api/v1/portal/items';
  switch (command.type) {
    case 'create': {
      const { kind, title, parentId, visibility } = command;
      return post(createPaths[kind], {
        title,
        description: 'made by the property test',
        links: [],
        ...(parentId === null ? {} : { parentId }),
        ...(visibility === null ? {} : { visibility }),
      });
    }
    case 'move':
      return post(`${items}/${command.id}/move`, { parentId: command.parentId });
    case 'delete':
      return callAt<Record<string, unknown> | null>(
        baseUrl,
        'DELETE',
        `${items}/${command.id}?recursive=${String(command.recursive)}`,
        { headers },
      );
    case 'visibility':
      return callAt<Record<string, unknown> | null>(baseUrl, 'PUT', `${items}/${command.id}/visibility`, {
        headers,
        body: { visibility: command.visibility },
      });
    case 'share':
      return post(`${items}/${command.id}/shares`, {
        principal: command.principal,
        permission: command.permission,
      });
    case 'unshare': {
      const { principal } = command;
      return callAt<Record<string, unknown> | null>(
        baseUrl,
        'DELETE',
        `${items}/${command.id}/shares/${principal.type}/${principal.id}`,
        { headers },
      );
    }
    case 'set-role':
      return post('/api/auth/organization/update-member-role', {
        userId: command.member.userId,
        role: command.role,
      });
    case 'remove-member':
      return post('/api/auth/organization/remove-member', { userId: command.member.userId });
    default:
      return unreachable(command);
  }
}

export async function send(baseUrl: string, cast: Cast, command: Command): Promise<Answer> {
  if (command.type === 'rejoin') {
    // Several requests, one change: the membership begins when the invitation is accepted.
    const owner = personOf(cast, command.actor.userId);
    await joinAs(baseUrl, owner, personOf(cast, command.member.userId), command.role);
    return { status: 200, code: null, message: null, createdId: null, position: null };
  }
  // A 503 (the read models behind on a busy machine, the organization's moves queued) changed nothing
  // and asks to retry: a client would, after `Retry-After`.
  for (let attempt = 1; ; attempt += 1) {
    const response = await request(baseUrl, cast, command);
    if (response.status !== 503 || attempt === RETRIES_AFTER_503) return answerOf(response);
    const seconds = Number(response.headers.get('retry-after') ?? 1);
    await delay(Math.min(Number.isFinite(seconds) ? seconds : 1, 2) * 1000);
  }
}
