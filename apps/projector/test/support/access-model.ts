import {
  editorPrincipal,
  grantsOf,
  legacyAccess,
  memberPrincipal,
  samePrincipal,
  sharesReaching,
  userPrincipal,
  type ObjectAccess,
  type RecordedEvent,
  type Share,
  type Visibility,
} from '@portal/domain';

/** What the read model must hold for one object, computed in TypeScript with the domain's `grantsOf`. */
export interface ExpectedAccess {
  readonly orgId: string | null;
  readonly visibility: Visibility;
  readonly createdBy: string | null;
  readonly shares: readonly Share[];
  readonly effectiveVisibility: Visibility;
  readonly readPrincipals: readonly string[];
  readonly shareReaders: readonly string[];
  readonly shareEditors: readonly string[];
}

const sorted = (principals: Iterable<string>): string[] => [...new Set(principals)].sort();

/** The expected access of the last object of `path` (root level first). */
export function expectedAccessOf(path: readonly ObjectAccess[]): ExpectedAccess {
  const object = path.at(-1);
  if (!object) throw new Error('a path has at least the object itself');
  const grants = grantsOf(path);
  const shares = sharesReaching(path);
  return {
    orgId: object.orgId,
    visibility: object.visibility,
    createdBy: object.createdBy,
    shares: object.shares,
    effectiveVisibility: grants.effectiveVisibility,
    readPrincipals: grants.read,
    shareReaders: sorted(
      shares.map(({ principal }) =>
        principal.type === 'user' ? userPrincipal(principal.id) : memberPrincipal(principal.id),
      ),
    ),
    shareEditors: sorted(
      shares
        .filter((share) => share.permission === 'editor')
        .map(({ principal }) =>
          principal.type === 'user' ? userPrincipal(principal.id) : editorPrincipal(principal.id),
        ),
    ),
  };
}

interface ModelObject {
  parentId: string | null;
  access: ObjectAccess;
}

interface CreateData {
  id: string;
  parentId: string | null;
  orgId?: string | null;
  visibility?: Visibility;
  createdBy?: string | null;
}

/**
 * Each object's parent and access facts folded from its events, independently of the projector: the
 * expectation a read model built from the same events must meet. Deletes change no access and are
 * ignored; a create recorded without access facts is a legacy one.
 */
export class AccessModel {
  private readonly objects = new Map<string, ModelObject>();

  apply(events: readonly Pick<RecordedEvent, 'type' | 'data'>[]): this {
    for (const event of events) this.applyOne(event);
    return this;
  }

  private applyOne(event: Pick<RecordedEvent, 'type' | 'data'>): void {
    switch (event.type) {
      case 'CatalogCreated':
      case 'CollectionCreated':
      case 'ItemUploadStarted':
      case 'ItemRegistered': {
        const data = event.data as CreateData;
        this.objects.set(data.id, {
          parentId: data.parentId,
          access: {
            orgId: data.orgId ?? legacyAccess.orgId,
            visibility: data.visibility ?? legacyAccess.visibility,
            createdBy: data.createdBy ?? legacyAccess.createdBy,
            shares: [],
          },
        });
        return;
      }
      case 'PortalObjectMoved': {
        const data = event.data as { id: string; toParentId: string | null };
        this.object(data.id).parentId = data.toParentId;
        return;
      }
      case 'VisibilityChanged': {
        const data = event.data as { id: string; to: Visibility };
        const object = this.object(data.id);
        object.access = { ...object.access, visibility: data.to };
        return;
      }
      case 'ObjectShared': {
        const data = event.data as { id: string } & Share;
        const object = this.object(data.id);
        const share: Share = { principal: data.principal, permission: data.permission };
        const { shares } = object.access;
        const replaced = shares.some((given) => samePrincipal(given.principal, share.principal));
        object.access = {
          ...object.access,
          shares: replaced
            ? shares.map((given) => (samePrincipal(given.principal, share.principal) ? share : given))
            : [...shares, share],
        };
        return;
      }
      case 'ObjectUnshared': {
        const data = event.data as { id: string } & Share;
        const object = this.object(data.id);
        object.access = {
          ...object.access,
          shares: object.access.shares.filter((given) => !samePrincipal(given.principal, data.principal)),
        };
        return;
      }
      default:
        return;
    }
  }

  private object(id: string): ModelObject {
    const found = this.objects.get(id);
    if (!found) throw new Error(`event on ${id} before its create`);
    return found;
  }

  ids(): string[] {
    return [...this.objects.keys()];
  }

  /** The expectation for one object, from its path (root level first). */
  expected(id: string): ExpectedAccess {
    const path: ObjectAccess[] = [];
    for (let at: string | null = id; at !== null;) {
      const object = this.object(at);
      path.unshift(object.access);
      at = object.parentId;
    }
    return expectedAccessOf(path);
  }
}
