import { NodeServiceClient, NotFoundError, UnauthorizedError } from "../../src/api";
import { createApiError } from "../../src/api/errors";
import {
  overridesEnvKey,
  PLAIN_TEXT_KEY,
  ConfigReader,
  readCallSettings,
  resolveSettings,
  reviewStackConfig,
  SettingSource,
  SettingsError,
  stackConfigWarnings,
  UNKNOWN,
  withClient,
  settingFix,
  withSettingHints,
} from "../../src/settings";

const config = (values: Record<string, string>) => (key: string) => values[key];

describe("resolveSettings", () => {
  test("arguments beat stack config, which beats the environment", () => {
    const env = { BLOCKCHAIN_API_URL: "https://env.example", BLOCKCHAIN_API_KEY: "env-key" };
    const cfg = config({ "blockchain:apiUrl": "https://config.example", "blockchain:apiKey": "config-key" });
    expect(resolveSettings({ apiUrl: "https://arg.example", apiKey: "arg-key" }, cfg, env)).toEqual({
      apiUrl: "https://arg.example",
      apiKey: "arg-key",
      sources: { apiUrl: "argument", apiKey: "argument" },
    });
    expect(resolveSettings({}, cfg, env)).toMatchObject({
      apiUrl: "https://config.example",
      apiKey: "config-key",
    });
    expect(resolveSettings({}, config({}), env)).toMatchObject({
      apiUrl: "https://env.example",
      apiKey: "env-key",
      sources: { apiUrl: "environment", apiKey: "environment" },
    });
    expect(resolveSettings({ apiKey: "arg-key" }, cfg, env).sources).toEqual({
      apiUrl: "stack config",
      apiKey: "argument",
    });
  });

  test("empty values do not count as set", () => {
    const env = { BLOCKCHAIN_API_URL: "https://env.example", BLOCKCHAIN_API_KEY: "env-key" };
    expect(
      resolveSettings({ apiUrl: "", apiKey: "  " }, config({ "blockchain:apiKey": "" }), env),
    ).toMatchObject({
      apiUrl: "https://env.example",
      apiKey: "env-key",
    });
  });

  test("a missing key names the exact command that sets it, and the URL too", () => {
    const run = () => resolveSettings({}, config({}), {});
    expect(run).toThrow(SettingsError);
    expect(run).toThrow(/pulumi config set --secret blockchain:apiKey <key>/);
    expect(run).toThrow(/pulumi config set blockchain:apiUrl https:\/\//);
    expect(() => resolveSettings({ apiUrl: "https://x.example" }, config({}), {})).toThrow(/^No API key/);
  });
});

describe("withClient: the one connection path", () => {
  const env = { BLOCKCHAIN_API_URL: "https://env.example", BLOCKCHAIN_API_KEY: "env-key" };
  const saved = { url: process.env.BLOCKCHAIN_API_URL, key: process.env.BLOCKCHAIN_API_KEY };
  beforeAll(() => Object.assign(process.env, env));
  afterAll(() => {
    for (const [name, value] of [
      ["BLOCKCHAIN_API_URL", saved.url],
      ["BLOCKCHAIN_API_KEY", saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("unknown arguments (preview) fall back to stack config; one client per URL and key", async () => {
    const cfg = config({ "blockchain:apiUrl": "https://config.example", "blockchain:apiKey": "config-key" });
    const seen: NodeServiceClient[] = [];
    await withClient({ apiUrl: UNKNOWN, apiKey: UNKNOWN }, cfg, async (c) => void seen.push(c));
    await withClient({}, cfg, async (c) => void seen.push(c));
    await withClient({}, undefined, async (c) => void seen.push(c));
    expect(seen[0].apiUrl).toMatch(/^https:\/\/config\.example/);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).not.toBe(seen[0]);
    expect(seen[2].apiUrl).toMatch(/^https:\/\/env\.example/);
  });

  test("a missing setting fails before `use` runs, naming the command that sets it", async () => {
    let ran = false;
    delete process.env.BLOCKCHAIN_API_KEY;
    try {
      const run = withClient({ apiUrl: "https://x.example" }, config({}), async () => {
        ran = true;
      });
      await expect(run).rejects.toThrow(SettingsError);
      await expect(run).rejects.toThrow(/pulumi config set --secret blockchain:apiKey <key>/);
    } finally {
      process.env.BLOCKCHAIN_API_KEY = env.BLOCKCHAIN_API_KEY;
    }
    expect(ran).toBe(false);
  });
});

describe("withSettingHints: a refused key says where it came from and how to set it there", () => {
  const refused = () =>
    new UnauthorizedError({
      operation: "getNode",
      resourceId: "ND-1-2-3",
      code: "unauthorized",
      detail: "bad key",
    });
  const sources = (apiKey: SettingSource) => ({ apiUrl: "stack config" as const, apiKey });

  test.each([
    [
      "stack config",
      /stack config blockchain:apiKey: set the right one with `pulumi config set --secret blockchain:apiKey <key>`/,
    ],
    ["environment", /environment variable BLOCKCHAIN_API_KEY: (export the right one|update the CI secret)/],
    ["argument", /the apiKey argument: pass the right key/],
  ] as const)("key from %s", (source, hint) => {
    const error = refused();
    const hinted = withSettingHints(error, sources(source));
    expect(hinted).toBe(error);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.kind).toBe("unauthorized");
    expect(error.message).toMatch(/^getNode ND-1-2-3: unauthorized: bad key/);
    expect(error.message).toMatch(hint);
    expect(error.stack).toMatch(hint);
    expect(error.toJSON().message).toMatch(hint);
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

describe("call settings: timeoutMs, deadlineMs, maxRetries", () => {
  test("arguments beat stack config, which beats the environment; unset ones are left to the client's defaults", () => {
    expect(
      readCallSettings(
        { timeoutMs: 1000 },
        config({ "blockchain:timeoutMs": "2000", "blockchain:deadlineMs": "30000" }),
        { BLOCKCHAIN_TIMEOUT_MS: "3000", BLOCKCHAIN_DEADLINE_MS: "40000", BLOCKCHAIN_MAX_RETRIES: "2" },
      ),
    ).toEqual({ values: { timeoutMs: 1000, deadlineMs: 30000, maxRetries: 2 }, problems: [] });
    expect(readCallSettings({}, config({}), {})).toEqual({ values: {}, problems: [] });
  });

  test("a wrong value names the setting, where it came from and how to set it there", () => {
    const problems = (args: object, cfg: ConfigReader | undefined, env: NodeJS.ProcessEnv) =>
      readCallSettings(args, cfg, env).problems.map(({ name, source, reason }) => ({
        name,
        source,
        fix: reason.slice(reason.lastIndexOf(": ") + 2),
      }));
    expect(problems({}, config({}), { BLOCKCHAIN_MAX_RETRIES: "many" })).toEqual([
      { name: "maxRetries", source: "environment", fix: "export BLOCKCHAIN_MAX_RETRIES=8." },
    ]);
    expect(problems({}, config({ "blockchain:deadlineMs": "0" }), {})).toEqual([
      {
        name: "deadlineMs",
        source: "stack config",
        fix: "set it with `pulumi config set blockchain:deadlineMs 120000`.",
      },
    ]);
    expect(problems({ timeoutMs: Number.NaN }, undefined, {})).toMatchObject([
      { name: "timeoutMs", source: "argument" },
    ]);
  });

  test("the limit that ran out is named with where a Pulumi user sets it", () => {
    const error = createApiError({
      kind: "timeout",
      code: "deadline_exceeded",
      operation: "getNodes",
      detail: "the overall deadline of 60000 ms passed",
      hint: "Raise deadlineMs.",
      limit: "deadlineMs",
    });
    const hinted = withSettingHints(error, { apiUrl: "stack config", apiKey: "stack config" }) as Error;
    expect(hinted).toBe(error);
    expect(hinted.message).toContain("pulumi config set blockchain:deadlineMs");
    expect(hinted.message).toContain("BLOCKCHAIN_DEADLINE_MS");
  });
});

describe("the stack config as a whole", () => {
  const KEY = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";

  test("a key that is no setting is named with the setting it resembles; other namespaces are not looked at", () => {
    const warnings = stackConfigWarnings({
      "blockchain:timeoutms": "5000",
      "blockchain:colour": "blue",
      "aws:region": "x",
    });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^stack config blockchain:timeoutms: unknown setting; did you mean `timeoutMs`\?/,
      ),
      expect.stringMatching(/^stack config blockchain:colour: unknown setting Known: `apiUrl`, `apiKey`/),
    ]);
    expect(warnings[1]).not.toMatch(/did you mean/);
  });

  test("an API key in plain text refuses every call, naming the command and the rotation, never the key; an encrypted one passes", () => {
    const runtime = (secret: boolean) => ({
      allConfig: () => ({ "blockchain:apiKey": KEY }),
      isConfigSecret: () => secret,
    });
    for (let i = 0; i < 2; i++) {
      const error = (() => {
        try {
          reviewStackConfig(runtime(false), () => undefined);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(SettingsError);
      expect(error?.message).toBe(PLAIN_TEXT_KEY);
      expect(error?.message).not.toContain(KEY);
    }
    expect(() => reviewStackConfig(runtime(true), () => undefined)).not.toThrow();
  });

  test("the environment's key counts as overridden only when it differs from the stack config's", () => {
    const env = { BLOCKCHAIN_API_KEY: "env-key" };
    expect(overridesEnvKey({ value: "config-key", source: "stack config" }, env)).toBe(true);
    expect(overridesEnvKey({ value: "env-key", source: "stack config" }, env)).toBe(false);
    expect(overridesEnvKey({ value: "arg-key", source: "argument" }, env)).toBe(false);
    expect(overridesEnvKey({ value: "config-key", source: "stack config" }, {})).toBe(false);
  });
});

test("a setting from the environment: the fix a CI job can apply (its secret), else the shell's", () => {
  const inCi = settingFix("apiKey", "environment", false, { CI: "true" });
  const inShell = settingFix("apiKey", "environment", false, {});
  expect(inCi).toContain("BLOCKCHAIN_API_KEY");
  expect(inShell).toContain("BLOCKCHAIN_API_KEY");
  expect(inCi).toMatch(/CI secret/);
  expect(inCi).not.toMatch(/export/);
  expect(inShell).toMatch(/export/);
  expect(settingFix("apiKey", "environment", false, { CI: "false" })).toBe(inShell);
});
