/** waitFor with a fake poll and clock: checked before the first poll, never past its timeout. */
import { InvalidInputError, type Node } from "../../src/api";
import {
  MAX_WAIT_INTERVAL_SECONDS,
  MAX_WAIT_TIMEOUT_SECONDS,
  WaitFor,
  WaitTimeoutError,
  checkWaitFor,
  waitUntil,
} from "../../src/functions/wait";

const node = (status: string) => ({ id: "ND-1-2-3", status }) as Node;
const one = (n: Node) => [n];

describe("waitFor is checked completely before the first poll", () => {
  async function refusal(waitFor: unknown): Promise<InvalidInputError> {
    let polls = 0;
    const fetch = async () => (polls++, node("starting"));
    const error = await waitUntil("getNode ND-1-2-3", waitFor as WaitFor, fetch, one).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: "invalid_wait_for", operation: "getNode ND-1-2-3" });
    expect(polls).toBe(0);
    return error as InvalidInputError;
  }

  const BAD: Record<string, unknown[]> = {
    intervalSeconds: [NaN, Infinity, 0, -1, 0.01, MAX_WAIT_INTERVAL_SECONDS + 1, "5", null],
    timeoutSeconds: [NaN, Infinity, -1, MAX_WAIT_TIMEOUT_SECONDS + 1, "600"],
    status: ["up", "constructor", 1, undefined],
  };
  // A refusal names what it got, then the allowed range (a NaN interval once polled forever).
  const ALLOWED: Record<string, RegExp> = {
    intervalSeconds: new RegExp(`^got .*\\b0\\.1\\b.*\\b${MAX_WAIT_INTERVAL_SECONDS}$`),
    timeoutSeconds: new RegExp(`^got .*\\b0\\b.*\\b${MAX_WAIT_TIMEOUT_SECONDS}$`),
    status: /^got /,
  };
  it.each(Object.entries(BAD).flatMap(([field, values]) => values.map((value) => [field, value] as const)))(
    "waitFor.%s = %p is refused, naming the field",
    async (field, value) => {
      const waitFor: Record<string, unknown> = { status: "running", timeoutSeconds: 10, intervalSeconds: 1 };
      waitFor[field] = value;
      const e = await refusal(waitFor);
      expect(Object.keys(e.fields ?? {})).toEqual([`waitFor.${field}`]);
      expect(e.fields?.[`waitFor.${field}`][0]).toMatch(ALLOWED[field]);
    },
  );

  it("waitFor must be an object, with known fields only; every problem is listed", async () => {
    for (const waitFor of [null, "running", 5, ["running"]])
      expect(Object.keys((await refusal(waitFor)).fields ?? {})).toEqual(["waitFor"]);
    const e = await refusal({ status: "nope", timeout: 5, intervalSeconds: -1 });
    expect(Object.keys(e.fields ?? {}).sort()).toEqual([
      "waitFor.intervalSeconds",
      "waitFor.status",
      "waitFor.timeout",
    ]);
    expect(e.fields?.["waitFor.timeout"][0]).toContain("waitFor.timeoutSeconds");
  });

  const [timeoutSeconds, intervalSeconds] = [MAX_WAIT_TIMEOUT_SECONDS, MAX_WAIT_INTERVAL_SECONDS];
  it.each([
    [{ status: "running" }, { status: "running", timeoutSeconds: 600, intervalMs: 5000 }],
    [
      { status: "stopped", timeoutSeconds, intervalSeconds },
      { status: "stopped", timeoutSeconds, intervalMs: intervalSeconds * 1000 },
    ],
    [
      { status: "running", timeoutSeconds: 0, intervalSeconds: 0.1 },
      { status: "running", timeoutSeconds: 0, intervalMs: 100 },
    ],
  ])("checkWaitFor fills in the defaults and accepts the edges: %p", (waitFor, checked) => {
    expect(checkWaitFor("op", waitFor as WaitFor)).toEqual(checked);
  });
});

describe("the wait never runs past timeoutSeconds", () => {
  const timeout = async (promise: Promise<unknown>) => {
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    return (error as Error).message;
  };

  it("no sleep ends after the deadline (fake clock); the nodes still elsewhere are named", async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const message = await timeout(
      waitUntil(
        "getNode ND-1-2-3",
        { status: "running", timeoutSeconds: 10, intervalSeconds: 3 },
        async () => node("starting"),
        one,
        { now: () => clock, sleep: async (ms) => void (sleeps.push(ms), (clock += ms)) },
      ),
    );
    expect(message).toMatch(/^getNode ND-1-2-3: .*\b10 s\b.*ND-1-2-3 \(starting\)/);
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
    const waitFor = { status: "running" as const, timeoutSeconds: 0.4, intervalSeconds: 0.1 };
    const message = await timeout(waitUntil("getNode ND-1-2-3", waitFor, fetch, one));
    expect(message).toMatch(/\b0\.4 s\b.*ND-1-2-3 \(starting\)/);
    expect(polls).toBe(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a first poll that hangs is abandoned too: no poll answered", async () => {
    const waitFor = { status: "running" as const, timeoutSeconds: 0.2, intervalSeconds: 0.1 };
    const never = () => new Promise<Node[]>(() => undefined);
    const message = await timeout(waitUntil("getNodes", waitFor, never, (ns) => ns));
    expect(message).toMatch(/^getNodes: .*\b0\.2 s\b/);
    expect(message).not.toContain("ND-");
  });

  it("timeoutSeconds 0 checks once: done when the status is there, a timeout otherwise", async () => {
    const once = { status: "running" as const, timeoutSeconds: 0 };
    await expect(waitUntil("op", once, async () => node("running"), one)).resolves.toMatchObject({
      status: "running",
    });
    let polls = 0;
    const fetch = async () => (polls++, node("pending"));
    expect(await timeout(waitUntil("op", once, fetch, one))).toMatch(/\b0 s\b.*ND-1-2-3 \(pending\)/);
    expect(polls).toBe(1);
  });
});
