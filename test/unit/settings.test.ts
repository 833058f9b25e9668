import { resolveSettings, SettingsError } from "../../src/settings";

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
    expect(run).toThrow(/BLOCKCHAIN_API_KEY/);
    expect(() => resolveSettings({ apiUrl: "https://x.example" }, config({}), {})).toThrow(/^No API key/);
  });
});
