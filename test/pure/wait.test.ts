/** waitFor with a fake poll and clock: checked before the first poll, never past its timeout. */
import { InvalidInputError, type Node } from "../../src/api";
import {
  MAX_WAIT_INTERVAL_SECONDS,
  MAX_WAIT_TIMEOUT_SECONDS,
  WaitFor,
  checkWaitFor,
  waitUntil,
} from "../../src/functions/wait";

describe("waitFor is checked completely before the first poll", () => {
  const node = (status: string) => ({ id: "ND-1-2-3", status }) as Node;

  async function refusal(waitFor: unknown): Promise<InvalidInputError> {
    let polls = 0;
    const fetch = async () => {
      polls += 1;
      return node("starting");
    };
    let error: unknown;
    try {
      await waitUntil("getNode ND-1-2-3", waitFor as WaitFor, fetch, (n) => [n]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(polls).toBe(0);
    return error as InvalidInputError;
  }

  it.each([
    ["intervalSeconds", NaN],
    ["intervalSeconds", Infinity],
    ["intervalSeconds", 0],
    ["intervalSeconds", -1],
    ["intervalSeconds", 0.01],
    ["intervalSeconds", MAX_WAIT_INTERVAL_SECONDS + 1],
    ["intervalSeconds", "5"],
    ["intervalSeconds", null],
    ["timeoutSeconds", NaN],
    ["timeoutSeconds", Infinity],
    ["timeoutSeconds", -1],
    ["timeoutSeconds", MAX_WAIT_TIMEOUT_SECONDS + 1],
    ["timeoutSeconds", "600"],
    ["status", "up"],
    ["status", "constructor"],
    ["status", 1],
    ["status", undefined],
  ])("waitFor.%s = %p is refused, naming the field", async (field, value) => {
    const waitFor: Record<string, unknown> = { status: "running", timeoutSeconds: 10, intervalSeconds: 1 };
    waitFor[field] = value;
    const e = await refusal(waitFor);
    expect(e.code).toBe("invalid_wait_for");
    expect(Object.keys(e.fields ?? {})).toEqual([`waitFor.${field}`]);
    expect(e.message).toContain(`waitFor.${field}: got `);
    expect(e.message).toMatch(/^getNode ND-1-2-3: invalid_wait_for: invalid waitFor, nothing was polled/);
  });

  it("NaN interval used to poll forever; now it is refused with the allowed range", async () => {
    const e = await refusal({ status: "running", timeoutSeconds: 0.2, intervalSeconds: NaN });
    expect(e.message).toContain(
      `waitFor.intervalSeconds: got NaN; expected a number of seconds >= 0.1, at most ${MAX_WAIT_INTERVAL_SECONDS}`,
    );
  });

  it("waitFor must be an object, with known fields only; every problem is listed", async () => {
    for (const waitFor of [null, "running", 5, ["running"]]) {
      const e = await refusal(waitFor);
      expect(Object.keys(e.fields ?? {})).toEqual(["waitFor"]);
    }
    const e = await refusal({ status: "nope", timeout: 5, intervalSeconds: -1 });
    expect(Object.keys(e.fields ?? {}).sort()).toEqual([
      "waitFor.intervalSeconds",
      "waitFor.status",
      "waitFor.timeout",
    ]);
    expect(e.message).toContain("unknown field; expected one of waitFor.status, waitFor.timeoutSeconds");
  });

  it("checkWaitFor fills in the defaults and accepts the edges", () => {
    expect(checkWaitFor("op", { status: "running" })).toEqual({
      status: "running",
      timeoutSeconds: 600,
      intervalMs: 5000,
    });
    expect(
      checkWaitFor("op", {
        status: "stopped",
        timeoutSeconds: MAX_WAIT_TIMEOUT_SECONDS,
        intervalSeconds: MAX_WAIT_INTERVAL_SECONDS,
      }),
    ).toEqual({
      status: "stopped",
      timeoutSeconds: MAX_WAIT_TIMEOUT_SECONDS,
      intervalMs: MAX_WAIT_INTERVAL_SECONDS * 1000,
    });
    expect(checkWaitFor("op", { status: "running", timeoutSeconds: 0, intervalSeconds: 0.1 })).toEqual({
      status: "running",
      timeoutSeconds: 0,
      intervalMs: 100,
    });
  });
});

describe("the wait never runs past timeoutSeconds", () => {
  const node = (status: string) => ({ id: "ND-1-2-3", status }) as Node;

  it("no sleep ends after the deadline (fake clock)", async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const fetch = async () => node("starting");
    const error = await waitUntil(
      "getNode ND-1-2-3",
      { status: "running", timeoutSeconds: 10, intervalSeconds: 3 },
      fetch,
      (n) => [n],
      {
        now: () => clock,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
      },
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(
      /timed out after 10 s waiting for status running; still not there: ND-1-2-3 \(starting\)/,
    );
    expect(sleeps).toEqual([3000, 3000, 3000]);
    expect(clock).toBeLessThanOrEqual(10_000);
  });

  it("a poll that hangs is abandoned at the deadline", async () => {
    let polls = 0;
    const fetch = () => {
      polls += 1;
      return polls === 1 ? Promise.resolve(node("starting")) : new Promise<Node>(() => undefined);
    };
    const started = Date.now();
    const error = await waitUntil(
      "getNode ND-1-2-3",
      { status: "running", timeoutSeconds: 0.4, intervalSeconds: 0.1 },
      fetch,
      (n) => [n],
    ).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(String(error)).toMatch(
      /timed out after 0\.4 s waiting for status running; still not there: ND-1-2-3 \(starting\) \(the last poll did not answer in time\)/,
    );
    expect(polls).toBe(2);
    expect(elapsed).toBeLessThan(2000);
  });

  it("a first poll that hangs is abandoned too", async () => {
    const error = await waitUntil(
      "getNodes",
      { status: "running", timeoutSeconds: 0.2, intervalSeconds: 0.1 },
      () => new Promise<Node[]>(() => undefined),
      (ns) => ns,
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(
      /getNodes: timed out after 0\.2 s waiting for status running; no poll answered/,
    );
  });

  it("timeoutSeconds 0 checks once: done when the status is there, a timeout otherwise", async () => {
    const once = { status: "running" as const, timeoutSeconds: 0 };
    await expect(
      waitUntil(
        "op",
        once,
        async () => node("running"),
        (n) => [n],
      ),
    ).resolves.toMatchObject({
      status: "running",
    });
    let polls = 0;
    const error = await waitUntil(
      "op",
      once,
      async () => {
        polls += 1;
        return node("pending");
      },
      (n) => [n],
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/timed out after 0 s/);
    expect(polls).toBe(1);
  });
});
