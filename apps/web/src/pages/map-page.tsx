import { stacItemCollectionSchema, stacItemSchema, type StacItem } from '@portal/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api/client.js';
import { ErrorMessage } from '../components/error-message.js';
import { Link } from '../components/link.js';
import { APP_BASE } from '../lib/routes.js';
import type { SessionState } from '../session.js';
import type { MapFeature } from '../map/world-map.js';

/** The most items one map shows: the STAC search's largest page. */
const MAP_LIMIT = 1000;

function colorsOf(element: HTMLElement) {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    water: read('--panel', '#f4f6f8'),
    land: read('--line', '#d9dee3'),
    lines: read('--muted', '#5b6670'),
    feature: read('--accent', '#0b5cad'),
  };
}

/**
 * The items the caller may read, where they are: their footprints (STAC search) over an offline
 * basemap. The renderer and the basemap load only when this page is opened.
 */
export function MapPage(props: { readonly session: SessionState }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [items, setItems] = useState<readonly StacItem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [drawn, setDrawn] = useState(false);
  const organizationId = props.session.view?.activeOrganization?.id ?? null;

  useEffect(() => {
    setItems(null);
    request(stacItemCollectionSchema, 'GET', '/api/v1/stac/search', { query: { limit: MAP_LIMIT } })
      .then((collection) => {
        // Without `fields` every feature is a whole item; the schema also admits partial ones.
        setItems(
          collection.features.flatMap((feature) => {
            const item = stacItemSchema.safeParse(feature);
            return item.success ? [item.data] : [];
          }),
        );
      })
      .catch(setError);
  }, [organizationId]);

  useEffect(() => {
    const element = canvas.current;
    if (!element || items === null) return;
    let cancelled = false;
    const features: MapFeature[] = items.flatMap((item) =>
      item.geometry ? [{ id: item.id, geometry: item.geometry as unknown as MapFeature['geometry'] }] : [],
    );
    const draw = async () => {
      const { drawWorld } = await import('../map/world-map.js');
      if (cancelled) return;
      drawWorld(element, features, colorsOf(element));
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
  }, [items]);

  return (
    <section class="map" data-testid="map">
      <h1>Map</h1>
      <ErrorMessage error={error} />
      <canvas
        ref={canvas}
        class="world"
        role="img"
        aria-label={`World map with the footprints of ${items?.length ?? 0} items`}
        data-testid="map-canvas"
        data-drawn={drawn ? 'true' : 'false'}
      />
      {items === null ? (
        <p aria-busy="true">Loading…</p>
      ) : items.length === 0 ? (
        <p class="empty">No items with a place yet.</p>
      ) : (
        <>
          <p data-testid="map-count">
            {items.length.toLocaleString()} item{items.length === 1 ? '' : 's'}
            {items.length === MAP_LIMIT ? ' (the first 1,000)' : ''}
          </p>
          <ul class="map-items">
            {items.map((item) => (
              <li key={item.id}>
                <Link href={`${APP_BASE}/nodes/${item.id}`} testId="map-item">
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
