import { duration } from './table.js';

export interface ProgressState {
  /** Units done so far (events replayed). */
  readonly done: number;
  /** How far along, 0 to 1: the total is estimated from it (`done / fraction`). */
  readonly fraction: number;
  readonly elapsedSeconds: number;
  /** What is being done now (`index portal_objects_stac_text`), shown last. */
  readonly detail?: string;
}

const BAR_WIDTH = 24;
const count = new Intl.NumberFormat('en-US');

/**
 * `[#########---------------]  37.5%  12,000/~32,000 events  2,400/s  ETA 8 s`: done against the
 * estimated total, the rate so far and the time left at that rate.
 */
export function progressLine(state: ProgressState, unit = 'events'): string {
  const fraction = Math.min(1, Math.max(0, state.fraction));
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const total = fraction > 0 ? Math.max(state.done, Math.round(state.done / fraction)) : null;
  const rate = state.elapsedSeconds > 0 ? state.done / state.elapsedSeconds : 0;
  const left = total !== null && rate > 0 ? (total - state.done) / rate : null;
  return [
    bar,
    `${(fraction * 100).toFixed(1).padStart(5)}%`,
    `${count.format(state.done)}/${total === null ? '?' : `~${count.format(total)}`} ${unit}`,
    `${count.format(Math.round(rate))}/s`,
    `ETA ${left === null ? '?' : duration(left)}`,
    ...(state.detail === undefined || state.detail === '' ? [] : [state.detail]),
  ].join('  ');
}

/**
 * Draws `progressLine` on a stream: redrawn in place on a terminal (at most ten times a second), a new
 * line every few seconds otherwise (a log file, a CI job), and at once whenever the detail changes (a
 * step that takes minutes shows its name while it runs).
 */
export class ProgressBar {
  private readonly startedAt: number;
  private drawnAt = Number.NEGATIVE_INFINITY;
  private drawnDetail: string | undefined;

  constructor(
    private readonly out: NodeJS.WritableStream & { readonly isTTY?: boolean },
    private readonly clock: () => number = () => performance.now(),
    private readonly unit = 'events',
  ) {
    this.startedAt = clock();
  }

  update(done: number, fraction: number, detail?: string): void {
    const now = this.clock();
    const due = now - this.drawnAt >= (this.out.isTTY === true ? 100 : 2_000);
    if (!due && detail === this.drawnDetail) return;
    this.drawnAt = now;
    this.draw(done, fraction, now, detail);
  }

  /** The last state, drawn whatever the time, then a line of its own below it. */
  finish(done: number, fraction: number, note: string): void {
    this.draw(done, fraction, this.clock());
    this.out.write(`${this.out.isTTY === true ? '\n' : ''}${note}\n`);
  }

  private draw(done: number, fraction: number, now: number, detail?: string): void {
    this.drawnDetail = detail;
    const elapsedSeconds = (now - this.startedAt) / 1000;
    const line = progressLine(
      { done, fraction, elapsedSeconds, ...(detail === undefined ? {} : { detail }) },
      this.unit,
    );
    this.out.write(this.out.isTTY === true ? `\r\x1b[K${line}` : `${line}\n`);
  }
}
