/** The request limiter on a fake clock: starts spaced by the rate, in call order, in-flight bounded, within a deadline. */
import { RequestLimiter } from "../../src/api/limits";

/** A fake clock whose sleep advances time. */
function fakeClock() {
  let now = 1_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

describe("RequestLimiter", () => {
  test("N starts at R/s are spaced 1/R apart, each waiter sleeping once (no polling)", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(10, 100, clock);
    const starts: number[] = [];
    for (let i = 0; i < 11; i++) {
      (await limiter.take(Infinity))?.();
      starts.push(clock.now());
    }
    expect(starts[10] - starts[0]).toBe(1000);
    expect(clock.sleeps).toEqual(Array(10).fill(100));
  });

  test("serves callers in the order they called", async () => {
    const limiter = new RequestLimiter(100, 100, fakeClock());
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.take(Infinity).then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  test("starts spaced further apart than the rate are not delayed; 0 and Infinity mean no rate limit", async () => {
    const clock = fakeClock();
    const limiter = new RequestLimiter(10, 100, clock);
    (await limiter.take(Infinity))?.();
    await clock.sleep(150);
    clock.sleeps.length = 0;
    (await limiter.take(Infinity))?.();
    expect(clock.sleeps).toEqual([]);
    for (const rate of [0, Infinity]) {
      const free = new RequestLimiter(rate, 100, clock);
      await Promise.all(Array.from({ length: 20 }, () => free.take(Infinity)));
      expect(clock.sleeps).toEqual([]);
    }
  });

  test("at most maxInFlight places are held; a released place passes to the longest waiter", async () => {
    const limiter = new RequestLimiter(0, 2, fakeClock());
    const first = await limiter.take(Infinity);
    await limiter.take(Infinity);
    let third: (() => void) | undefined;
    const waiting = limiter.take(Infinity).then((r) => (third = r));
    await Promise.resolve();
    expect(limiter.inFlight).toBe(2);
    expect(third).toBeUndefined();
    first?.();
    await waiting;
    expect(third).toBeDefined();
    expect(limiter.inFlight).toBe(2);
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
});
