import type { EventStore, PortalKind } from '@portal/domain';
import { BoundedMap } from '@portal/platform';
import { loadObject } from './object-repository.js';

/**
 * The organization of an object by id. Objects never change organization, so an answer once read is
 * kept (a bounded number of them): a pipeline creating thousands of objects under one parent reads
 * the parent's organization once.
 */
export class OrganizationDirectory {
  private readonly known: BoundedMap<string, string | null>;

  constructor(capacity = 10_000) {
    this.known = new BoundedMap(capacity);
  }

  /** `undefined` when no catalog or collection has this id (yet). */
  async organizationOf(store: EventStore, id: string): Promise<string | null | undefined> {
    const cached = this.known.get(id);
    if (cached !== undefined || this.known.has(id)) return cached;
    const object = await loadObject(store, id, containerKinds);
    if (!object) return undefined;
    const { orgId } = object.state.access;
    this.known.set(id, orgId);
    return orgId;
  }
}

const containerKinds: readonly PortalKind[] = ['catalog', 'collection'];
