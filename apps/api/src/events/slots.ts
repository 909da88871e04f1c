/** At most `size` holders at a time; the others wait in arrival order. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
      });
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next in line, or give it back.
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
