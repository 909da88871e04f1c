import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { visibleRange } from '../lib/virtual-window.js';

/**
 * A list that renders only the rows in view (fixed row height), in a scroll box of its own. It asks
 * for more (`onNearEnd`) with the index of the last row in view, so the next keyset page is fetched
 * before the user reaches the end of what is loaded.
 */
export function VirtualList<T>(props: {
  readonly items: readonly T[];
  readonly rowHeight: number;
  readonly keyOf: (item: T) => string;
  readonly renderRow: (item: T, index: number) => ComponentChildren;
  readonly onNearEnd: (lastVisibleIndex: number) => void;
  /** Rows known to follow the loaded ones (a loading row is drawn for them). */
  readonly more: boolean;
  readonly label: string;
  /** Called once the DOM shows a new set of items (render timing). */
  readonly onRendered?: (count: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ scrollTop: 0, height: 600 });
  const { items, rowHeight, onNearEnd, onRendered } = props;

  useLayoutEffect(() => {
    onRendered?.(items.length);
  }, [items, onRendered]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      setViewport({ scrollTop: element.scrollTop, height: element.clientHeight });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);

  const count = items.length;
  const { start, end } = visibleRange({
    scrollTop: viewport.scrollTop,
    viewportHeight: viewport.height,
    rowHeight,
    count,
    overscan: 8,
  });
  const lastVisible = Math.min(count - 1, Math.ceil((viewport.scrollTop + viewport.height) / rowHeight));

  useEffect(() => {
    onNearEnd(lastVisible);
  }, [lastVisible, count, onNearEnd]);

  const rows: ComponentChildren[] = [];
  for (let index = start; index < end; index += 1) {
    const item = items[index] as T;
    rows.push(
      <li
        key={props.keyOf(item)}
        class="row"
        style={{ transform: `translateY(${index * rowHeight}px)`, height: `${rowHeight}px` }}
        aria-setsize={props.more ? -1 : count}
        aria-posinset={index + 1}
      >
        {props.renderRow(item, index)}
      </li>,
    );
  }
  const total = count + (props.more ? 1 : 0);
  return (
    <div
      class="virtual-list"
      ref={box}
      data-testid="virtual-list"
      // As tall as its rows, up to the screen's share: a short list leaves no empty box below it.
      style={{ height: `min(var(--list-height), ${total * rowHeight + 2}px)` }}
    >
      <ul aria-label={props.label} style={{ height: `${total * rowHeight}px` }}>
        {rows}
        {props.more ? (
          <li
            class="row loading-row"
            aria-hidden="true"
            style={{ transform: `translateY(${count * rowHeight}px)`, height: `${rowHeight}px` }}
          >
            Loading more…
          </li>
        ) : null}
      </ul>
    </div>
  );
}
