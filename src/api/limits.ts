/**
 * The client-wide bounds on outgoing requests, taken around each attempt: the requests in flight
 * (a counting semaphore: every call of one client, listing pages fetched ahead included, shares
 * the same `maxConcurrentRequests`) and the request rate (`maxRequestsPerSecond`).
 */
import { DEFAULT_MAX_REQUESTS_PER_SECOND, defaultSleep } from "./defaults";

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

/** Options of a {@link RateLimiter}. */
export interface RateLimiterOptions {
  /**
   * Most requests started per second; requests are spaced `1000 / maxRequestsPerSecond` ms apart.
   * `0` or `Infinity` disables the limiter. Default {@link DEFAULT_MAX_REQUESTS_PER_SECOND}.
   */
  maxRequestsPerSecond?: number;
  /** The clock, in milliseconds (injectable for tests). Default `Date.now`. */
  now?: () => number;
  /**
   * Waits `ms` milliseconds (injectable for tests). Default: one `setTimeout` per waiting
   * request (`defaultSleep`); no polling. The timer keeps the process alive: a queued request is
   * pending work its caller awaits.
   */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A client-side rate limiter that spaces request starts evenly: with a rate of R per second, the
 * k-th request (from 0) of a burst starts no earlier than k / R seconds after the first, so N
 * requests take at least (N - 1) / R seconds. Slots are handed out in call order (fair FIFO) the
 * moment `acquire` is called; each waiter then sleeps once until its slot (no busy loop), and no
 * timer exists while nobody waits.
 */
export class RateLimiter {
  /** Milliseconds between two request starts; 0 when disabled. */
  readonly intervalMs: number;
  private nextSlot = -Infinity;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  /** Builds a limiter; see {@link RateLimiterOptions}. */
  constructor(options: RateLimiterOptions = {}) {
    const rate = options.maxRequestsPerSecond ?? DEFAULT_MAX_REQUESTS_PER_SECOND;
    if (typeof rate !== "number" || Number.isNaN(rate) || rate < 0) {
      throw new RangeError(
        `maxRequestsPerSecond must be a positive number, or 0 or Infinity to disable the limit; got ${String(rate)}`,
      );
    }
    this.intervalMs = rate === 0 || rate === Infinity ? 0 : 1000 / rate;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** True when the limiter lets every request through at once. */
  get disabled(): boolean {
    return this.intervalMs === 0;
  }

  /**
   * Resolves `true` when the caller may start its request. Reserves the next free slot
   * synchronously, so callers are served in the order they called. When the slot is more than
   * `maxWaitMs` away, reserves nothing and resolves `false` at once (the caller's deadline would
   * pass while it waits).
   */
  async acquire(maxWaitMs: number = Infinity): Promise<boolean> {
    if (this.intervalMs === 0) return true;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    const wait = slot - now;
    if (wait > maxWaitMs) return false;
    this.nextSlot = slot + this.intervalMs;
    if (wait > 0) await this.sleep(wait);
    return true;
  }
}
