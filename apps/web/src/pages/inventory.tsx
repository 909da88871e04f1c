import type { InventoryEntry, InventoryTotals } from '@portal/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { inventory } from '../api/endpoints.js';
import { BoxForm } from '../components/box-form.js';
import { ChildrenControls } from '../components/children-controls.js';
import { ErrorMessage } from '../components/error-message.js';
import { Link } from '../components/link.js';
import { KindBadge, StatusBadge } from '../components/node-row.js';
import { VirtualList } from '../components/virtual-list.js';
import { inventoryQueryOf, inventorySearchOf } from '../lib/inventory-query.js';
import { locationStore, navigate } from '../lib/navigation.js';
import { pagerOf, wantsMore, withPage, type Pager } from '../lib/pager.js';
import { APP_BASE } from '../lib/routes.js';
import { useStore } from '../lib/store.js';
import { boxParam, type Box } from '../map/bbox.js';
import type { SessionState } from '../session.js';
import { formatBytes } from '../upload/plan.js';

const PAGE = 200;
const ROW_HEIGHT = 44;
const SEARCH_DELAY_MS = 300;

function Totals(props: { readonly totals: InventoryTotals }) {
  const { totals } = props;
  const nonZero = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${count.toLocaleString()} ${name}`)
      .join(', ');
  return (
    <dl class="totals" data-testid="totals">
      <dt>Objects</dt>
      <dd data-testid="total-objects">{totals.objects.toLocaleString()}</dd>
      <dt>By kind</dt>
      <dd data-testid="total-kinds">{nonZero(totals.byKind) || '—'}</dd>
      <dt>By status</dt>
      <dd data-testid="total-statuses">{nonZero(totals.byStatus) || '—'}</dd>
      <dt>Files</dt>
      <dd data-testid="total-bytes">{formatBytes(totals.assetBytes)}</dd>
    </dl>
  );
}

function InventoryRow(props: { readonly entry: InventoryEntry }) {
  const { entry } = props;
  return (
    <Link href={`${APP_BASE}/nodes/${entry.id}`} class="node-row" testId="inventory-row">
      <KindBadge kind={entry.kind} />
      <span class="title">{entry.title}</span>
      {entry.kind === 'item' ? <StatusBadge status={entry.status} /> : null}
      <span class="count">{entry.assetBytes > 0 ? formatBytes(entry.assetBytes) : ''}</span>
    </Link>
  );
}

/**
 * The area filter: a box typed in (or brought from the map), shown with a way back to the map and a
 * way to drop it. Catalogs and items without a place have no footprint, so a box leaves them out.
 */
function BoxFilter(props: { readonly box: Box | null; readonly onChange: (box: Box | null) => void }) {
  const { box } = props;
  return (
    <div class="box-filter">
      <BoxForm box={box} onChoose={props.onChange} submitLabel="Filter by box" testId="inventory-box-form" />
      {box ? (
        <p class="actions" data-testid="inventory-box">
          <span>
            Only what lies in <code data-testid="inventory-bbox">{boxParam(box)}</code> (objects without a
            place are left out)
          </span>
          <Link href={`${APP_BASE}/map?bbox=${boxParam(box)}`} testId="inventory-map-link">
            The box on the map
          </Link>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              props.onChange(null);
            }}
          >
            Any place
          </button>
        </p>
      ) : null}
    </div>
  );
}

/**
 * Every object the caller may read as one flat list: text search, kind and status filters, a box, the
 * order, and totals of everything matching (not only the page). The query lives in the URL.
 */
export function InventoryPage(props: { readonly session: SessionState }) {
  const location = useStore(locationStore);
  const query = useMemo(() => inventoryQueryOf(location.search), [location.search]);
  const [text, setText] = useState(query.q);
  const [pager, setPager] = useState<Pager<InventoryEntry> | null>(null);
  const [totals, setTotals] = useState<InventoryTotals | null>(null);
  const [error, setError] = useState<unknown>(null);
  const generation = useRef(0);
  const organizationId = props.session.view?.activeOrganization?.id ?? null;
  const key = inventorySearchOf(query);

  useEffect(() => {
    generation.current += 1;
    const mine = generation.current;
    setError(null);
    inventory(query, PAGE)
      .then((page) => {
        if (generation.current !== mine) return;
        setPager(pagerOf(page));
        setTotals(page.totals);
      })
      .catch((caught: unknown) => {
        if (generation.current === mine) setError(caught);
      });
    // The query is compared by its URL form.
  }, [key, organizationId]);

  // Typing searches after a pause, and the URL follows (so a search can be shared).
  useEffect(() => {
    if (text === query.q) return;
    const timer = setTimeout(() => {
      navigate(`${APP_BASE}/inventory${inventorySearchOf({ ...query, q: text })}`, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [text, query]);

  const loadMore = useCallback(
    (lastVisible: number) => {
      if (!pager || !wantsMore(pager, lastVisible, 60)) return;
      const mine = generation.current;
      setPager({ ...pager, loading: true });
      inventory(query, PAGE, pager.next ?? undefined)
        .then((page) => {
          if (generation.current === mine)
            setPager((current) => (current ? withPage(current, page) : current));
        })
        .catch((caught: unknown) => {
          if (generation.current === mine)
            setPager((current) => (current ? { ...current, loading: false, error: caught } : current));
        });
    },
    [pager, query],
  );

  return (
    <section class="inventory" data-testid="inventory">
      <h1>Inventory</h1>
      <div class="field search">
        <label for="inventory-search">Search titles and descriptions</label>
        <input
          id="inventory-search"
          type="search"
          value={text}
          maxLength={200}
          onInput={(event) => {
            setText(event.currentTarget.value);
          }}
        />
      </div>
      <ChildrenControls
        query={query}
        onChange={(next) => {
          navigate(`${APP_BASE}/inventory${inventorySearchOf({ ...query, ...next })}`, { replace: true });
        }}
      />
      <BoxFilter
        box={query.bbox}
        onChange={(bbox) => {
          navigate(`${APP_BASE}/inventory${inventorySearchOf({ ...query, bbox })}`, { replace: true });
        }}
      />
      <ErrorMessage error={error} />
      {totals ? <Totals totals={totals} /> : null}
      {pager === null ? (
        error ? null : (
          <p aria-busy="true">Loading…</p>
        )
      ) : pager.items.length === 0 ? (
        <p class="empty" data-testid="empty">
          Nothing matches.
        </p>
      ) : (
        <VirtualList
          items={pager.items}
          rowHeight={ROW_HEIGHT}
          keyOf={(entry) => entry.id}
          renderRow={(entry) => <InventoryRow entry={entry} />}
          onNearEnd={loadMore}
          more={pager.next !== null}
          label="Inventory"
        />
      )}
      {pager?.error ? <ErrorMessage error={pager.error} /> : null}
    </section>
  );
}
