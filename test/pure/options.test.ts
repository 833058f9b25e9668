/** Client options checked at construction: a bad one is an InvalidInputError naming it; no key echoed. */
import util from "node:util";
import fc from "fast-check";
import {
  InvalidInputError,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  NodeServiceClient,
  NodeServiceClientOptions,
} from "../../src/api";
import { CLIENT_OPTION_NAMES, checkOptions } from "../../src/api/options";

const KEY = "3c6e0b8a9c15224a8228b9a98ca1531d";
const BASE = { apiUrl: "https://api.example.com", apiKey: KEY };

function thrown(options: unknown): unknown {
  try {
    new NodeServiceClient(options as NodeServiceClientOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Every way an error ends up in a log. */
const renderings = (e: unknown) => {
  const error = e as Error;
  return [
    error.message,
    String(error.stack),
    String(error),
    JSON.stringify(error),
    util.inspect(error, { depth: 10, showHidden: true }),
  ];
};

function expectNoEcho(error: unknown, secret: string): void {
  for (const text of renderings(error)) expect(text).not.toContain(secret);
}

/** Builds a client with `extra` options and returns the error it throws. */
function refusal(extra: Record<string, unknown>): InvalidInputError {
  const e = thrown({ ...BASE, ...extra }) as InvalidInputError;
  expect(e).toBeInstanceOf(InvalidInputError);
  expect(e.attempts).toBe(0);
  expectNoEcho(e, KEY);
  return e;
}

describe("values", () => {
  it.each([
    ["timeoutMs", Infinity],
    ["timeoutMs", MAX_TIMER_MS + 1],
    ["deadlineMs", 2 ** 32],
  ])("%s = %p: refused, the message gives the maximum", (field, value) => {
    const e = refusal({ [field]: value });
    expect(e.message).toContain(`${field}: got ${String(value)}; expected a positive number`);
    expect(e.message).toContain(`at most ${MAX_TIMER_MS}`);
  });

  it.each([
    ["timeoutMs", NaN],
    ["timeoutMs", 0],
    ["timeoutMs", "30000"],
    ["timeoutMs", null],
    ["deadlineMs", -5],
    ["deadlineMs", -Infinity],
    ["retry.baseDelayMs", -1],
    ["retry.baseDelayMs", Infinity],
    ["retry.maxDelayMs", "8000"],
    ["retry.maxRetries", -1],
    ["retry.maxRetries", 1.5],
    ["retry.maxRetries", MAX_RETRIES_LIMIT + 1],
    ["retry.maxRetries", "3"],
    ["maxRequestsPerSecond", NaN],
    ["maxRequestsPerSecond", -5],
    ["maxRequestsPerSecond", "10"],
    ["maxRequestsPerSecond", 1e-10],
    ["maxConcurrentRequests", 0],
    ["maxConcurrentRequests", 1.5],
    ["maxConcurrentRequests", Infinity],
    ["fetch", "x"],
    ["onWait", 5],
  ])("%s = %p is refused, naming it", (field, value) => {
    const extra = field.startsWith("retry.") ? { retry: { [field.slice(6)]: value } } : { [field]: value };
    const e = refusal(extra);
    expect(e.code).toBe("invalid_option");
    expect(Object.keys(e.fields ?? {})).toEqual([field]);
    expect(e.message).toMatch(new RegExp(`\\n  ${field.replace(".", "\\.")}: got .*; expected `));
  });

  it("accepts the edges of every range", () => {
    for (const extra of [
      { timeoutMs: MAX_TIMER_MS, deadlineMs: MAX_TIMER_MS },
      { timeoutMs: 0.5, deadlineMs: 1 },
      { retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 } },
      { retry: { maxRetries: MAX_RETRIES_LIMIT, maxDelayMs: MAX_TIMER_MS } },
      { retry: false as const },
      { maxRequestsPerSecond: 0 },
      { maxRequestsPerSecond: Infinity },
      { maxRequestsPerSecond: 0.5, maxConcurrentRequests: 1 },
      { timeoutMs: undefined, retry: undefined, fetch: undefined },
    ]) {
      expect(() => new NodeServiceClient({ ...BASE, ...extra })).not.toThrow();
    }
  });

  it("every problem is listed at once; values that cannot be printed are described", () => {
    const e = refusal({
      timeoutMs: Symbol("x"),
      deadlineMs: 10n,
      retry: { maxRetries: -1 },
      fetch: Object.create(null),
    });
    expect(e.fields).toEqual({
      timeoutMs: [expect.stringMatching(/^got a symbol; /)],
      deadlineMs: [expect.stringMatching(/^got 10n; /)],
      "retry.maxRetries": [expect.stringMatching(/^got -1; /)],
      fetch: ["got {}; expected a function"],
    });
  });

  it("retry must be an object or false; the options an object, a string given as options not echoed", () => {
    for (const retry of [true, 3, "yes", null, []]) {
      expect(refusal({ retry }).message).toMatch(
        /retry: got .*; expected an object of retry settings, or false/,
      );
    }
    for (const options of [undefined, null, 42, [], KEY]) {
      const e = thrown(options) as InvalidInputError;
      expect(e.fields).toHaveProperty("options");
      expectNoEcho(e, KEY);
    }
  });

  it("defaults are filled in, given values win, and the key is in no data property", () => {
    const sleepless = checkOptions(BASE);
    expect(sleepless).toMatchObject({
      timeoutMs: 20_000,
      deadlineMs: 60_000,
      maxAttempts: 5,
      maxRequestsPerSecond: 0,
      maxConcurrentRequests: 8,
    });
    expect(sleepless.authorization()).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(sleepless)).not.toContain(KEY);
    const given = checkOptions({
      ...BASE,
      apiKey: `  ${KEY}\n`,
      timeoutMs: 1000,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    expect(given).toMatchObject({ timeoutMs: 1000, maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 });
    expect(given.authorization()).toBe(`Bearer ${KEY}`);
    expect(checkOptions({ ...BASE, retry: false }).maxAttempts).toBe(1);
  });
});

describe("names", () => {
  it("a typo is refused with the known options and the one it resembles; retry settings too", () => {
    const e = refusal({ timeoutMS: 5000 });
    expect(e.message).toContain("timeoutMS: unknown option (did you mean timeoutMs?)");
    expect(e.message).toContain(`expected one of ${CLIENT_OPTION_NAMES.join(", ")}`);
    expect(refusal({ retry: { maxRetry: 3 } }).message).toContain("did you mean retry.maxRetries?");
    expect(refusal({ apiUrl: undefined, apiURL: BASE.apiUrl }).message).toContain(
      "apiURL: unknown option (did you mean apiUrl?)",
    );
  });

  it("options only tests ever set are unknown", () => {
    for (const name of ["sleep", "now", "random", "maxResponseBytes"])
      expect(refusal({ [name]: 1 }).fields).toHaveProperty([name]);
    expect(refusal({ retry: { jitter: false } }).fields).toHaveProperty(["retry.jitter"]);
  });

  it("the value of an unknown option is never shown; Object.prototype names are unknown; inherited values are not read", () => {
    expect(refusal({ token: "sk-other-secret-0123456789" }).message).not.toContain("sk-other-secret");
    const e = refusal(JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3}'));
    expect(Object.keys(e.fields ?? {}).sort()).toEqual(["__proto__", "constructor", "toString"]);
    expect(() => new NodeServiceClient(Object.assign(Object.create({ timeoutMs: -1 }), BASE))).not.toThrow();
  });
});

describe("the API key", () => {
  it.each([
    ["a tab", `${KEY.slice(0, 11)}\t${KEY.slice(11)}`, "a control character at position 12"],
    ["a CR", `${KEY.slice(0, 4)}\r${KEY.slice(4)}`, "a line break at position 5"],
    ["a LF", `${KEY.slice(0, 4)}\n${KEY.slice(4)}`, "a line break at position 5"],
    ["a NUL", `${KEY}\u0000x`, "a control character at position 33"],
    ["a DEL", `${KEY.slice(0, 2)}\u007f${KEY.slice(2)}`, "a control character at position 3"],
    ["a no-break space", `${KEY.slice(0, 8)}\u00a0${KEY.slice(8)}`, "a non-ASCII character at position 9"],
    ["an emoji", `🔑${KEY}`, "a non-ASCII character at position 1"],
    ["a zero-width space", `${KEY.slice(0, 3)}\u200b${KEY.slice(3)}`, "a non-ASCII character at position 4"],
    ["a lone surrogate", `${KEY}\ud800`, "a non-ASCII character at position 33"],
  ])("with %s is refused, saying where, never showing it", (_name, apiKey, where) => {
    const e = thrown({ apiUrl: BASE.apiUrl, apiKey }) as InvalidInputError;
    expect(e.code).toBe("invalid_api_key");
    expect(Object.keys(e.fields ?? {})).toEqual(["apiKey"]);
    expect(e.message).toContain(
      `the API key contains a character that cannot be sent in an HTTP header (${where}`,
    );
    expectNoEcho(e, apiKey);
    expectNoEcho(e, KEY.slice(0, 8));
  });

  it("is trimmed; printable ASCII, inner spaces included, is accepted; an empty or non-string one is missing", () => {
    for (const apiKey of [
      ` ${KEY} `,
      `\t${KEY}\r\n`,
      "a-b_c.d~e+f/g=",
      "!\"#$%&'()*,;<>?@[\\]^`{|}",
      "two words",
    ]) {
      expect(() => new NodeServiceClient({ apiUrl: BASE.apiUrl, apiKey })).not.toThrow();
    }
    for (const apiKey of ["", "   ", undefined, null, 12345678901234, ["k"]]) {
      const e = thrown({ apiUrl: BASE.apiUrl, apiKey }) as InvalidInputError;
      expect(e.code).toBe("missing_api_key");
      expect(Object.keys(e.fields ?? {})).toEqual(["apiKey"]);
      expect(e.message).not.toContain("12345678901234");
    }
  });

  it("property: any string as key builds a client or throws an InvalidInputError that never shows it", () => {
    const keys = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc
        .tuple(
          fc.string({ unit: "grapheme-ascii", minLength: 2, maxLength: 20 }),
          fc.constantFrom("\t", "\r", "\n", "\u0000", "\u007f", "\u00a0", "😀", "\u2028", "\ud800"),
          fc.string({ unit: "grapheme-ascii", minLength: 2, maxLength: 20 }),
        )
        .map(([a, bad, b]) => a + bad + b),
    );
    // Text also in the same error built with a neutral key is the error's own wording, not an echo.
    const ownWording = (bad: boolean) =>
      renderings(thrown({ apiUrl: BASE.apiUrl, apiKey: "neutral", timeoutMs: bad ? -1 : 0 })).join("\n");
    fc.assert(
      fc.property(keys, fc.boolean(), (apiKey, badOption) => {
        const error = thrown({ apiUrl: BASE.apiUrl, apiKey, ...(badOption ? { timeoutMs: -1 } : {}) });
        const own = [ownWording(true), ownWording(false)];
        if (error === undefined) return;
        expect(error).toBeInstanceOf(InvalidInputError);
        for (const secret of [apiKey, apiKey.trim()]) {
          if (secret.length >= 4 && !own.some((text) => text.includes(secret))) expectNoEcho(error, secret);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("a key put in the wrong place is never echoed", () => {
  const placements: [string, string][] = [
    ["in the path", `https://api.example.com/${KEY}`],
    ["in the path, with a query", `https://api.example.com/${KEY}?page=1`],
    ["as a fragment", `https://api.example.com/#${KEY}`],
    ["as a query value", `https://api.example.com/?k=${KEY}`],
    ["as a query name", `https://api.example.com/?${KEY}`],
    ["as user-info", `https://${KEY}@api.example.com`],
    ["as user:password", `https://user:${KEY}@api.example.com`],
    ["over plain http", `http://api.example.com/${KEY}`],
    ["as an ftp path", `ftp://api.example.com/${KEY}`],
  ];

  it.each(placements)(
    "%s: with the key as apiKey, with another key and a wrong option, with no key",
    (_name, apiUrl) => {
      const e = thrown({ apiUrl, apiKey: KEY }) as InvalidInputError;
      expect(e.code).toBe("invalid_api_url");
      expect(Object.keys(e.fields ?? {})).toEqual(["apiUrl"]);
      expectNoEcho(e, KEY);
      expectNoEcho(thrown({ apiUrl, apiKey: "another-key-value", timeoutMs: -1 }), KEY);
      expectNoEcho(thrown({ apiUrl }), KEY);
    },
  );

  it("a URL holding the key is refused saying so; a query and a fragment are named, not shown", () => {
    expect((thrown({ apiUrl: `https://api.example.com/${KEY}`, apiKey: KEY }) as Error).message).toMatch(
      /the API URL contains the API key; give the key only as apiKey/,
    );
    expect(
      (thrown({ apiUrl: `https://api.example.com/base?k=${KEY}#${KEY}`, apiKey: "x-other" }) as Error)
        .message,
    ).toContain('the API URL "https://api.example.com/base" has a query (?…) and a fragment (#…)');
  });

  it("URL and key swapped: neither is echoed, and the hint says they look swapped", () => {
    const e = thrown({ apiUrl: KEY, apiKey: "https://api.example.com" }) as InvalidInputError;
    expect(e.code).toBe("invalid_api_url");
    expect(e.message).toContain(`is not a valid absolute URL (${KEY.length} characters`);
    expect(e.message).toContain("were apiUrl and apiKey swapped?");
    expectNoEcho(e, KEY.slice(0, 12));
  });

  it("a key-like apiUrl of another scheme is hidden; the URL is checked before the key", () => {
    for (const apiUrl of [`sk:${KEY}`, `key.${KEY}:x`, `${KEY}:${KEY}`])
      expectNoEcho(thrown({ apiUrl, apiKey: "whatever-key" }), KEY);
    expectNoEcho(thrown({ apiUrl: `https://${KEY}@api.example.com`, apiKey: `${KEY}\n${KEY}` }), KEY);
  });
});
