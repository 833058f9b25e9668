/** The plugin's shutdown without a process: the grace setting, calls answered once, exit codes. */
import { CallInterrupted, interruptible } from "../../src/provider/calls";
import {
  DEFAULT_SHUTDOWN_GRACE_MS,
  shutdownGraceMs,
  shutdownOnSignal,
  trackCall,
} from "../../src/plugin/shutdown";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("shutdownGraceMs", () => {
  it.each([
    [undefined, DEFAULT_SHUTDOWN_GRACE_MS],
    ["", DEFAULT_SHUTDOWN_GRACE_MS],
    ["0", 0],
    [" 1500 ", 1500],
    ["2147483647", 2147483647],
  ])("%j gives %d ms and no warning", (value, expected) => {
    expect(shutdownGraceMs({ BLOCKCHAIN_SHUTDOWN_GRACE_MS: value })).toEqual({ graceMs: expected });
  });

  it.each(["-1", "1.5", "5s", "2147483648", "NaN"])(
    "%j gives the default and a warning naming it",
    (value) => {
      const { graceMs, warning } = shutdownGraceMs({ BLOCKCHAIN_SHUTDOWN_GRACE_MS: value });
      expect(graceMs).toBe(DEFAULT_SHUTDOWN_GRACE_MS);
      expect(warning).toContain("BLOCKCHAIN_SHUTDOWN_GRACE_MS");
      expect(warning).toContain(JSON.stringify(value));
    },
  );
});

test("a call is answered once: the first answer wins", () => {
  const answers: unknown[] = [];
  const answer = trackCall<number>((result) => answers.push(result));
  answer({ value: 1 });
  answer({ error: new Error("late") });
  expect(answers).toEqual([{ value: 1 }]);
});

test("stopping: calls finishing within the grace are answered as they are, the rest with an error; interrupted work is told first", async () => {
  let closed: ((error?: Error) => void) | undefined;
  const server = { tryShutdown: (cb: (error?: Error) => void) => (closed = cb), forceShutdown: jest.fn() };
  const exits: number[] = [];
  const logs: string[] = [];
  const stop = shutdownOnSignal(server, {
    graceMs: 100,
    exit: (code) => exits.push(code),
    log: (l) => logs.push(l),
  });

  const quick: unknown[] = [];
  const quickAnswer = trackCall<string>((r) => quick.push(r));
  const stuck: unknown[] = [];
  trackCall<string>((r) => stuck.push(r));
  const send: unknown[] = [];
  const sendAnswer = trackCall<string>((r) => send.push(r));
  const sending = interruptible(() => new Promise<string>(() => undefined)).then(
    (value) => sendAnswer({ value }),
    (error: unknown) =>
      sendAnswer({
        value: error instanceof CallInterrupted && error.started ? `unknown: ${error.reason}` : "?",
      }),
  );

  stop("SIGTERM");
  expect(closed).toBeDefined();
  // Stopping: no new work starts.
  await expect(interruptible(async () => "late")).rejects.toMatchObject({ started: false });
  quickAnswer({ value: "done" });
  await sleep(50);
  expect(stuck).toEqual([]);
  expect(send).toEqual([]);

  await sending;
  expect(send).toEqual([{ value: expect.stringMatching(/^unknown: .*\(SIGTERM\)/) }]);
  await sleep(700);
  expect(quick).toEqual([{ value: "done" }]);
  expect(stuck).toHaveLength(1);
  const stuckMessage = (stuck[0] as { error: Error }).error.message;
  for (const token of ["SIGTERM", "100 ms", "BLOCKCHAIN_SHUTDOWN_GRACE_MS"])
    expect(stuckMessage).toContain(token);
  expect(logs.join("\n")).toMatch(/\b2 calls\b.*\b100 ms\b/);
  // Every call answered: the server's own shutdown completes, and the process exits with 1.
  closed!();
  expect(exits).toEqual([1]);
});
