/**
 * A client-wide bound on the requests in flight: a counting semaphore taken around each attempt
 * (together with the rate limiter), so that every call of one client, listing pages fetched
 * ahead included, shares the same `maxConcurrentRequests`.
 */

/** A fair (FIFO) counting semaphore. */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** Builds a limiter letting at most `max` holders in at once (a positive integer). */
  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max <= 0) {
      throw new RangeError(`maxConcurrentRequests must be a positive integer; got ${String(max)}`);
    }
  }

  /** Holders right now. */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves once the caller holds a place; call {@link release} exactly once afterwards. */
  acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Gives a place back, handing it to the longest waiter if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** Runs `task` while holding a place. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
