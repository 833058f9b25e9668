import { RateLimiter } from "../../src/api/limits";

/** A fake clock whose sleep advances time. */
function fakeClock() {
  let t = 1_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

describe("RateLimiter", () => {
  it("N requests at R/s take at least (N-1)/R seconds (fake clock)", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxRequestsPerSecond: 10, now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    for (let i = 0; i < 11; i++) {
      await limiter.acquire();
      starts.push(clock.now());
    }
    expect(starts[10] - starts[0]).toBeGreaterThanOrEqual(1000);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(100);
  });

  it("N requests at R/s take at least (N-1)/R seconds (real timers, concurrent)", async () => {
    const limiter = new RateLimiter({ maxRequestsPerSecond: 50 });
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => limiter.acquire()));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(5 * 20 - 2);
  });

  it("serves callers in the order they called (FIFO)", async () => {
    const limiter = new RateLimiter({ maxRequestsPerSecond: 100 });
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("sleeps once per waiting request, never polls", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxRequestsPerSecond: 4, now: clock.now, sleep: clock.sleep });
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    // One sleep per waiting request (the first goes at once); none of them polls.
    expect(clock.sleeps).toHaveLength(2);
  });

  it("does not delay requests spaced further apart than the rate", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxRequestsPerSecond: 10, now: clock.now, sleep: clock.sleep });
    await limiter.acquire();
    await clock.sleep(150);
    clock.sleeps.length = 0;
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it.each([0, Infinity])("maxRequestsPerSecond %p disables it", async (rate) => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ maxRequestsPerSecond: rate, now: clock.now, sleep: clock.sleep });
    await Promise.all(Array.from({ length: 20 }, () => limiter.acquire()));
    expect(clock.sleeps).toEqual([]);
    expect(limiter.disabled).toBe(true);
  });

  it("defaults to 10 per second", () => {
    expect(new RateLimiter().intervalMs).toBe(100);
  });

  it("rejects a negative rate", () => {
    expect(() => new RateLimiter({ maxRequestsPerSecond: -1 })).toThrow(/maxRequestsPerSecond/);
  });
});
