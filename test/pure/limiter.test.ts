/** The request limiter on a fake clock: in-flight bound, slow start until throttled, cut and recovery, caps, deadlines. */
import { CUT, INITIAL_BURST, MAX_PAUSE_MS, MIN_RATE, RECOVERY, RequestLimiter } from "../../src/api/limits";
import { SLOW_START_MS, START_RATE, sharedLimiter } from "../../src/api/limits";

/**
 * A fake clock whose sleep advances time and records each wait; `duringSleep` runs once, as a sleep
 * begins; `frozen`: a sleep records its wait and ends at once, time moving only by `advance`.
 */
function fakeClock() {
  let now = 1_000_000;
  const clock = {
    sleeps: [] as number[],
    duringSleep: undefined as (() => void) | undefined,
    frozen: false,
    now: () => now,
    advance: (ms: number) => (now += ms),
    sleep: async (ms: number) => {
      const during = clock.duringSleep;
      clock.duringSleep = undefined;
      during?.();
      clock.sleeps.push(ms);
      if (!clock.frozen) now += ms;
    },
  };
  return clock;
}
type Clock = ReturnType<typeof fakeClock>;

/** A fresh limiter (no rate cap unless `maxRate`) on a fresh clock. */
function fresh(maxInFlight: number, maxRate = 0) {
  const clock = fakeClock();
  return { clock, limiter: new RequestLimiter(maxRate, maxInFlight, clock) };
}

/** `n` answered attempts, one every `everyMs`; their start times. */
async function serve(limiter: RequestLimiter, clock: Clock, n: number, everyMs: number) {
  const starts: number[] = [];
  for (let i = 0; i < n; i++) {
    const release = await limiter.take(Infinity);
    starts.push(clock.now());
    clock.advance(everyMs);
    release!({ throttled: false });
  }
  return starts;
}

/** One attempt answered 429 (with `retryAfterMs` when given). */
async function refuse(limiter: RequestLimiter, retryAfterMs?: number) {
  (await limiter.take(Infinity))!({ throttled: true, retryAfterMs });
}

/** A limiter past its pace's doubling (20 s after its first attempt): unpaced until throttled. */
async function pastRamp(clock: Clock, maxInFlight = 8) {
  const limiter = new RequestLimiter(0, maxInFlight, clock);
  await serve(limiter, clock, 1, 0);
  clock.advance(20_000);
  return limiter;
}

/**
 * A limiter past its ramp on a fresh clock, that then served `n` attempts `everyMs` apart, then (`refused`)
 * had one answered 429, with `refused.retryAfterMs` when given.
 */
async function served(n: number, everyMs: number, refused?: { retryAfterMs?: number }) {
  const clock = fakeClock();
  const limiter = await pastRamp(clock);
  await serve(limiter, clock, n, everyMs);
  if (refused) await refuse(limiter, refused.retryAfterMs);
  return { clock, limiter };
}

/** A fresh limiter (20 places) whose first INITIAL_BURST attempts are in flight. */
async function inBurst() {
  const { clock, limiter } = fresh(20);
  const burst = await Promise.all(Array.from({ length: INITIAL_BURST }, () => limiter.take(Infinity)));
  return { clock, limiter, burst };
}

describe("RequestLimiter", () => {
  test("starts INITIAL_BURST attempts at once, then START_RATE from the first attempt, doubling every second for SLOW_START_MS, then unpaced", async () => {
    const { clock, limiter } = fresh(100);
    expect(limiter.rate()).toBe(START_RATE);
    const starts = await serve(limiter, clock, 60, 0);
    const first = starts[0];
    expect(starts.slice(0, INITIAL_BURST)).toEqual(Array(INITIAL_BURST).fill(first));
    expect(limiter.rate(first)).toBe(START_RATE);
    expect(limiter.rate(first + 1000)).toBeCloseTo(2 * START_RATE);
    expect(limiter.rate(first + 3000)).toBeCloseTo(8 * START_RATE);
    expect(limiter.rate(first + SLOW_START_MS - 1)).toBeCloseTo(START_RATE * 2 ** (SLOW_START_MS / 1000), 0);
    expect(limiter.rate(first + SLOW_START_MS)).toBe(Infinity);
    // Past the burst, each start is spaced from the one before by the rate allowed at that one.
    for (let i = INITIAL_BURST; i < starts.length; i++)
      expect(starts[i] - starts[i - 1]).toBeCloseTo(1000 / limiter.rate(starts[i - 1]));
    const inSecond = (s: number) =>
      starts.filter((t) => t >= first + 1000 * s && t < first + 1000 * (s + 1)).length;
    expect(inSecond(0) - INITIAL_BURST).toBeGreaterThanOrEqual(START_RATE - 1);
    expect(inSecond(0) - INITIAL_BURST).toBeLessThan(2 * START_RATE);
    expect(inSecond(1)).toBeGreaterThanOrEqual(2 * START_RATE - 1);
    expect(inSecond(1)).toBeLessThan(4 * START_RATE);
  });

  test("attempts taken at once at the start: the burst starts, the rest wait their turns on the ramp", async () => {
    const { clock, limiter } = fresh(20);
    await Promise.all(Array.from({ length: INITIAL_BURST + 3 }, () => limiter.take(Infinity)));
    expect(clock.sleeps).toHaveLength(3);
    expect(clock.sleeps[0]).toBeCloseTo(1000 / START_RATE);
    expect(clock.sleeps[2]).toBeLessThan(clock.sleeps[1]);
    expect(limiter.inFlight).toBe(INITIAL_BURST + 3);
  });

  test("at most maxInFlight places are held; a released place passes to the longest waiter, in call order", async () => {
    const { limiter } = fresh(2);
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

  test.each([
    [1000, 1000],
    [3_600_000, MAX_PAUSE_MS],
  ])(
    "a throttle with Retry-After %d ms: the whole process waits %d ms, then paces at CUT x what was served",
    async (retryAfterMs, pause) => {
      const { clock, limiter } = await served(10, 50, { retryAfterMs });
      expect(limiter.rate()).toBeCloseTo(10 * CUT);
      const before = clock.now();
      await limiter.take(Infinity);
      expect(clock.now() - before).toBe(pause);
    },
  );

  test("the throttle that ends the slow start cuts to CUT x what was served last second, the burst included", async () => {
    const { clock, limiter, burst } = await inBurst();
    clock.advance(50);
    for (const release of burst) release!({ throttled: false });
    await refuse(limiter, 1000);
    expect(limiter.rate()).toBeCloseTo(INITIAL_BURST * CUT);
  });

  test("the end of the slow start, heard while an attempt waits on the ramp, voids its slot: it takes one at the new pace", async () => {
    const { clock, limiter, burst } = await inBurst();
    const start = clock.now();
    // The next slot is 1000 / START_RATE ms away; a 429 with Retry-After arrives while it waits.
    clock.duringSleep = () => burst[0]!({ throttled: true, retryAfterMs: 1000 });
    await limiter.take(Infinity);
    expect(clock.sleeps[0]).toBeCloseTo(1000 / START_RATE);
    expect(clock.now() - start).toBe(1000);
  });

  test("at the end of the slow start, the attempts waiting on the ramp take slots a step apart from now", async () => {
    const { clock, limiter, burst } = await inBurst();
    for (const release of burst.slice(1)) release!({ throttled: false });
    clock.frozen = true;
    const waiting = [0, 1, 2].map(() => limiter.take(Infinity)); // slots on the ramp
    burst[0]!({ throttled: true }); // no Retry-After: no pause
    await Promise.all(waiting);
    const step = 1000 / ((INITIAL_BURST - 1) * CUT);
    expect(clock.sleeps.slice(0, 3).every((ms) => ms > 150)).toBe(true);
    expect(clock.sleeps.slice(3)).toEqual([step, 2 * step, 3 * step].map((ms) => expect.closeTo(ms, 5)));
  });

  test("after the slow start, attempts queued at once are spaced by the rate when they queue", async () => {
    const { clock, limiter } = await served(10, 50, {});
    clock.advance(5000); // recovering
    const step = 1000 / limiter.rate();
    clock.frozen = true;
    clock.sleeps.length = 0;
    await Promise.all([0, 1, 2, 3].map(() => limiter.take(Infinity)));
    expect(clock.sleeps).toEqual([step, 2 * step, 3 * step].map((ms) => expect.closeTo(ms, 5)));
  });

  test("after the slow start, a throttle heard while an attempt waits leaves its slot", async () => {
    const { clock, limiter } = await served(10, 50, {}); // the slow start ends: 7 requests/s, no pause
    clock.advance(1500);
    const first = await limiter.take(Infinity);
    const paced = limiter.rate();
    clock.sleeps.length = 0;
    const before = clock.now();
    clock.duringSleep = () => first!({ throttled: true });
    await limiter.take(Infinity);
    expect(limiter.rate()).toBeLessThan(paced);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.now() - before).toBeCloseTo(1000 / paced);
  });

  test("one cut per burst: the other refusals of the same second do not cut again", async () => {
    const { limiter } = await served(10, 50);
    const inFlight = await Promise.all(Array.from({ length: 6 }, () => limiter.take(Infinity)));
    for (const release of inFlight) release!({ throttled: true, retryAfterMs: 1000 });
    expect(limiter.rate()).toBeCloseTo(10 * CUT);
  });

  test("answers within a second of a cut to requests sent before it raise the cut to CUT x what was served", async () => {
    const { clock, limiter } = await served(5, 10);
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

  test("a throttle met after a cut cuts again without pausing the process", async () => {
    const { clock, limiter } = await served(10, 50, { retryAfterMs: 1000 });
    await serve(limiter, clock, 10, 100);
    const paced = limiter.rate();
    await refuse(limiter, 5000);
    expect(limiter.rate()).toBeLessThan(paced);
    const before = clock.now();
    await limiter.take(Infinity);
    expect(clock.now() - before).toBeLessThan(1000);
  });

  test("recovers additively: the same step every second", async () => {
    const { clock, limiter } = await served(10, 50, {});
    const cut = limiter.rate();
    const step = Math.max(MIN_RATE, cut * RECOVERY);
    const at = clock.now();
    expect(limiter.rate(at + 1000) - cut).toBeCloseTo(step);
    expect(limiter.rate(at + 10_000) - limiter.rate(at + 9000)).toBeCloseTo(step);
  });

  test("a refusal when nothing was served last second: 1 request/s in the slow start, after a cut the pace so far, never below MIN_RATE", async () => {
    const { clock, limiter } = fresh(8);
    await refuse(limiter);
    expect(limiter.rate()).toBeCloseTo(1);
    clock.advance(1500);
    const paced = limiter.rate();
    await refuse(limiter);
    expect(limiter.rate()).toBeCloseTo(Math.max(MIN_RATE, paced * CUT));
    // Idle long into the slow start, the ramp says nothing of the service.
    const idle = await pastRamp(clock);
    await refuse(idle);
    expect(idle.rate()).toBeCloseTo(1);
  });

  test("a failed connection (no answer) teaches nothing", async () => {
    const { clock, limiter } = fresh(8);
    (await limiter.take(Infinity))!();
    expect(limiter.rate()).toBe(START_RATE);
    expect(limiter.inFlight).toBe(0);
    expect(limiter.rate(clock.now() + 2000)).toBeCloseTo(4 * START_RATE);
  });

  test("maxRequestsPerSecond caps the slow start (no burst), and the rate after a cut", async () => {
    const { clock, limiter } = fresh(100, 2 * START_RATE);
    const starts = await serve(limiter, clock, 40, 0);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    expect(gaps[0]).toBeCloseTo(1000 / START_RATE);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000 / (2 * START_RATE) - 1e-9);
    expect(gaps.slice(-10)).toEqual(Array(10).fill(1000 / (2 * START_RATE)));
    await refuse(limiter);
    expect(limiter.rate(clock.now() + 3_600_000)).toBe(2 * START_RATE);
  });

  test("a slot past the caller's deadline is not taken, and its place is given back", async () => {
    const { clock, limiter } = fresh(1, 1);
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
