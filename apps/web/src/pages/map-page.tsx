import { stacItemCollectionSchema, stacItemSchema, type StacItem } from '@portal/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { queryString, request } from '../api/client.js';
import { BoxForm } from '../components/box-form.js';
import { ErrorMessage } from '../components/error-message.js';
import { Link } from '../components/link.js';
import { locationStore, navigate } from '../lib/navigation.js';
import { APP_BASE } from '../lib/routes.js';
import { useStore } from '../lib/store.js';
import { boxOfSelection, boxParam, parseBoxParam, type Box, type Invert } from '../map/bbox.js';
import { mapColorsOf } from '../map/map-colors.js';
import { portalIdOf } from '../map/portal-id.js';
import type { MapFeature } from '../map/world-map.js';
import type { SessionState } from '../session.js';

/** The most items one map shows: the STAC search's largest page. */
const MAP_LIMIT = 1000;
const SEARCH = '/api/v1/stac/search';

/** A rectangle being dragged, in CSS pixels of the canvas. */
interface Drag {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

function pointIn(element: HTMLElement, event: PointerEvent): { x: number; y: number } {
  const rect = element.getBoundingClientRect();
  return {
    x: Math.min(Math.max(event.clientX - rect.left, 0), rect.width),
    y: Math.min(Math.max(event.clientY - rect.top, 0), rect.height),
  };
}

/**
 * The items the caller may read, where they are: their footprints (STAC search) over an offline
 * basemap. Dragging a rectangle on the map asks the search for the items in that box (`?bbox=` in the
 * page's URL, so the view can be shared). The renderer and the basemap load only when this page opens.
 */
export function MapPage(props: { readonly session: SessionState }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const invert = useRef<Invert | null>(null);
  const [items, setItems] = useState<readonly StacItem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [drawn, setDrawn] = useState(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const location = useStore(locationStore);
  const box = useMemo(
    () => parseBoxParam(new URLSearchParams(location.search).get('bbox')),
    [location.search],
  );
  const boxText = box ? boxParam(box) : null;
  const organizationId = props.session.view?.activeOrganization?.id ?? null;
  const searchQuery = { limit: MAP_LIMIT, bbox: boxText ?? undefined };

  useEffect(() => {
    setItems(null);
    setError(null);
    let live = true;
    request(stacItemCollectionSchema, 'GET', SEARCH, {
      query: { limit: MAP_LIMIT, bbox: boxText ?? undefined },
    })
      .then((collection) => {
        if (!live) return;
        // Without `fields` every feature is a whole item; the schema also admits partial ones.
        setItems(
          collection.features.flatMap((feature) => {
            const item = stacItemSchema.safeParse(feature);
            return item.success ? [item.data] : [];
          }),
        );
      })
      .catch((caught: unknown) => {
        if (live) setError(caught);
      });
    return () => {
      live = false;
    };
  }, [organizationId, boxText]);

  useEffect(() => {
    const element = canvas.current;
    if (!element || items === null) return;
    let cancelled = false;
    const features: MapFeature[] = items.flatMap((item) =>
      item.geometry
        ? [{ id: portalIdOf(item), geometry: item.geometry as unknown as MapFeature['geometry'] }]
        : [],
    );
    const draw = async () => {
      const { drawWorld } = await import('../map/world-map.js');
      if (cancelled) return;
      invert.current = drawWorld(element, features, mapColorsOf(element), undefined, box ?? undefined);
      setDrawn(true);
    };
    draw().catch(setError);
    const redraw = () => {
      void draw();
    };
    window.addEventListener('resize', redraw);
    return () => {
      cancelled = true;
      window.removeEventListener('resize', redraw);
    };
    // `box` changes with `boxText`, which reloads `items`: the map is drawn again with the items.
  }, [items]);

  function choose(chosen: Box | null) {
    navigate(`${APP_BASE}/map${chosen ? `?bbox=${boxParam(chosen)}` : ''}`, { replace: true });
  }

  const stage = {
    onPointerDown: (event: PointerEvent) => {
      const element = canvas.current;
      if (!element || event.button !== 0) return;
      (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
      const { x, y } = pointIn(element, event);
      setDrag({ x0: x, y0: y, x1: x, y1: y });
    },
    onPointerMove: (event: PointerEvent) => {
      const element = canvas.current;
      if (!element || drag === null) return;
      const { x, y } = pointIn(element, event);
      setDrag({ ...drag, x1: x, y1: y });
    },
    onPointerUp: (event: PointerEvent) => {
      const element = canvas.current;
      if (!element || drag === null) return;
      const { x, y } = pointIn(element, event);
      setDrag(null);
      // A click (a few pixels at most) is not a selection.
      if (Math.abs(x - drag.x0) < 4 || Math.abs(y - drag.y0) < 4 || invert.current === null) return;
      const chosen = boxOfSelection(invert.current, drag.x0, drag.y0, x, y);
      if (chosen) choose(chosen);
    },
  };

  return (
    <section class="map" data-testid="map">
      <h1>Map</h1>
      <p class="hint">Drag a rectangle on the map to show only the items in it.</p>
      <ErrorMessage error={error} />
      <div class="map-stage" {...stage}>
        <canvas
          ref={canvas}
          class="world"
          role="img"
          aria-label={`World map with the footprints of ${items?.length ?? 0} items`}
          data-testid="map-canvas"
          data-drawn={drawn ? 'true' : 'false'}
        />
        {drag ? (
          <div
            class="map-selection"
            data-testid="map-selection"
            style={{
              left: `${Math.min(drag.x0, drag.x1)}px`,
              top: `${Math.min(drag.y0, drag.y1)}px`,
              width: `${Math.abs(drag.x1 - drag.x0)}px`,
              height: `${Math.abs(drag.y1 - drag.y0)}px`,
            }}
          />
        ) : null}
      </div>
      {/* The same box typed in, for keyboards and for exact numbers. */}
      <BoxForm box={box} onChoose={choose} submitLabel="Show the box" testId="map-box-form" />
      {box ? (
        <p class="actions" data-testid="map-box">
          <span>
            In the box <code data-testid="map-bbox">{boxText}</code> (west, south, east, north)
          </span>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              choose(null);
            }}
          >
            Show everywhere
          </button>
          <Link href={`${APP_BASE}/inventory?bbox=${boxText}`} testId="map-inventory-link">
            Everything in this box in the inventory
          </Link>
          <a href={`${SEARCH}${queryString(searchQuery)}`} data-testid="map-search-link">
            This search in the STAC API
          </a>
        </p>
      ) : null}
      {items === null ? (
        <p aria-busy="true">Loading…</p>
      ) : items.length === 0 ? (
        <p class="empty" data-testid="map-empty">
          {box ? 'No items in this box.' : 'No items with a place yet.'}
        </p>
      ) : (
        <>
          <p data-testid="map-count">
            {items.length.toLocaleString()} item{items.length === 1 ? '' : 's'}
            {items.length === MAP_LIMIT ? ' (the first 1,000)' : ''}
          </p>
          <ul class="map-items">
            {items.map((item) => (
              <li key={portalIdOf(item)}>
                <Link href={`${APP_BASE}/nodes/${portalIdOf(item)}`} testId="map-item">
                  {typeof item.properties['title'] === 'string' ? item.properties['title'] : item.id}
                </Link>
                {item.bbox ? (
                  <span class="hint"> {item.bbox.map((value) => value.toFixed(2)).join(', ')}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
