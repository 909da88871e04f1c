import type { Breadcrumb, BrowserNode, ChangeEvent } from '@portal/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  breadcrumbs,
  browserNode,
  browserRoot,
  children,
  lookupPath,
  type ChildrenQuery,
} from '../api/endpoints.js';
import { Breadcrumbs } from '../components/breadcrumbs.js';
import { ErrorMessage } from '../components/error-message.js';
import { ChildrenControls } from '../components/children-controls.js';
import { Link } from '../components/link.js';
import { ObjectPanel } from '../components/object-panel.js';
import { CreateContainerForm, type ContainerKind } from '../components/object-form.js';
import { UploadForm } from '../components/upload-form.js';
import { KindBadge, NodeRow, StatusBadge } from '../components/node-row.js';
import { VirtualList } from '../components/virtual-list.js';
import { childrenQueryOf, isFiltered, searchOf } from '../lib/children-query.js';
import { locationStore, navigate } from '../lib/navigation.js';
import { nodeComparator } from '../lib/node-order.js';
import { pagerOf, upsert, wantsMore, withPage, without, type Pager } from '../lib/pager.js';
import { onChanges, onReset } from '../live/feed.js';
import { belongsIn, planLiveUpdate } from '../live/live-plan.js';
import { browseHref, nodeHref } from '../lib/routes.js';
import { useStore } from '../lib/store.js';
import type { SessionState } from '../session.js';

/** The first page is what a view shows at once; later pages are larger, fewer requests while scrolling. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 250;
const ROW_HEIGHT = 44;
const PREFETCH_ROWS = 60;

export type BrowseTarget = { readonly slugs: readonly string[] } | { readonly id: string };

interface View {
  /** `null` at the root level. */
  readonly node: BrowserNode | null;
  readonly crumbs: readonly Breadcrumb[];
  readonly pager: Pager<BrowserNode>;
}

export type Tab = 'contents' | 'details' | 'history';

/** The tab of a node's page (`?tab=`); an item has no contents, so it opens on its details. */
function tabOf(search: string, node: BrowserNode | null): Tab {
  const asked = new URLSearchParams(search).get('tab');
  if (asked === 'details' || asked === 'history') return asked;
  return node?.kind === 'item' ? 'details' : 'contents';
}

/** What may be created inside: a collection holds items only; the root level no items. */
function allowedChildren(node: BrowserNode | null): NewKind[] {
  if (node === null) return ['catalog', 'collection'];
  if (node.kind === 'catalog') return ['catalog', 'collection', 'item'];
  if (node.kind === 'collection') return ['item'];
  return [];
}

type NewKind = ContainerKind | 'item';

const EDITOR_ROLES: ReadonlySet<string> = new Set(['editor', 'admin', 'owner']);

function targetKey(target: BrowseTarget): string {
  return 'id' in target ? `id:${target.id}` : `path:${target.slugs.join('/')}`;
}

async function loadView(target: BrowseTarget, query: ChildrenQuery, signal: AbortSignal): Promise<View> {
  if ('slugs' in target && target.slugs.length === 0) {
    return { node: null, crumbs: [], pager: pagerOf(await browserRoot(FIRST_PAGE, undefined, signal)) };
  }
  const page =
    'id' in target
      ? await children(target.id, query, FIRST_PAGE, undefined, signal)
      : await lookupPath(target.slugs, query, FIRST_PAGE, signal);
  const trail = await breadcrumbs(page.node.id);
  return { node: page.node, crumbs: trail.items, pager: pagerOf(page) };
}

/**
 * The tree explorer: the root level, or a node found by its slug path (or id) with its children in
 * a virtualized list whose next keyset pages are fetched while scrolling.
 */
export function BrowsePage(props: { readonly target: BrowseTarget; readonly session: SessionState }) {
  const location = useStore(locationStore);
  const query = useMemo(() => childrenQueryOf(location.search), [location.search]);
  const queryKey = searchOf(query);
  const organizationId = props.session.view?.activeOrganization?.id ?? null;
  const key = targetKey(props.target);
  const [view, setView] = useState<View | null>(null);
  const [version, setVersion] = useState(0);
  // Moved by a feed reset or a burst of changes: the whole view is read again.
  const [reloads, setReloads] = useState(0);
  const [creating, setCreating] = useState<NewKind | null>(null);
  // Offered to editors and up of the active organization; the API decides per object and says why not.
  const canEdit = EDITOR_ROLES.has(props.session.view?.activeOrganization?.role ?? '');
  const [error, setError] = useState<unknown>(null);
  // Set when a page's data arrives; the list's next render is measured from it.
  const arrivedAt = useRef<number | null>(null);
  const generation = useRef(0);

  useEffect(() => {
    const abort = new AbortController();
    generation.current += 1;
    setError(null);
    setView(null);
    setCreating(null);
    loadView(props.target, query, abort.signal)
      .then((loaded) => {
        arrivedAt.current = performance.now();
        setView(loaded);
      })
      .catch((caught: unknown) => {
        if (!abort.signal.aborted) setError(caught);
      });
    return () => {
      abort.abort();
    };
    // The target and query are compared by value (their keys), not by identity.
  }, [key, queryKey, organizationId, reloads]);

  const loadMore = useCallback(
    (lastVisibleIndex: number) => {
      if (!view || !wantsMore(view.pager, lastVisibleIndex, PREFETCH_ROWS)) return;
      const cursor = view.pager.next ?? undefined;
      const started = generation.current;
      setView({ ...view, pager: { ...view.pager, loading: true } });
      const page = view.node
        ? children(view.node.id, query, NEXT_PAGE, cursor)
        : browserRoot(NEXT_PAGE, cursor);
      page
        .then((next) => {
          if (generation.current !== started) return;
          arrivedAt.current = performance.now();
          setView((current) => (current ? { ...current, pager: withPage(current.pager, next) } : current));
        })
        .catch((caught: unknown) => {
          if (generation.current !== started) return;
          setView((current) =>
            current ? { ...current, pager: { ...current.pager, loading: false, error: caught } } : current,
          );
        });
    },
    [view, query],
  );

  // The node as the list header shows it (status, child count), read again after a change elsewhere.
  const nodeId = view?.node?.id ?? null;
  const refreshNode = useCallback(() => {
    if (nodeId === null) return;
    browserNode(nodeId)
      .then((fresh) => {
        setView((current) => (current?.node?.id === fresh.id ? { ...current, node: fresh } : current));
      })
      .catch(setError);
  }, [nodeId]);
  const refreshNodeRef = useRef(refreshNode);
  refreshNodeRef.current = refreshNode;

  // Live updates (GET /api/v1/events): rows change, arrive and leave without a reload.
  const viewRef = useRef(view);
  viewRef.current = view;
  useEffect(() => {
    const apply = async (changes: readonly ChangeEvent[]) => {
      const current = viewRef.current;
      if (!current) return;
      const shown = new Set(current.pager.items.map((item) => item.id));
      const plan = planLiveUpdate(changes, current.node, shown);
      if (plan.reload) {
        setReloads((count) => count + 1);
        return;
      }
      if (plan.nodeDeleted) {
        setError(new Error('This object has just been deleted.'));
        return;
      }
      const parentId = current.node?.id ?? null;
      const listQuery = current.node ? query : null;
      const compare = current.node ? nodeComparator(query.sort, query.order) : nodeComparator('kind', 'asc');
      // An object the caller can no longer read (deleted, moved out of sight) answers 404: it leaves.
      const looked = await Promise.all(
        plan.lookUp.map((id) =>
          browserNode(id).then(
            (found) => ({ id, found }),
            () => ({ id, found: null }),
          ),
        ),
      );
      setView((latest) => {
        if (!latest || (latest.node?.id ?? null) !== parentId) return latest;
        let pager = latest.pager;
        for (const id of plan.remove) pager = without(pager, id);
        for (const { id, found } of looked) {
          pager =
            found && belongsIn(found, parentId, listQuery)
              ? upsert(pager, found, compare)
              : without(pager, id);
        }
        return pager === latest.pager ? latest : { ...latest, pager };
      });
      if (plan.refreshNode) {
        refreshNodeRef.current();
        setVersion((count) => count + 1);
      }
    };
    const offChanges = onChanges((changes) => {
      void apply(changes);
    });
    const offReset = onReset(() => {
      setReloads((count) => count + 1);
    });
    return () => {
      offChanges();
      offReset();
    };
  }, [query]);

  const rendered = useCallback((count: number) => {
    if (arrivedAt.current === null) return;
    const start = arrivedAt.current;
    arrivedAt.current = null;
    performance.measure('portal:children-render', { start, end: performance.now(), detail: { count } });
  }, []);

  if (error) {
    return (
      <section>
        <h1>Browse</h1>
        <ErrorMessage error={error} />
      </section>
    );
  }
  if (!view) return <p aria-busy="true">Loading…</p>;
  const { node, crumbs, pager } = view;
  const tab = tabOf(location.search, node);
  const here = location.pathname;

  /** After a create or an edit: the node's page at its (possibly new) slug path. */
  const openNode = async (id: string, suffix = '') => {
    navigate(`${nodeHref(await browserNode(id))}${suffix}`);
  };

  return (
    <section class="browse" data-testid="browse">
      {node ? <Breadcrumbs crumbs={crumbs} /> : null}
      <div class="node-header">
        <h1 data-testid="node-title">{node ? node.title : 'Root level'}</h1>
        {node ? (
          <p class="meta">
            <KindBadge kind={node.kind} /> <StatusBadge status={node.status} />{' '}
            {node.kind === 'item' ? null : (
              <span data-testid="child-count">
                {node.childCount.toLocaleString()} {node.childCount === 1 ? 'child' : 'children'}
              </span>
            )}
          </p>
        ) : null}
      </div>
      {node ? (
        <nav class="tabs" aria-label="Views of this object">
          {node.kind === 'item' ? null : (
            <Link href={here} current={tab === 'contents'}>
              Contents
            </Link>
          )}
          <Link href={`${here}?tab=details`} current={tab === 'details'} testId="tab-details">
            Details
          </Link>
          <Link href={`${here}?tab=history`} current={tab === 'history'} testId="tab-history">
            History
          </Link>
        </nav>
      ) : null}
      {node && tab !== 'contents' ? (
        <ObjectPanel
          node={node}
          tab={tab}
          version={version}
          canEdit={canEdit}
          onChanged={() => {
            setVersion(version + 1);
            void openNode(node.id, '?tab=details').catch(setError);
          }}
          onDeleted={() => {
            navigate(browseHref(crumbs.at(-2)?.path ?? null));
          }}
          onRefreshed={refreshNode}
        />
      ) : creating === 'item' && node ? (
        <UploadForm
          parentId={node.id}
          onCancel={() => {
            setCreating(null);
          }}
          onStarted={(id) => {
            setCreating(null);
            void openNode(id).catch(setError);
          }}
        />
      ) : creating && creating !== 'item' ? (
        <CreateContainerForm
          kind={creating}
          parentId={node?.id ?? null}
          onCancel={() => {
            setCreating(null);
          }}
          onCreated={(id) => {
            setCreating(null);
            void openNode(id).catch(setError);
          }}
        />
      ) : (
        <>
          {canEdit ? (
            <div class="actions" aria-label="Create">
              {allowedChildren(node).map((kind) => (
                <button
                  key={kind}
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setCreating(kind);
                  }}
                >
                  New {kind}
                </button>
              ))}
            </div>
          ) : null}
          {node ? (
            <ChildrenControls
              query={query}
              onChange={(next) => {
                navigate(`${here}${searchOf(next)}`, { replace: true });
              }}
            />
          ) : null}
          {pager.items.length === 0 && pager.next === null ? (
            <p class="empty" data-testid="empty">
              {isFiltered(query) ? 'Nothing here matches the filters.' : 'Nothing here yet.'}
            </p>
          ) : (
            <VirtualList
              items={pager.items}
              rowHeight={ROW_HEIGHT}
              keyOf={(child) => child.id}
              renderRow={(child) => <NodeRow node={child} />}
              onNearEnd={loadMore}
              more={pager.next !== null}
              label={node ? `Children of ${node.title}` : 'Root level'}
              onRendered={rendered}
            />
          )}
          {pager.error ? (
            <div class="row-error">
              <ErrorMessage error={pager.error} />
              <button
                type="button"
                onClick={() => {
                  setView({ ...view, pager: { ...pager, error: null } });
                }}
              >
                Retry
              </button>
            </div>
          ) : null}
          <p class="count-line" data-testid="loaded-count">
            {pager.items.length.toLocaleString()} shown{pager.next === null ? '' : ', more below'}
          </p>
        </>
      )}
    </section>
  );
}
