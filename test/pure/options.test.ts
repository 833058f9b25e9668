/** Client options: every option is checked once, at construction, with a message naming it. */
import { ApiError, InvalidInputError, NodeServiceClient, NodeServiceClientOptions } from "../../src/api";
import { DEFAULT_MAX_RESPONSE_BYTES, MAX_TIMER_MS } from "../../src/api/defaults";
import {
  CLIENT_OPTION_NAMES,
  MAX_RETRIES_LIMIT,
  MIN_REQUESTS_PER_SECOND,
  resolveClientOptions,
} from "../../src/api/options";
import { recordingFetch, rejection, wireNode } from "../helpers/client";

const API_KEY = "options-test-key-0123456789abcdef";
const BASE = { apiUrl: "https://api.example.com", apiKey: API_KEY };

/** Builds a client with `extra` options and returns the error it throws. */
function refusal(extra: Record<string, unknown>): InvalidInputError {
  let error: unknown;
  try {
    new NodeServiceClient({ ...BASE, ...extra } as NodeServiceClientOptions);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidInputError);
  const e = error as InvalidInputError;
  expect(e.kind).toBe("invalid_input");
  expect(e.attempts).toBe(0);
  expect(e.message).not.toContain(API_KEY);
  expect(JSON.stringify(e)).not.toContain(API_KEY);
  return e;
}

describe("numbers out of range are refused at construction, naming the option", () => {
  const maxText = String(MAX_TIMER_MS);
  it.each([
    ["timeoutMs", Infinity],
    ["timeoutMs", MAX_TIMER_MS + 1],
    ["timeoutMs", 2 ** 32],
    ["deadlineMs", Infinity],
    ["deadlineMs", MAX_TIMER_MS + 1],
  ])("%s = %p: refused, the message gives the maximum", (field, value) => {
    const e = refusal({ [field]: value });
    expect(e.code).toBe("invalid_option");
    expect(Object.keys(e.fields ?? {})).toEqual([field]);
    expect(e.message).toContain(`${field}: got ${String(value)}; expected a positive number`);
    expect(e.message).toContain(`at most ${maxText}`);
  });

  it.each([
    ["timeoutMs", NaN],
    ["timeoutMs", -1],
    ["timeoutMs", 0],
    ["timeoutMs", "30000"],
    ["timeoutMs", null],
    ["deadlineMs", NaN],
    ["deadlineMs", -5],
    ["deadlineMs", 0],
    ["deadlineMs", -Infinity],
    ["retry.baseDelayMs", NaN],
    ["retry.baseDelayMs", -1],
    ["retry.baseDelayMs", Infinity],
    ["retry.maxDelayMs", MAX_TIMER_MS + 1],
    ["retry.maxDelayMs", "8000"],
    ["retry.maxRetryAfterMs", Infinity],
    ["retry.maxRetryAfterMs", -1],
    ["retry.maxRetries", -1],
    ["retry.maxRetries", 1.5],
    ["retry.maxRetries", NaN],
    ["retry.maxRetries", Infinity],
    ["retry.maxRetries", MAX_RETRIES_LIMIT + 1],
    ["retry.maxRetries", "3"],
    ["maxRequestsPerSecond", NaN],
    ["maxRequestsPerSecond", -5],
    ["maxRequestsPerSecond", -Infinity],
    ["maxRequestsPerSecond", "10"],
    ["maxRequestsPerSecond", MIN_REQUESTS_PER_SECOND / 2],
    ["maxResponseBytes", 0],
    ["maxResponseBytes", -1],
    ["maxResponseBytes", 1.5],
    ["maxResponseBytes", NaN],
    ["maxResponseBytes", Infinity],
    ["maxResponseBytes", "1000"],
  ])("%s = %p", (field, value) => {
    const extra: Record<string, unknown> = field.startsWith("retry.")
      ? { retry: { [field.slice("retry.".length)]: value } }
      : { [field]: value };
    const e = refusal(extra);
    expect(e.code).toBe("invalid_option");
    expect(Object.keys(e.fields ?? {})).toEqual([field]);
    expect(e.message).toMatch(new RegExp(`\\n  ${field.replace(".", "\\.")}: got .*; expected `));
  });

  it("accepts the edges of every range", () => {
    for (const extra of [
      { timeoutMs: MAX_TIMER_MS, deadlineMs: MAX_TIMER_MS },
      { timeoutMs: 0.5, deadlineMs: 1 },
      { retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0, jitter: false } },
      { retry: { maxRetries: MAX_RETRIES_LIMIT, maxDelayMs: MAX_TIMER_MS, maxRetryAfterMs: MAX_TIMER_MS } },
      { retry: false as const },
      { retry: {} },
      { maxRequestsPerSecond: 0 },
      { maxRequestsPerSecond: Infinity },
      { maxRequestsPerSecond: 0.5 },
      { maxRequestsPerSecond: MIN_REQUESTS_PER_SECOND },
      { maxResponseBytes: 1 },
      { maxResponseBytes: Number.MAX_SAFE_INTEGER },
      { timeoutMs: undefined, retry: undefined, fetch: undefined },
    ]) {
      expect(() => new NodeServiceClient({ ...BASE, ...extra })).not.toThrow();
    }
  });

  it("every problem is listed at once", () => {
    const e = refusal({ timeoutMs: NaN, deadlineMs: Infinity, retry: { jitter: "no", maxRetries: -1 } });
    expect(Object.keys(e.fields ?? {}).sort()).toEqual([
      "deadlineMs",
      "retry.jitter",
      "retry.maxRetries",
      "timeoutMs",
    ]);
  });
});

describe("types", () => {
  it('retry.jitter: "no" is refused', () => {
    const e = refusal({ retry: { jitter: "no" } });
    expect(e.message).toContain('retry.jitter: got "no"; expected true or false');
    expect(e.fields).toEqual({ "retry.jitter": ['got "no"; expected true or false'] });
  });

  it.each(["fetch", "sleep", "now", "random"])("%s must be a function, checked at construction", (field) => {
    const e = refusal({ [field]: "x" });
    expect(e.message).toContain(`${field}: got "x"; expected a function`);
    expect(e.fields).toEqual({ [field]: ['got "x"; expected a function'] });
  });

  it("retry must be an object or false", () => {
    for (const retry of [true, 3, "yes", null, []]) {
      const e = refusal({ retry });
      expect(Object.keys(e.fields ?? {})).toEqual(["retry"]);
      expect(e.message).toMatch(/retry: got .*; expected an object of retry settings, or false/);
    }
  });

  it("the options must be an object, and a string given as options is not echoed", () => {
    for (const options of [undefined, null, 42, [], API_KEY]) {
      let error: unknown;
      try {
        new NodeServiceClient(options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as ApiError).fields).toHaveProperty("options");
      expect((error as ApiError).message).not.toContain(API_KEY);
    }
  });

  it("a value that cannot be printed is described, not crashed on", () => {
    const e = refusal({ timeoutMs: Symbol("x"), deadlineMs: 10n, fetch: Object.create(null) });
    expect(e.fields).toEqual({
      timeoutMs: [expect.stringMatching(/^got a symbol; /)],
      deadlineMs: [expect.stringMatching(/^got 10n; /)],
      fetch: ["got an object; expected a function"],
    });
  });
});

describe("unknown option names", () => {
  it("a typo is refused with the list of known options and a suggestion", () => {
    const e = refusal({ timeoutMS: 5000 });
    expect(e.code).toBe("invalid_option");
    expect(Object.keys(e.fields ?? {})).toEqual(["timeoutMS"]);
    expect(e.message).toContain("timeoutMS: unknown option (did you mean timeoutMs?)");
    expect(e.message).toContain(`expected one of ${CLIENT_OPTION_NAMES.join(", ")}`);
  });

  it("unknown retry settings are refused too", () => {
    const e = refusal({ retry: { maxRetry: 3 } });
    expect(Object.keys(e.fields ?? {})).toEqual(["retry.maxRetry"]);
    expect(e.message).toContain("did you mean retry.maxRetries?");
  });

  it("the value of an unknown option is never shown (it may be a key given under a wrong name)", () => {
    const e = refusal({ token: "sk-other-secret-0123456789" });
    expect(e.message).toContain("token: unknown option");
    expect(e.message).not.toContain("sk-other-secret");
  });

  it("Object.prototype names are unknown options, and inherited values are not read", () => {
    const e = refusal(JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3}'));
    expect(Object.keys(e.fields ?? {}).sort()).toEqual(["__proto__", "constructor", "toString"]);
    const inherited = Object.assign(Object.create({ timeoutMs: -1 }), BASE);
    expect(() => new NodeServiceClient(inherited)).not.toThrow();
  });

  it("apiURL instead of apiUrl is reported as the typo, not as a missing URL", () => {
    const e = refusal({ apiUrl: undefined, apiURL: "https://api.example.com" });
    expect(e.message).toContain("apiURL: unknown option (did you mean apiUrl?)");
  });
});

describe("resolved settings", () => {
  it("defaults are filled in, and the key appears in no data property", () => {
    const settings = resolveClientOptions(BASE);
    expect(settings).toMatchObject({
      base: { origin: "https://api.example.com", basePath: "", href: "https://api.example.com" },
      timeoutMs: 20_000,
      deadlineMs: 60_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      maxAttempts: 5,
      maxRequestsPerSecond: 10,
      limiterSleep: undefined,
    });
    expect(settings.authorization()).toBe(`Bearer ${API_KEY}`);
    expect(JSON.stringify(settings)).not.toContain(API_KEY);
  });

  it("given values win; retry false means one attempt", () => {
    const sleep = async () => undefined;
    const settings = resolveClientOptions({
      ...BASE,
      apiKey: `  ${API_KEY}\n`,
      timeoutMs: 1000,
      deadlineMs: 2000,
      maxResponseBytes: 1234,
      maxRequestsPerSecond: Infinity,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 3, jitter: false },
      sleep,
    });
    expect(settings).toMatchObject({
      timeoutMs: 1000,
      deadlineMs: 2000,
      maxResponseBytes: 1234,
      maxRequestsPerSecond: Infinity,
      maxAttempts: 3,
      retryPolicy: { baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 3, jitter: false },
      sleep,
      limiterSleep: sleep,
    });
    expect(settings.authorization()).toBe(`Bearer ${API_KEY}`);
    expect(resolveClientOptions({ ...BASE, retry: false }).maxAttempts).toBe(1);
  });

  it("maxResponseBytes reaches the transport: a larger body fails with response_too_large", async () => {
    const body = JSON.stringify(wireNode());
    const { fetch } = recordingFetch(() => ({ status: 200, text: body }));
    const small = new NodeServiceClient({ ...BASE, fetch, maxRequestsPerSecond: 0, maxResponseBytes: 100 });
    const error = (await rejection(small.getNode("ND-123-456-789"))) as ApiError;
    expect(error.kind).toBe("invalid_response");
    expect(error.code).toBe("response_too_large");
    const fits = new NodeServiceClient({
      ...BASE,
      fetch,
      maxRequestsPerSecond: 0,
      maxResponseBytes: body.length,
    });
    await expect(fits.getNode("ND-123-456-789")).resolves.toMatchObject({ id: "ND-123-456-789" });
  });

  it("an injected fetch is used", async () => {
    const { fetch, calls } = recordingFetch(() => ({ status: 200, body: wireNode() }));
    await new NodeServiceClient({ ...BASE, fetch, maxRequestsPerSecond: 0 }).getNode("ND-123-456-789");
    expect(calls).toHaveLength(1);
  });
});
