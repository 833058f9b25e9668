/** Client options, the API URL and the settings read for a call: each refusal names its field, never a key. */
import util from "node:util";
import fc from "fast-check";
import {
  InvalidInputError,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  NodeServiceClient,
  NodeServiceClientOptions,
  NotFoundError,
  UnauthorizedError,
} from "../../src/api";
import { checkOptions } from "../../src/api/options";
import { apiUrl, checkApiUrl, isLoopbackHost, parseApiUrl } from "../../src/api/url";
import {
  ConfigReader,
  overridesEnvKey,
  readCallSettings,
  inspectCall,
  reviewStackConfig,
  SettingSource,
  SettingsError,
  settingFix,
  stackConfigWarnings,
  UNKNOWN,
  withClient,
  withSettingHints,
} from "../../src/settings";
import { HEX_KEY as KEY, holds } from "../helpers/arbitraries";
import { recordingFetch, rejection } from "../helpers/client";
import { withEnv } from "../helpers/env";

const BASE = { apiUrl: "https://api.example.com", apiKey: KEY };
const config = (values: Record<string, string>) => (key: string) => values[key];

function thrown(options: unknown): InvalidInputError {
  try {
    new NodeServiceClient(options as NodeServiceClientOptions);
  } catch (error) {
    return error as InvalidInputError;
  }
  return undefined as never;
}

/** Every way an error ends up in a log. */
const renderings = (error: Error) => [
  error.message,
  String(error.stack),
  String(error),
  JSON.stringify(error),
  util.inspect(error, { depth: 10, showHidden: true }),
];

function expectNoEcho(error: Error, secret: string): void {
  for (const text of renderings(error)) expect(text).not.toContain(secret);
}

/** The error of a client built with `extra` options: an InvalidInputError, nothing sent, the key not shown. */
function refusal(extra: Record<string, unknown>, field?: string): InvalidInputError {
  const e = thrown({ ...BASE, ...extra });
  expect(e).toBeInstanceOf(InvalidInputError);
  expect(e.attempts).toBe(0);
  expectNoEcho(e, KEY);
  if (field) expect(Object.keys(e.fields ?? {})).toEqual([field]);
  return e;
}

describe("option values", () => {
  const BAD: Record<string, unknown[]> = {
    timeoutMs: [Infinity, MAX_TIMER_MS + 1, NaN, 0, "30000", null],
    deadlineMs: [2 ** 32, -5, -Infinity],
    "retry.baseDelayMs": [-1, Infinity],
    "retry.maxDelayMs": ["8000"],
    "retry.maxRetries": [-1, 1.5, MAX_RETRIES_LIMIT + 1, "3"],
    maxRequestsPerSecond: [NaN, -5, "10", 1e-10],
    maxConcurrentRequests: [0, 1.5, Infinity],
    fetch: ["x"],
    onWait: [5],
  };
  it.each(Object.entries(BAD).flatMap(([field, values]) => values.map((value) => [field, value] as const)))(
    "%s = %p is refused, naming it",
    (field, value) => {
      const extra = field.startsWith("retry.") ? { retry: { [field.slice(6)]: value } } : { [field]: value };
      const e = refusal(extra, field);
      expect(e.code).toBe("invalid_option");
      expect(e.fields?.[field]).toEqual([expect.stringMatching(/^got /)]);
    },
  );

  it.each([
    ["timeoutMs", Infinity],
    ["timeoutMs", MAX_TIMER_MS + 1],
    ["deadlineMs", 2 ** 32],
  ])("%s = %p: the refusal gives the maximum", (field, value) => {
    expect(refusal({ [field]: value }, field).fields?.[field][0]).toContain(String(MAX_TIMER_MS));
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
      fetch: [expect.stringMatching(/^got \{\}; /)],
    });
  });

  it("retry must be an object or false; the options an object, a string given as options not echoed", () => {
    for (const retry of [true, 3, "yes", null, []]) refusal({ retry }, "retry");
    for (const options of [undefined, null, 42, [], KEY]) {
      const e = thrown(options);
      expect(e.fields).toHaveProperty("options");
      expectNoEcho(e, KEY);
    }
  });

  it("defaults are filled in, given values win, and the key is in no data property", () => {
    const defaults = checkOptions(BASE);
    expect(defaults).toMatchObject({
      timeoutMs: 20_000,
      deadlineMs: 60_000,
      maxAttempts: 5,
      maxRequestsPerSecond: 0,
      maxConcurrentRequests: 8,
    });
    expect(defaults.authorization()).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(defaults)).not.toContain(KEY);
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

  it("a 1 MB name filter, API URL or API key is refused before anything is sent, naming it and its size", async () => {
    const { fetch, calls } = recordingFetch();
    const client = new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey: "k-123456", fetch });
    const e = (await client
      .listAllNodes({ name: "n".repeat(1 << 20) }, { limit: 10 })
      .catch((x) => x)) as InvalidInputError;
    expect(e).toBeInstanceOf(InvalidInputError);
    expect(e.fields?.name?.[0]).toContain("1048576");
    const url = thrown({ apiUrl: `https://api.example.com/${"p".repeat(1 << 20)}`, apiKey: "k-123456" });
    expect(url.fields?.apiUrl?.[0]).toContain("2048");
    const key = thrown({ apiUrl: "https://api.example.com", apiKey: "k".repeat(1 << 20) });
    expect(key.fields?.apiKey?.[0]).toMatch(/1048576.*1024/);
    expect(calls).toEqual([]);
  });
});

describe("option names", () => {
  it("a typo is refused with the option it resembles; retry settings too", () => {
    expect(refusal({ timeoutMS: 5000 }, "timeoutMS").fields?.timeoutMS[0]).toContain("timeoutMs?");
    expect(refusal({ retry: { maxRetry: 3 } }, "retry.maxRetry").message).toContain("retry.maxRetries?");
    expect(refusal({ apiUrl: undefined, apiURL: BASE.apiUrl }).fields?.apiURL[0]).toContain("apiUrl?");
  });

  it("options only tests ever set are unknown", () => {
    for (const name of ["sleep", "now", "random", "maxResponseBytes"]) refusal({ [name]: 1 }, name);
    refusal({ retry: { jitter: false } }, "retry.jitter");
  });

  it("an unknown option's value is never shown; Object.prototype names are unknown; inherited values are not read", () => {
    expect(refusal({ token: "sk-other-secret-0123456789" }).message).not.toContain("sk-other-secret");
    const e = refusal(JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3}'));
    expect(Object.keys(e.fields ?? {}).sort()).toEqual(["__proto__", "constructor", "toString"]);
    expect(() => new NodeServiceClient(Object.assign(Object.create({ timeoutMs: -1 }), BASE))).not.toThrow();
  });
});

describe("the API key", () => {
  it.each([
    ["a tab", `${KEY.slice(0, 11)}\t${KEY.slice(11)}`, 12],
    ["a CR", `${KEY.slice(0, 4)}\r${KEY.slice(4)}`, 5],
    ["a LF", `${KEY.slice(0, 4)}\n${KEY.slice(4)}`, 5],
    ["a NUL", `${KEY}\u0000x`, 33],
    ["a DEL", `${KEY.slice(0, 2)}\u007f${KEY.slice(2)}`, 3],
    ["a no-break space", `${KEY.slice(0, 8)}\u00a0${KEY.slice(8)}`, 9],
    ["an emoji", `🔑${KEY}`, 1],
    ["a zero-width space", `${KEY.slice(0, 3)}\u200b${KEY.slice(3)}`, 4],
    ["a lone surrogate", `${KEY}\ud800`, 33],
  ])("with %s is refused, saying where (position %#), never showing it", (_name, apiKey, position) => {
    const e = thrown({ apiUrl: BASE.apiUrl, apiKey });
    expect(e.code).toBe("invalid_api_key");
    expect(Object.keys(e.fields ?? {})).toEqual(["apiKey"]);
    expect(e.fields?.apiKey[0]).toMatch(new RegExp(`position ${position}\\b`));
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
    ])
      expect(() => new NodeServiceClient({ apiUrl: BASE.apiUrl, apiKey })).not.toThrow();
    for (const apiKey of ["", "   ", undefined, null, 12345678901234, ["k"]]) {
      const e = thrown({ apiUrl: BASE.apiUrl, apiKey });
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
    // Text also in the same error built with a neutral key is the error's own wording, not an echo
    // (built in the property too, so that its stack holds the same frames, e.g. fast-check's `Property`).
    const ownWording = (bad: boolean) =>
      renderings(thrown({ apiUrl: BASE.apiUrl, apiKey: "neutral", timeoutMs: bad ? -1 : 0 })).join("\n");
    holds({ numRuns: 300, examples: [["rope", true]] }, keys, fc.boolean(), (apiKey, badOption) => {
      const own = [ownWording(true), ownWording(false)];
      const error = thrown({ apiUrl: BASE.apiUrl, apiKey, ...(badOption ? { timeoutMs: -1 } : {}) });
      if (error === undefined) return;
      expect(error).toBeInstanceOf(InvalidInputError);
      for (const secret of [apiKey, apiKey.trim()]) {
        if (secret.length >= 4 && !own.some((text) => text.includes(secret))) expectNoEcho(error, secret);
      }
    });
  });
});

describe("a key put in the wrong place is never echoed", () => {
  it.each([
    ["in the path", `https://api.example.com/${KEY}`, []],
    [
      "in the path, with a query",
      `https://api.example.com/${KEY}?page=1`,
      ['"https://api.example.com/[REDACTED]"'],
    ],
    ["as a fragment", `https://api.example.com/p#${KEY}`, ['"https://api.example.com/p"', "(#…)"]],
    ["as a query value", `https://api.example.com/?k=${KEY}`, ['"https://api.example.com/"', "(?…)"]],
    ["as a query name and a fragment", `https://api.example.com/p?${KEY}#${KEY}`, ["(?…)", "(#…)"]],
    ["as user-info", `https://${KEY}@api.example.com/p`, ['"https://api.example.com/p"', "credentials"]],
    [
      "as user:password",
      `https://u:${KEY}@api.example.com/p?x=1`,
      ['"https://api.example.com/p"', "credentials"],
    ],
    ["over plain http", `http://api.example.com/?k=${KEY}`, ["https://api.example.com ("]],
    ["as an ftp path", `ftp://api.example.com/${KEY}`, ["ftp:"]],
  ])(
    "%s: not in checkApiUrl's reason, nor with the key as apiKey, another key and a wrong option, no key",
    (_name, apiUrl, tokens) => {
      const reason = checkApiUrl(apiUrl) ?? "";
      for (const token of tokens) expect(reason).toContain(token);
      expect(reason).not.toContain(KEY);
      const e = thrown({ apiUrl, apiKey: KEY });
      expect(e.code).toBe("invalid_api_url");
      expect(Object.keys(e.fields ?? {})).toEqual(["apiUrl"]);
      expectNoEcho(e, KEY);
      expectNoEcho(thrown({ apiUrl, apiKey: "another-key-value", timeoutMs: -1 }), KEY);
      expectNoEcho(thrown({ apiUrl }), KEY);
    },
  );

  it("a URL holding the key says so; a query and a fragment are named, not shown", () => {
    expect(thrown({ apiUrl: `https://api.example.com/${KEY}`, apiKey: KEY }).fields?.apiUrl[0]).toContain(
      "apiKey",
    );
    const e = thrown({ apiUrl: `https://api.example.com/base?k=${KEY}#${KEY}`, apiKey: "x-other" });
    expect(e.fields?.apiUrl[0]).toMatch(/"https:\/\/api\.example\.com\/base".*\(\?…\).*\(#…\)/);
  });

  it("URL and key swapped: neither is echoed, and the refusal names both settings", () => {
    const e = thrown({ apiUrl: KEY, apiKey: "https://api.example.com" });
    expect(e.code).toBe("invalid_api_url");
    expect(e.fields?.apiUrl[0]).toContain(`(${KEY.length} characters`);
    expect(e.message).toMatch(/apiUrl and apiKey/);
    expectNoEcho(e, KEY.slice(0, 12));
  });

  it("a key-like apiUrl of another scheme is hidden; the URL is checked before the key", () => {
    for (const apiUrl of [`sk:${KEY}`, `key.${KEY}:x`, `${KEY}:${KEY}`])
      expectNoEcho(thrown({ apiUrl, apiKey: "whatever-key" }), KEY);
    expectNoEcho(thrown({ apiUrl: `https://${KEY}@api.example.com`, apiKey: `${KEY}\n${KEY}` }), KEY);
  });
});

describe("API URL rules", () => {
  it.each([
    "https://api.example.com",
    "https://10.0.0.1:8443/",
    "https://localhost",
    "http://localhost:8080",
    "http://127.0.0.1:1234",
    "http://127.45.6.7/",
    "http://[::1]:9000",
    "http://LOCALHOST",
  ])("accepts %s (plain http on loopback only)", (url) => {
    expect(checkApiUrl(url)).toBeUndefined();
  });

  it.each([
    ["http://api.example.com", "https://"],
    ["http://10.0.0.1", "https://"],
    ["http://128.0.0.1", "https://"],
    ["http://localhost.evil.com", "https://"],
    ["not a url", "(9 characters"],
    ["x", "(1 character, not shown"],
    ["api.example.com", "(15 characters"],
    ["https://", "(8 characters"],
    ["ftp://api.example.com", "ftp:"],
    ["https://api.example.com/?x=1", "(?…)"],
    [42, "a number"],
    [["https://api.example.com"], "an array"],
    ["", "missing"],
    [undefined, "missing"],
  ])("refuses %p, saying %p", (url, token) => {
    expect(checkApiUrl(url)).toContain(token);
  });

  it("loopback detection", () => {
    expect(["localhost", "127.0.0.1", "127.255.255.254", "[::1]"].every(isLoopbackHost)).toBe(true);
    expect(["128.0.0.1", "127.0.0", "example.com", "::1x"].some(isLoopbackHost)).toBe(false);
  });

  it.each([
    ["https://api.example.com/platform/", "/v1/nodes/", "https://api.example.com/platform/v1/nodes/"],
    ["https://api.example.com/", "/v1/nodes/", "https://api.example.com/v1/nodes/"],
    ["https://api.example.com/v1", "/v1/nodes/", "https://api.example.com/v1/nodes/"],
    ["https://api.example.com/platform/v1/", "/v1/nodes/", "https://api.example.com/platform/v1/nodes/"],
  ])("%s keeps its path prefix (a /v1 suffix too) and drops a trailing slash: %s", (base, path, url) => {
    expect(apiUrl(parseApiUrl(base), path)).toBe(url);
  });

  it("parses origin, base path and href; appends a query", () => {
    const base = parseApiUrl("https://api.example.com/platform/");
    expect(base).toEqual({
      origin: "https://api.example.com",
      basePath: "/platform",
      href: "https://api.example.com/platform",
    });
    expect(apiUrl(base, "/v1/nodes/", "page=2")).toBe("https://api.example.com/platform/v1/nodes/?page=2");
  });

  it("a host name DNS cannot carry is refused, without quoting it; a plain-http hint shows no key", async () => {
    expect(() => parseApiUrl(`https://${"a".repeat(300)}.com`)).toThrow(/\(304 characters/);
    expect(() => parseApiUrl(`https://${"b".repeat(64)}.example.com`)).toThrow(/\b63\b/);
    expect(parseApiUrl(`https://${"c".repeat(63)}.example.com`).origin).toContain("ccc");
    const { message } = (await rejection(() => parseApiUrl(`http://${KEY}.example.com/`))) as Error;
    expect(message).toContain("https://");
    expect(message).not.toContain(KEY);
  });
});

const env = { BLOCKCHAIN_API_URL: "https://env.example", BLOCKCHAIN_API_KEY: "env-key" };
const cfg = config({ "blockchain:apiUrl": "https://config.example", "blockchain:apiKey": "config-key" });

describe("settings: arguments beat stack config, which beats the environment", () => {
  /** The one reading of a call's settings, as a function call makes it (blank arguments count as not set). */
  const resolveSettings = (args: object, c: ConfigReader, e: NodeJS.ProcessEnv) =>
    inspectCall({ ...args }, c, e, false).settings;

  test("each value and its source; empty values do not count as set", () => {
    expect(resolveSettings({ apiUrl: "https://arg.example", apiKey: "arg-key" }, cfg, env)).toMatchObject({
      apiUrl: "https://arg.example",
      apiKey: "arg-key",
      sources: { apiUrl: "argument", apiKey: "argument" },
    });
    expect(resolveSettings({ apiKey: "arg-key" }, cfg, env)).toMatchObject({
      apiUrl: "https://config.example",
      apiKey: "arg-key",
      sources: { apiUrl: "stack config", apiKey: "argument" },
    });
    expect(resolveSettings({}, config({}), env)).toMatchObject({
      ...{ apiUrl: "https://env.example", apiKey: "env-key" },
      sources: { apiUrl: "environment", apiKey: "environment" },
    });
    const blank = resolveSettings({ apiUrl: "", apiKey: "  " }, config({ "blockchain:apiKey": "" }), env);
    expect(blank).toMatchObject({ apiUrl: "https://env.example", apiKey: "env-key" });
  });

  test("call settings: timeoutMs, deadlineMs, maxRetries; unset ones are left to the client's defaults", () => {
    expect(
      readCallSettings(
        { timeoutMs: 1000 },
        config({ "blockchain:timeoutMs": "2000", "blockchain:deadlineMs": "30000" }),
        { BLOCKCHAIN_TIMEOUT_MS: "3000", BLOCKCHAIN_DEADLINE_MS: "40000", BLOCKCHAIN_MAX_RETRIES: "2" },
      ),
    ).toEqual({ values: { timeoutMs: 1000, deadlineMs: 30000, maxRetries: 2 }, problems: [] });
    expect(readCallSettings({}, config({}), {})).toEqual({ values: {}, problems: [] });
  });

  test("a wrong call setting names the setting, its source and the fix there", () => {
    const problems = (args: object, c: ConfigReader | undefined, e: NodeJS.ProcessEnv) =>
      readCallSettings(args, c, e).problems;
    const [fromEnv] = problems({}, config({}), { BLOCKCHAIN_MAX_RETRIES: "many" });
    expect(fromEnv).toMatchObject({ name: "maxRetries", source: "environment" });
    expect(fromEnv.reason).toContain("BLOCKCHAIN_MAX_RETRIES=8");
    const [fromConfig] = problems({}, config({ "blockchain:deadlineMs": "0" }), {});
    expect(fromConfig).toMatchObject({ name: "deadlineMs", source: "stack config" });
    expect(fromConfig.reason).toContain("blockchain:deadlineMs 120000");
    expect(problems({ timeoutMs: Number.NaN }, undefined, {})).toMatchObject([
      { name: "timeoutMs", source: "argument" },
    ]);
  });

  test("an environment setting's fix: the CI secret in CI, else the shell's export", () => {
    const inCi = settingFix("apiKey", "environment", false, { CI: "true" });
    const inShell = settingFix("apiKey", "environment", false, {});
    for (const fix of [inCi, inShell]) expect(fix).toContain("BLOCKCHAIN_API_KEY");
    expect(inCi).toContain("CI secret");
    expect(inCi).not.toContain("export");
    expect(inShell).toContain("export");
    expect(settingFix("apiKey", "environment", false, { CI: "false" })).toBe(inShell);
  });

  test("the environment's key counts as overridden only when it differs from the stack config's", () => {
    expect(overridesEnvKey({ value: "config-key", source: "stack config" }, env)).toBe(true);
    expect(overridesEnvKey({ value: "env-key", source: "stack config" }, env)).toBe(false);
    expect(overridesEnvKey({ value: "arg-key", source: "argument" }, env)).toBe(false);
    expect(overridesEnvKey({ value: "config-key", source: "stack config" }, {})).toBe(false);
  });
});

describe("withClient: the one connection path", () => {
  withEnv(env);

  test("unknown arguments (preview) fall back to stack config; one client per URL and key", async () => {
    const seen: NodeServiceClient[] = [];
    await withClient({ apiUrl: UNKNOWN, apiKey: UNKNOWN }, cfg, async (c) => void seen.push(c));
    await withClient({}, cfg, async (c) => void seen.push(c));
    await withClient({}, undefined, async (c) => void seen.push(c));
    expect(seen[0].apiUrl).toMatch(/^https:\/\/config\.example/);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).not.toBe(seen[0]);
    expect(seen[2].apiUrl).toMatch(/^https:\/\/env\.example/);
  });

  describe("with no key in the environment", () => {
    withEnv({ BLOCKCHAIN_API_KEY: undefined });
    test("a missing setting fails before `use` runs, naming the command that sets it", async () => {
      let ran = false;
      const run = withClient({ apiUrl: "https://x.example" }, config({}), async () => void (ran = true));
      await expect(run).rejects.toThrow(SettingsError);
      await expect(run).rejects.toThrow("--secret blockchain:apiKey");
      expect(ran).toBe(false);
    });
  });
});

describe("withSettingHints", () => {
  const sources = (apiKey: SettingSource) => ({ apiUrl: "stack config" as const, apiKey });

  test.each([
    ["stack config", "`pulumi config set --secret blockchain:apiKey <key>`"],
    ["environment", "BLOCKCHAIN_API_KEY"],
    ["argument", "apiKey argument"],
  ] as const)("a refused key from %s says where it came from, in message, stack and JSON", (source, hint) => {
    const error = new UnauthorizedError({
      operation: "getNode",
      resourceId: "ND-1-2-3",
      code: "unauthorized",
      detail: "bad key",
    });
    expect(withSettingHints(error, sources(source))).toBe(error);
    expect(error).toMatchObject({ kind: "unauthorized", operation: "getNode", resourceId: "ND-1-2-3" });
    expect(error.message).toMatch(/^getNode ND-1-2-3: /);
    for (const text of [error.message, error.stack, error.toJSON().message]) expect(text).toContain(hint);
  });

  test("other errors are left as they are", () => {
    const notFound = new NotFoundError({ operation: "getNode", code: "not_found", detail: "gone" });
    const before = notFound.message;
    expect(withSettingHints(notFound, sources("stack config"))).toBe(notFound);
    expect(notFound.message).toBe(before);
    const plain = new Error("x");
    expect(withSettingHints(plain, sources("environment"))).toBe(plain);
    expect(plain.message).toBe("x");
  });
});

describe("the stack config as a whole", () => {
  const SECRET = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";

  // Names a mistyped key with the setting it resembles, only in blockchain:*: test/program/stack-config.test.ts.
  test("a key that is no setting and resembles none is named without a guess", () => {
    expect(stackConfigWarnings({ "blockchain:colour": "blue" })).toEqual([
      expect.stringMatching(/^stack config blockchain:colour: (?!.*did you mean)/),
    ]);
  });

  test("an API key in plain text is refused, naming the command, never the key; an encrypted one passes", async () => {
    const runtime = (secret: boolean) => ({
      allConfig: () => ({ "blockchain:apiKey": SECRET }),
      isConfigSecret: () => secret,
    });
    const error = (await rejection(() => reviewStackConfig(runtime(false), () => undefined))) as Error;
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message).toContain("--secret blockchain:apiKey");
    expect(error.message).not.toContain(SECRET);
    expect(() => reviewStackConfig(runtime(true), () => undefined)).not.toThrow();
  });
});
