import type { MapColors } from './world-map.js';

/** The map's colours from the page's theme variables, so it follows the stylesheet. */
export function mapColorsOf(element: HTMLElement): MapColors {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    water: read('--panel', '#f4f6f8'),
    land: read('--line', '#d9dee3'),
    lines: read('--muted', '#5b6670'),
    feature: read('--accent', '#0b5cad'),
  };
}
