import type { PortalItemRecord } from '@portal/contracts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { footprintOf } from '../map/footprint.js';
import { mapColorsOf } from '../map/map-colors.js';
import type { MapFeature } from '../map/world-map.js';
import { ErrorMessage } from './error-message.js';

/**
 * The object's footprint on the offline map, zoomed to its surroundings. The renderer and basemap
 * are the map page's lazily loaded chunk: an object page without a place never loads them.
 */
export function FootprintMap(props: { readonly record: PortalItemRecord }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const footprint = footprintOf(props.record);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !footprint) return;
    let cancelled = false;
    import('../map/world-map.js')
      .then(({ drawWorld }) => {
        if (cancelled) return;
        drawWorld(
          element,
          [{ id: props.record.id, geometry: footprint.geometry as MapFeature['geometry'] }],
          mapColorsOf(element),
          footprint.box,
        );
        setDrawn(true);
      })
      .catch(setError);
    return () => {
      cancelled = true;
    };
    // The footprint is derived from the record: drawing again when the record changes is enough.
  }, [props.record]);

  if (!footprint) return null;
  return (
    <figure class="footprint">
      <canvas
        ref={canvas}
        class="world"
        role="img"
        aria-label={`Map of where ${props.record.title} is: ${footprint.box.join(', ')}`}
        data-testid="footprint-map"
        data-drawn={drawn ? 'true' : 'false'}
      />
      <ErrorMessage error={error} />
    </figure>
  );
}
