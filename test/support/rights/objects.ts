import { randomUUID } from 'node:crypto';
import { call, waitForPosition, type JsonResponse } from '../http.js';
import type { People } from './people.js';
import { people, type NodeSpec, type PersonKey, type ShareSpec, type Visibility } from './vocabulary.js';

/**
 * Portal objects of the rights table, made over HTTP as their creators would. Each carries a secret in
 * its title (so in its slug and paths) and its description, so a test can tell whether an answer
 * leaked anything of it.
 */
export interface Made {
  readonly id: string;
  readonly secret: string;
}

const PREFER_ASYNC = { prefer: 'respond-async' };
/** How long a command answered 503 "retry" is retried. */
const BUSY_DEADLINE_MS = 30_000;
/** The 503s that mean "nothing was done, retry after `Retry-After`". */
const RETRYABLE = ['NOT_CAUGHT_UP', 'BUSY'];

/**
 * Sends a request again while it answers 503 with one of the `RETRYABLE` codes, as a client would:
 * moves and deletes of one organization take turns (its structure stream) and wait for the read model
 * of the tree, and say so when a busy machine keeps them waiting too long. Any other answer is
 * returned as it is.
 */
export async function retryWhileBusy<T>(send: () => Promise<JsonResponse<T>>): Promise<JsonResponse<T>> {
  const deadline = Date.now() + BUSY_DEADLINE_MS;
  for (;;) {
    const answer = await send();
    const code = (answer.body as { code?: unknown } | null)?.code;
    const busy = answer.status === 503 && typeof code === 'string' && RETRYABLE.includes(code);
    if (!busy || Date.now() > deadline) return answer;
    const seconds = Number(answer.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, 1000 * (Number.isFinite(seconds) ? seconds : 1)));
  }
}

/**
 * Makes objects with `Prefer: respond-async`: each command answers once appended (202) instead of
 * waiting for its projection, so thousands of them do not each wait for the projector, which catches
 * up in batches. `settled` waits once for the newest of them; a later command reads the event store,
 * so it needs no wait to build on an earlier one.
 */
export class ObjectMaker {
  private newest: { readonly commit: bigint; readonly prepare: bigint; readonly text: string } | null = null;

  constructor(private readonly crowd: People) {}

  async createCatalog(
    creator: PersonKey,
    fields: { readonly parentId: string | null; readonly visibility: Visibility; readonly name: string },
  ): Promise<Made> {
    const secret = `secret-${randomUUID()}`;
    const answer = await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', {
      headers: { ...this.crowd.users[creator].headers, ...PREFER_ASYNC },
      body: {
        // The secret first: it is in the slug too, whole (slugs keep 80 characters); titles end at 140.
        title: `${secret} ${fields.name}`.slice(0, 140),
        description: `${secret} (not for everyone)`,
        links: [],
        visibility: fields.visibility,
        ...(fields.parentId === null ? {} : { parentId: fields.parentId }),
      },
    });
    this.accept(answer, `${creator} creates ${fields.name}`);
    return { id: answer.body.portalItemId, secret };
  }

  /** Shared by `sharer`, who must manage the object (an admin of its organization). */
  async share(sharer: PersonKey, id: string, shares: readonly ShareSpec[]): Promise<void> {
    for (const share of shares) {
      const answer = await call('POST', `/api/v1/portal/items/${id}/shares`, {
        headers: { ...this.crowd.users[sharer].headers, ...PREFER_ASYNC },
        body: { principal: this.crowd.principalOf(share.to), permission: share.permission },
      });
      this.accept(answer, `${sharer} shares ${id}`);
    }
  }

  async move(mover: PersonKey, id: string, parentId: string | null): Promise<void> {
    const answer = await retryWhileBusy(() =>
      call('POST', `/api/v1/portal/items/${id}/move`, {
        headers: { ...this.crowd.users[mover].headers, ...PREFER_ASYNC },
        body: { parentId },
      }),
    );
    this.accept(answer, `${mover} moves ${id}`);
  }

  /** The objects of a move or delete scenario, top down; returns each one's id and secret by name. */
  async tree(nodes: readonly NodeSpec[], label: string): Promise<Record<string, Made>> {
    const made: Record<string, Made> = {};
    for (const node of nodes) {
      const parentId = node.parent === undefined ? null : (made[node.parent]?.id ?? null);
      const object = await this.createCatalog(node.creator, {
        parentId: node.placedBy === undefined ? parentId : null,
        visibility: node.visibility,
        name: `${label} ${node.name}`,
      });
      if (node.placedBy !== undefined) await this.move(node.placedBy, object.id, parentId);
      await this.share(sharerOf(node, nodes), object.id, node.shares ?? []);
      made[node.name] = object;
    }
    return made;
  }

  /** Waits until the read models hold every object made so far. */
  async settled(): Promise<void> {
    if (this.newest !== null) await waitForPosition(this.newest.text);
  }

  private accept(answer: JsonResponse, what: string): void {
    const position = answer.headers.get('x-event-position');
    if (![200, 201, 202].includes(answer.status) || position === null) {
      throw new Error(`${what}: answered ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const [commit = '', prepare = ''] = position.split('.');
    const next = { commit: BigInt(commit), prepare: BigInt(prepare), text: position };
    const { newest } = this;
    if (
      newest === null ||
      next.commit > newest.commit ||
      (next.commit === newest.commit && next.prepare > newest.prepare)
    ) {
      this.newest = next;
    }
  }
}

/** Who shares an object of a scenario: the owner in A; elsewhere whoever made the root (they own it). */
function sharerOf(node: NodeSpec, nodes: readonly NodeSpec[]): PersonKey {
  let root = node;
  while (root.parent !== undefined) {
    const parent = nodes.find((candidate) => candidate.name === root.parent);
    if (!parent) throw new Error(`${root.name}: no parent ${root.parent}`);
    root = parent;
  }
  return people[root.creator].active === 'A' ? 'owner' : root.creator;
}
