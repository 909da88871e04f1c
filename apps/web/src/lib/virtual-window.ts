/**
 * Which rows of a long list to put in the DOM: those in the viewport plus `overscan` on each side.
 * A list of 100,000 rows keeps a few dozen elements, whatever the scroll position.
 */
export interface WindowInput {
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
  readonly count: number;
  readonly overscan: number;
}

/** `[start, end)` of the rows to render. */
export function visibleRange(input: WindowInput): { readonly start: number; readonly end: number } {
  const { scrollTop, viewportHeight, rowHeight, count, overscan } = input;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start, last + overscan));
  return { start, end };
}
