import { parsePosition } from '@portal/domain';
import type { ProjectionArrivals } from '../support/projection-arrivals.js';
import { LatencyHistogram } from './latency-histogram.js';

interface Change {
  /** When the projector's checkpoint passed it, as seen by the bench's own LISTEN. */
  readonly projectedAt: number;
  receipts: number;
}

export interface MeasuredWindow {
  readonly from: number;
  readonly until: number;
}

/**
 * Every client-event the SSE clients read, matched by its `id:` (the event's position) to the moment the
 * projector's checkpoint passed it. That is the moment a GET shows the change, so the latency is the
 * feed's own, whichever way the change was made. A change counts as measured when it was projected inside
 * the measured seconds.
 */
export class DeliveryTally {
  /** Projection → receipt, per measured client-event. */
  readonly latency = new LatencyHistogram();
  deliveries = 0;
  private readonly changes = new Map<string, Change>();
  /** Receipts read before this process saw the checkpoint (two sockets, either may be read first). */
  private readonly pending = new Map<string, number[]>();
  /** Nothing is measured until the load's schedule is known. */
  private window: MeasuredWindow | null = null;

  constructor(private readonly arrivals: Pick<ProjectionArrivals, 'projectedAt' | 'onArrival'>) {
    arrivals.onArrival(() => {
      this.settlePending();
    });
  }

  measure(window: MeasuredWindow): void {
    this.window = window;
  }

  receive(id: string, receivedAt: number): void {
    const change = this.changes.get(id) ?? this.place(id);
    if (change) this.count(change, receivedAt);
    else {
      const waiting = this.pending.get(id);
      if (waiting) waiting.push(receivedAt);
      else this.pending.set(id, [receivedAt]);
    }
  }

  /** Distinct changes any client received, all run long. */
  get changesSeen(): number {
    return this.changes.size + this.pending.size;
  }

  /** Changes projected in the measured seconds, and how many of them some open client missed. */
  measuredChanges(openClients: number): { readonly count: number; readonly incomplete: number } {
    let count = 0;
    let incomplete = 0;
    for (const change of this.changes.values()) {
      if (!this.inWindow(change)) continue;
      count += 1;
      if (change.receipts < openClients) incomplete += 1;
    }
    return { count, incomplete };
  }

  private place(id: string): Change | undefined {
    const position = parsePosition(id);
    const projectedAt = position === null ? undefined : this.arrivals.projectedAt(position);
    if (projectedAt === undefined) return undefined;
    const change: Change = { projectedAt, receipts: 0 };
    this.changes.set(id, change);
    return change;
  }

  private count(change: Change, receivedAt: number): void {
    change.receipts += 1;
    if (!this.inWindow(change)) return;
    this.deliveries += 1;
    this.latency.record(receivedAt - change.projectedAt);
  }

  private inWindow(change: Change): boolean {
    const window = this.window;
    return window !== null && change.projectedAt >= window.from && change.projectedAt < window.until;
  }

  private settlePending(): void {
    for (const [id, receipts] of this.pending) {
      const change = this.place(id);
      if (!change) continue;
      this.pending.delete(id);
      for (const receivedAt of receipts) this.count(change, receivedAt);
    }
  }
}
