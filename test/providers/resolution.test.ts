/**
 * Each call reads its settings once: a Network check (with its key probe and existence read),
 * create, read, update and delete, and a plugin invoke. getNodeOutput's and getNodes' count is in
 * test/program/functions.test.ts.
 */
import * as net from "../../src/provider/network";
import { setProviderConfig } from "../../src/provider/calls";
import { configure, invoke } from "../../src/plugin/handlers";
import { SETTING_NAMES } from "../../src/settings";
import { withEmulator } from "../helpers/emulator";
import { withEnv } from "../helpers/env";

const emulator = withEmulator();
withEnv({ BLOCKCHAIN_API_URL: undefined, BLOCKCHAIN_API_KEY: undefined });
let reads: Record<string, number> = {};

/** The settings `values` (default: the emulator's) as stack config, every read of it counted. */
function countedConfig(
  values: Record<string, string> = { apiUrl: emulator().url, apiKey: emulator().apiKey },
) {
  setProviderConfig((fullKey) => {
    const name = fullKey.slice("blockchain:".length);
    reads[name] = (reads[name] ?? 0) + 1;
    return values[name];
  });
}

/** The reads since the last call, per setting. */
function taken(): Record<string, number> {
  const counted = reads;
  reads = {};
  return counted;
}

const ONCE = Object.fromEntries(SETTING_NAMES.map((n) => [n, 1]));

beforeEach(() => {
  countedConfig();
  taken();
});
afterAll(() => setProviderConfig(undefined));

test("a Network's check, create, read, update and delete each read every setting once", async () => {
  const id = emulator().fixtures.networkWithNodes;
  const checked = await net.checkNetwork(undefined, { networkId: id, name: "resolved-once" });
  expect(checked.failures).toEqual([]);
  expect(taken()).toEqual(ONCE);

  const { outs } = await net.createNetwork({ networkId: id, name: "resolved-once" });
  expect(outs.name).toBe("resolved-once");
  expect(taken()).toEqual(ONCE);

  const read = await net.readNetwork(id, outs);
  expect(read.id).toBe(id);
  expect(taken()).toEqual(ONCE);

  const updated = await net.updateNetwork(id, outs, { networkId: id, name: "resolved-twice" });
  expect(updated.outs.name).toBe("resolved-twice");
  expect(taken()).toEqual(ONCE);

  await net.deleteNetwork(id, { ...updated.outs, forceDestroy: false });
  // Forgetting sends nothing and reads no setting.
  expect(taken()).toEqual({});
});

test("a refused setting is reported once, in one check, with nothing sent", async () => {
  countedConfig({ apiUrl: "http://api.example.com", timeoutMs: "soon" });
  const checked = await net.checkNetwork(undefined, { networkId: emulator().fixtures.networkWithNodes });
  // The URL refused, the key missing, timeoutMs refused.
  expect(checked.failures.map((f) => f.property)).toEqual(["", "", ""]);
  expect(taken()).toEqual(ONCE);
});

test("a plugin invoke of getNodes reads every setting once", async () => {
  configure({});
  countedConfig();
  const result = await invoke("blockchain:index:getNodes", { network: emulator().fixtures.networkWithNodes });
  expect(Array.isArray(result.nodes)).toBe(true);
  expect(taken()).toEqual(ONCE);
});
