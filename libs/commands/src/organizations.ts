import type { EventStore, PortalKind } from '@portal/domain';
import { loadObject } from './object-repository.js';

/**
 * The organization of an object by id. Objects never change organization, so an answer once read is
 * kept (a bounded number of them): a pipeline creating thousands of objects under one parent reads
 * the parent's organization once.
 */
export class OrganizationDirectory {
  private readonly known = new Map<string, string | null>();

  constructor(private readonly capacity = 10_000) {}

  /** `undefined` when no catalog or collection has this id (yet). */
  async organizationOf(store: EventStore, id: string): Promise<string | null | undefined> {
    const cached = this.known.get(id);
    if (cached !== undefined || this.known.has(id)) return cached;
    const object = await loadObject(store, id, containerKinds);
    if (!object) return undefined;
    const { orgId } = object.state.access;
    if (this.known.size >= this.capacity) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    this.known.set(id, orgId);
    return orgId;
  }
}

const containerKinds: readonly PortalKind[] = ['catalog', 'collection'];
