/**
 * The bound on requests to one service, shared by the clients of a process: at most `maxConcurrentRequests`
 * attempts in flight, and a send rate that adapts to the service. A process starts slowly, as well-kept
 * clients do (slow start): its first {@link INITIAL_BURST} attempts at once, then {@link START_RATE}
 * requests/s from its first attempt, doubling every second for {@link SLOW_START_MS} (to 160/s), then
 * unpaced, until the service first throttles (429, or 503 with Retry-After); from then on AIMD, as TCP and
 * the AWS SDKs' adaptive mode: a share of what the service served in the last second, recovering additively.
 * `maxRequestsPerSecond`, when set, is a hard cap on top (and no attempts start at once).
 */

/** The send rate of a process's first second, requests/s; it doubles every second until the first throttle. */
export const START_RATE = 5;
/** How long the pace doubles, ms: past it (160 requests/s) a process is unpaced until the service throttles. */
export const SLOW_START_MS = 5000;
/** Attempts an uncapped process starts at once before that pace applies (TCP's initial window is 10 segments, RFC 6928). */
export const INITIAL_BURST = 10;
/** After a throttle, the share of the last second's served rate the process keeps sending at. */
export const CUT = 0.7;
/** Recovery after a cut, per second: this share of the cut rate, and at least {@link MIN_RATE}. */
export const RECOVERY = 0.05;
/** The lowest rate a cut leaves, and the smallest recovery step (requests/s per second). */
export const MIN_RATE = 0.5;
/** The longest a throttle pauses the other requests of the process, ms (the refused one waits its whole Retry-After). */
export const MAX_PAUSE_MS = 2000;
const WINDOW_MS = 1000;

/** What became of one attempt: an answer (throttled or not), or none (a failed connection). */
export type Outcome = { throttled: boolean; retryAfterMs?: number } | undefined;

/** Gives a place back, learning from the attempt's outcome. */
export type Release = (outcome?: Outcome) => void;

/** What the request loop asks of a limiter before each attempt. */
export interface Limiter {
  /** The place's release, or `undefined` when the attempt could not start before `deadlineAt` (ms). */
  take(deadlineAt: number): Promise<Release | undefined>;
}

/** A clock: tests pass a fake one. */
export type Clock = { now: () => number; sleep: (ms: number) => Promise<void> };

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Bounds attempts in flight (first come, first served) and paces their starts; see the module's comment. */
export class RequestLimiter implements Limiter {
  private readonly cap: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextSlot = -Infinity;
  private pausedUntil = -Infinity;
  /** When the first attempt started: the slow start's origin. */
  private startedAt?: number;
  /** Slots taken in the slow start. */
  private starts = 0;
  private cutRate = Infinity;
  private cutAt = -Infinity;
  private readonly served: number[] = [];

  /** `maxRequestsPerSecond` 0 or Infinity: no cap. */
  constructor(
    maxRequestsPerSecond: number,
    readonly maxInFlight: number,
    private readonly clock: Clock = realClock,
  ) {
    this.cap = maxRequestsPerSecond || Infinity;
  }

  /** Until the service first throttles: the rate doubles every second, then is unbounded. */
  private get slowStart(): boolean {
    return this.cutRate === Infinity;
  }

  /** Attempts holding a place right now. */
  get inFlight(): number {
    return this.active;
  }

  /** The send rate allowed at `at`, requests per second (`Infinity`: unbounded). */
  rate(at: number = this.clock.now()): number {
    if (this.slowStart) {
      const elapsed = Math.max(0, at - (this.startedAt ?? at));
      return elapsed < SLOW_START_MS ? Math.min(this.cap, START_RATE * 2 ** (elapsed / 1000)) : this.cap;
    }
    const step = Math.max(MIN_RATE, this.cutRate * RECOVERY);
    return Math.min(this.cap, this.cutRate + (step * Math.max(0, at - this.cutAt)) / 1000);
  }

  async take(deadlineAt: number): Promise<Release | undefined> {
    if (this.active < this.maxInFlight) this.active++;
    // A released place passes straight to the longest waiter.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    const release: Release = (outcome) => {
      if (released) return;
      released = true;
      if (outcome) this.learn(outcome);
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    this.startedAt ??= this.clock.now();
    for (;;) {
      const now = this.clock.now();
      // The first few attempts of an uncapped process start at once, as TCP's initial window.
      const burst = this.slowStart && this.cap === Infinity && this.starts++ < INITIAL_BURST;
      const slot = Math.max(
        now,
        this.pausedUntil,
        burst || this.rate(now) === Infinity ? now : this.nextSlot,
      );
      if (slot >= deadlineAt) return void release();
      // The next start is spaced by the rate at this one's on the ramp (its end voids the slots
      // taken on it), else by the rate now: a slot taken after a cut stands.
      const rate = this.rate(this.slowStart ? slot : now);
      if (rate !== Infinity) this.nextSlot = slot + 1000 / rate;
      if (slot <= now) return release;
      const ramping = this.slowStart;
      await this.clock.sleep(slot - now);
      // The end of the slow start, heard meanwhile, voids a slot taken on the ramp: take one at the new pace.
      if (!ramping || this.slowStart) return release;
    }
  }

  private learn({ throttled, retryAfterMs }: NonNullable<Outcome>): void {
    const now = this.clock.now();
    while (this.served.length > 0 && this.served[0] <= now - WINDOW_MS) this.served.shift();
    if (!throttled) {
      this.served.push(now);
      // Answers to requests sent before a cut, arriving within a second of it, show what the
      // service accepted more fully than the count at the cut (a burst's answers come staggered).
      if (now - this.cutAt < WINDOW_MS) this.cutRate = Math.max(this.cutRate, this.served.length * CUT);
      return;
    }
    // The other refusals of the burst that caused the last cut say nothing new.
    if (now - this.cutAt < WINDOW_MS) return;
    const rate = this.rate(now);
    const first = this.slowStart;
    // What the service served last second (after a cut, at most the pace); when it served nothing,
    // the pace so far (1 request/s in the slow start, whose ramp says nothing of the service).
    const served = this.served.length;
    const base = served === 0 ? (first ? 1 / CUT : rate) : first ? served : Math.min(rate, served);
    this.cutRate = Math.max(MIN_RATE, base * CUT);
    this.cutAt = now;
    // At the end of the slow start, attempts waiting on the ramp take new slots (see `take`).
    this.nextSlot = Math.max(first ? now : this.nextSlot, now + 1000 / this.cutRate);
    // The throttle that ends the slow start means a burst the service is still counting: the
    // whole process waits what it asked (the refused request waits it anyway).
    if (first && retryAfterMs !== undefined) this.pausedUntil = now + Math.min(retryAfterMs, MAX_PAUSE_MS);
  }
}

const shared = new Map<string, RequestLimiter>();

/** The process's limiter for one service, key and settings: every client built alike shares it. */
export function sharedLimiter(service: string, maxRequestsPerSecond: number, maxInFlight: number) {
  const id = `${service}\n${maxRequestsPerSecond || Infinity}\n${maxInFlight}`;
  let limiter = shared.get(id);
  if (!limiter) shared.set(id, (limiter = new RequestLimiter(maxRequestsPerSecond, maxInFlight)));
  return limiter;
}
