import { comparePositions, formatPosition, parsePosition, type Position } from '@portal/domain';
import pg from 'pg';

/** The projector's channel: one NOTIFY per committed batch, payload the new checkpoint. */
const PROJECTION_CHANNEL = 'portal_projection';

interface Arrival {
  readonly position: Position;
  /** `performance.now()` when the notification reached this process. */
  readonly at: number;
}

/**
 * Records when each projector checkpoint reached the benchmark, from a LISTEN of its own. The
 * projector is one ordered subscriber, so arrivals come in position order and an event's
 * "projected at" is the first arrival at or past its position (a binary search).
 */
export class ProjectionArrivals {
  private readonly arrivals: Arrival[] = [];
  private readonly watchers = new Set<() => void>();
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly client: pg.Client) {}

  static async listen(databaseUrl: string): Promise<ProjectionArrivals> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-arrivals' });
    const arrivals = new ProjectionArrivals(client);
    // Dropping the stack's database (also on Ctrl-C) ends this connection; nothing to do then.
    client.on('error', () => undefined);
    client.on('notification', (message) => {
      const position = message.payload === undefined ? null : parsePosition(message.payload);
      if (position) arrivals.record(position);
    });
    await client.connect();
    await client.query(`LISTEN ${PROJECTION_CHANNEL}`);
    return arrivals;
  }

  /** When the checkpoint first reached `position`; `undefined` if it has not (yet). */
  projectedAt(position: Position): number | undefined {
    let low = 0;
    let high = this.arrivals.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const arrival = this.arrivals[middle];
      if (arrival && comparePositions(arrival.position, position) < 0) low = middle + 1;
      else high = middle;
    }
    return this.arrivals[low]?.at;
  }

  /** Resolves once the checkpoint has passed `position`; rejects after `timeoutMs`. */
  async waitFor(position: Position, timeoutMs: number): Promise<void> {
    if (this.projectedAt(position) !== undefined) return;
    await new Promise<void>((resolve, reject) => {
      const watcher = (): void => {
        if (this.projectedAt(position) === undefined) return;
        this.watchers.delete(watcher);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error(`projector did not reach ${formatPosition(position)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.watchers.add(watcher);
    });
  }

  /** Called after each new checkpoint is recorded. */
  onArrival(listener: () => void): void {
    this.listeners.add(listener);
  }

  get count(): number {
    return this.arrivals.length;
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  private record(position: Position): void {
    const last = this.arrivals.at(-1);
    // Only forward moves count: a repeated or older checkpoint says nothing new.
    if (last && comparePositions(position, last.position) <= 0) return;
    this.arrivals.push({ position, at: performance.now() });
    for (const watcher of [...this.watchers]) watcher();
    for (const listener of this.listeners) listener();
  }
}
