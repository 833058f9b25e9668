/**
 * The client-wide bound on outgoing requests, taken by the request loop around each attempt: at
 * most `maxConcurrentRequests` attempts in flight (every call of one client, pages fetched ahead
 * included), started at most `maxRequestsPerSecond` apart.
 */

/** What the request loop asks of a limiter before each attempt. */
export interface Limiter {
  /**
   * Resolves with the function that gives the place back once the attempt is over, or
   * `undefined` when the attempt could not start before `deadlineAt` (the call's deadline, ms).
   */
  take(deadlineAt: number): Promise<(() => void) | undefined>;
}

/** A clock: tests pass a fake one. */
export interface Clock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A fair (FIFO) bound on attempts in flight, and a spacing of their starts: with a rate of R per
 * second the k-th start of a burst comes k / R seconds after the first. Each waiter sleeps once,
 * until its slot; no timer exists while nobody waits.
 */
export class RequestLimiter implements Limiter {
  /** Milliseconds between two starts; 0 for no rate limit. */
  readonly intervalMs: number;
  private nextSlot = -Infinity;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** `maxRequestsPerSecond` 0 or Infinity: no rate limit. */
  constructor(
    maxRequestsPerSecond: number,
    readonly maxInFlight: number,
    private readonly clock: Clock = realClock,
  ) {
    this.intervalMs =
      maxRequestsPerSecond === 0 || maxRequestsPerSecond === Infinity ? 0 : 1000 / maxRequestsPerSecond;
  }

  /** Attempts holding a place right now. */
  get inFlight(): number {
    return this.active;
  }

  async take(deadlineAt: number): Promise<(() => void) | undefined> {
    if (this.active < this.maxInFlight) this.active++;
    // A released place passes straight to the longest waiter.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    if (slot >= deadlineAt) {
      release();
      return undefined;
    }
    if (this.intervalMs > 0) this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.clock.sleep(slot - now);
    return release;
  }
}
