/** The progress line of the ingest CLI (done/total, rate, ETA), redrawn at most 4 times a second. */
export class Progress {
  done = 0;
  failed = 0;
  skipped = 0;
  private readonly startedAt = performance.now();
  private drawnAt = 0;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream,
  ) {}

  record(ok: boolean): void {
    this.done += 1;
    if (!ok) this.failed += 1;
    const now = performance.now();
    if (now - this.drawnAt >= 250) {
      this.drawnAt = now;
      this.draw();
    }
  }

  /** A record not sent (a static catalog's `catalog.json`): done, neither applied nor failed. */
  skip(): void {
    this.skipped += 1;
    this.record(true);
  }

  /** A line of its own (a retry), above the progress line. */
  note(text: string): void {
    this.out.write(`${this.out.isTTY ? '\r\x1b[K' : ''}${text}\n`);
  }

  finish(): void {
    this.draw();
    const seconds = (performance.now() - this.startedAt) / 1000;
    this.out.write(
      `\n${this.done - this.failed - this.skipped} applied, ${this.failed} failed` +
        `${this.skipped > 0 ? `, ${this.skipped} skipped` : ''} of ${this.total} in ${seconds.toFixed(1)} s\n`,
    );
  }

  private draw(): void {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const eta = rate > 0 ? Math.max(0, (this.total - this.done) / rate) : 0;
    const percent = this.total > 0 ? (100 * this.done) / this.total : 100;
    const line =
      `${this.done}/${this.total} (${percent.toFixed(1)}%) ${rate.toFixed(0)}/s ` +
      `ETA ${formatSeconds(eta)} failed ${this.failed}`;
    this.out.write(this.out.isTTY ? `\r\x1b[K${line}` : `${line}\n`);
  }
}

function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}
