/** The request limiter on a fake clock: in-flight bound, unpaced until throttled, cut and recovery, caps, deadlines. */
import { CUT, MAX_PAUSE_MS, MIN_RATE, RECOVERY, RequestLimiter, sharedLimiter } from "../../src/api/limits";

/** A fake clock whose sleep advances time and records each wait. */
function fakeClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}
type Clock = ReturnType<typeof fakeClock>;

/** `n` answered attempts, one every `everyMs`. */
async function serve(limiter: RequestLimiter, clock: Clock, n: number, everyMs: number) {
  for (let i = 0; i < n; i++) {
    const release = await limiter.take(Infinity);
    clock.advance(everyMs);
    release!({ throttled: false });
  }
}

/** One attempt answered 429 (with `retryAfterMs` when given). */
async function refuse(limiter: RequestLimiter, retryAfterMs?: number) {
  (await limiter.take(Infinity))!({ throttled: true, retryAfterMs });
}

describe("RequestLimiter", () => {
  test("sends unpaced until the service throttles", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 100, clock);
    await Promise.all(Array.from({ length: 50 }, () => limiter.take(Infinity)));
    expect(clock.sleeps).toEqual([]);
    expect(limiter.rate()).toBe(Infinity);
    expect(limiter.inFlight).toBe(50);
  });

  test("at most maxInFlight places are held; a released place passes to the longest waiter, in call order", async () => {
    const limiter = new RequestLimiter(0, 2, fakeClock());
    const order: number[] = [];
    const releases = [0, 1, 2, 3].map((i) => limiter.take(Infinity).then((r) => (order.push(i), r)));
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    expect(limiter.inFlight).toBe(2);
    (await releases[0])!();
    (await releases[1])!();
    await Promise.all(releases);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(limiter.inFlight).toBe(2);
  });

  test("a 429 with Retry-After met while unpaced: the whole process waits it, then paces at CUT x what was served", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 10, 50); // 10 answered within the last second
    await refuse(limiter, 1000);
    expect(limiter.rate()).toBeCloseTo(10 * CUT);
    const before = clock.now();
    await limiter.take(Infinity); // another request, not the refused one
    expect(clock.now() - before).toBe(1000);
  });

  test("the process-wide pause is at most MAX_PAUSE_MS, whatever Retry-After says", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 10, 50);
    await refuse(limiter, 3_600_000);
    const before = clock.now();
    await limiter.take(Infinity);
    expect(clock.now() - before).toBe(MAX_PAUSE_MS);
  });

  test("a 429 without Retry-After: no pause, starts spaced 1000 / rate apart", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 20, 50);
    await refuse(limiter);
    const rate = limiter.rate();
    expect(rate).toBeCloseTo(20 * CUT);
    clock.sleeps.length = 0;
    for (let i = 0; i < 5; i++) (await limiter.take(Infinity))!({ throttled: false });
    // Spaced by the rate at each start, which recovers a little as time passes.
    for (const wait of clock.sleeps.slice(1)) {
      expect(wait).toBeLessThanOrEqual(1000 / rate + 1e-9);
      expect(wait).toBeGreaterThan(1000 / (rate + 1));
    }
    expect(Math.max(...clock.sleeps)).toBeLessThan(1000);
  });

  test("one cut per burst: the other refusals of the same second do not cut again", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 10, 50);
    const inFlight = await Promise.all(Array.from({ length: 6 }, () => limiter.take(Infinity)));
    for (const release of inFlight) release!({ throttled: true, retryAfterMs: 1000 });
    expect(limiter.rate()).toBeCloseTo(10 * CUT);
  });

  test("answers within a second of a cut to requests sent before it raise the cut to CUT x what was served", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 5, 10);
    const inFlight = await Promise.all(Array.from({ length: 4 }, () => limiter.take(Infinity)));
    await refuse(limiter, 1000);
    expect(limiter.rate()).toBeCloseTo(5 * CUT);
    for (const release of inFlight) {
      clock.advance(100);
      release!({ throttled: false });
    }
    expect(limiter.rate()).toBeCloseTo(9 * CUT + Math.max(MIN_RATE, 9 * CUT * RECOVERY) * 0.4, 5);
    // Past that second, answers are what the cut pace allowed: they raise nothing.
    clock.advance(10_000); // recovered past 9 requests/s
    const later = clock.now() + 5000;
    const before = limiter.rate(later);
    await serve(limiter, clock, 15, 10);
    expect(limiter.rate(later)).toBe(before);
  });

  test("a throttle met while paced cuts again without pausing the process", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 10, 50);
    await refuse(limiter, 1000);
    await serve(limiter, clock, 10, 100);
    const paced = limiter.rate();
    await refuse(limiter, 5000);
    expect(limiter.rate()).toBeLessThan(paced);
    const before = clock.now();
    await limiter.take(Infinity);
    expect(clock.now() - before).toBeLessThan(1000);
  });

  test("recovers additively: the same step every second", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await serve(limiter, clock, 10, 50);
    await refuse(limiter);
    const cut = limiter.rate();
    const step = Math.max(MIN_RATE, cut * RECOVERY);
    const at = clock.now();
    expect(limiter.rate(at + 1000) - cut).toBeCloseTo(step);
    expect(limiter.rate(at + 10_000) - limiter.rate(at + 9000)).toBeCloseTo(step);
  });

  test("a refusal when nothing was served last second cuts the pace so far, never below MIN_RATE", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(0, 8, clock);
    await refuse(limiter);
    expect(limiter.rate()).toBeCloseTo(1);
    clock.advance(1500);
    const paced = limiter.rate();
    await refuse(limiter);
    expect(limiter.rate()).toBeCloseTo(Math.max(MIN_RATE, paced * CUT));
  });

  test("a failed connection (no answer) teaches nothing", async () => {
    const limiter = new RequestLimiter(0, 8, fakeClock());
    (await limiter.take(Infinity))!();
    expect(limiter.rate()).toBe(Infinity);
    expect(limiter.inFlight).toBe(0);
  });

  test("maxRequestsPerSecond caps from the first start, and after a cut", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(10, 100, clock);
    const starts: number[] = [];
    for (let i = 0; i < 11; i++) {
      (await limiter.take(Infinity))!({ throttled: false });
      starts.push(clock.now());
    }
    expect(starts[10] - starts[0]).toBe(1000);
    expect(clock.sleeps).toEqual(Array(10).fill(100));
    await refuse(limiter);
    expect(limiter.rate(clock.now() + 3_600_000)).toBe(10);
  });

  test("a slot past the caller's deadline is not taken, and its place is given back", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(1, 1, clock);
    (await limiter.take(Infinity))?.();
    expect(await limiter.take(clock.now() + 500)).toBeUndefined();
    expect(limiter.inFlight).toBe(0);
    expect(clock.sleeps).toEqual([]);
    expect(await limiter.take(clock.now() + 1500)).toBeDefined();
  });

  test("sharedLimiter: one per service, key and settings in the process", () => {
    expect(sharedLimiter("a k", 0, 8)).toBe(sharedLimiter("a k", 0, 8));
    expect(sharedLimiter("a k", 0, 8)).not.toBe(sharedLimiter("b k", 0, 8));
    expect(sharedLimiter("a k", 3, 8)).not.toBe(sharedLimiter("a k", 0, 8));
  });
});
