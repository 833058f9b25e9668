/** The `blockchain` plugin driven over gRPC as the engine drives it, against the emulator. */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../src/emulator";
import { withEmulator } from "../helpers/emulator";
import { withJournalDir } from "../helpers/env";
import {
  audit,
  failure,
  FAUCET_URN,
  GRPC_STATUS,
  isSecret,
  NETWORK_URN,
  PluginClient,
  pluginPool,
  Props,
  secret,
} from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
const RESOURCES = ["blockchain:index:Network", "blockchain:index:FaucetDrip"];
const FUNCTIONS = [
  "blockchain:index:getNode",
  "blockchain:index:getNodes",
  "blockchain:index:getNodeConnections",
];

/** No endpoint or credential field outside a secret, no emulator secret in a plain string. */
function expectNothingPlain(value: unknown): void {
  const { plainStrings, exposed } = audit(value);
  expect(exposed).toEqual([]);
  for (const s of emulator().secrets()) expect(plainStrings.filter((p) => p.includes(s))).toEqual([]);
}

/** A plain-text key, as a user may paste it where it does not belong. */
const KEY = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";

/** The one failure of `answer`, on no property, its reason starting with `starts` and holding `tokens`, never KEY. */
async function refused(answer: ReturnType<PluginClient["check"]>, starts: string, tokens: string[]) {
  const { failures } = await answer;
  expect(failures.map((f) => f.property)).toEqual([""]);
  expect(failures[0].reason.startsWith(starts)).toBe(true);
  for (const token of tokens) expect(failures[0].reason).toContain(token);
  expect(failures[0].reason).not.toContain(KEY);
  return failures[0].reason;
}

/** A failure with no stack trace, each of `tokens` in it. */
function expectNamed(details: string, ...tokens: string[]): void {
  expect(details).not.toMatch(/\n\s+at /);
  for (const token of tokens) expect(details).toContain(token);
}

const emulator = withEmulator({ pageSize: 5 });
let fixtures: RunningEmulator["fixtures"];
/** Every plugin started here, stopped after the tests; each is also audited for the API keys. */
const plugins = pluginPool();
afterAll(plugins.stop);
let plugin: PluginClient;
const config = () => ({ apiUrl: emulator().url, apiKey: secret(emulator().apiKey) });

beforeAll(async () => {
  fixtures = emulator().fixtures;
  plugin = await plugins.start(config());
});

test("GetPluginInfo answers the package's version; GetSchema exactly the committed schema.json", async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  expect(await plugin.getPluginInfo()).toEqual({ version: pkg.version });
  const schema = await plugin.getSchema();
  expect(schema).toBe(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
  expect(JSON.parse(schema).name).toBe("blockchain");
});

describe("provider config", () => {
  test("CheckConfig refuses a non-HTTPS remote apiUrl, naming apiUrl, and hands a key pasted into it back secret, never in plain; accepts the emulator's local URL", async () => {
    const bad = await plugin.checkConfig({ apiUrl: "http://example.com", apiKey: secret("some-key-123456") });
    expect(bad.failures.map((f) => f.property)).toEqual([""]);
    expect(bad.failures[0].reason).toMatch(/^apiUrl: .*https/i);
    const good = await plugin.checkConfig({ apiUrl: emulator().url, apiKey: secret("some-key-123456") });
    expect(good.failures).toEqual([]);
    expect(good.inputs).toEqual({ apiUrl: emulator().url, apiKey: secret("some-key-123456") });
    // A key passed in plain text (a YAML literal, say) comes back a secret, so state stores it encrypted.
    const plain = await plugin.checkConfig({ apiUrl: emulator().url, apiKey: "plain-key-123456" });
    expect(plain.inputs).toEqual({ apiUrl: emulator().url, apiKey: secret("plain-key-123456") });
    const pasted = await plugin.checkConfig({
      apiUrl: "http://example.com/plain-key-123456",
      apiKey: "plain-key-123456",
    });
    expect(pasted.failures.map((f) => f.property)).toEqual([""]);
    expect(pasted.failures[0].reason).not.toContain("plain-key-123456");
    expect(pasted.inputs.apiUrl).toEqual(secret("http://example.com/plain-key-123456"));
    expect(audit(pasted.inputs).plainStrings.join(" ")).not.toContain("plain-key-123456");
  });

  test("DiffConfig reports a new key as a change that replaces nothing; the same config as no change", async () => {
    const olds = { apiUrl: emulator().url, apiKey: secret("first-key-123456") };
    const changed = await plugin.diffConfig(olds, { ...olds, apiKey: secret("second-key-123456") });
    expect(changed).toMatchObject({ changes: "DIFF_SOME", replaces: [], diffs: ["apiKey"] });
    expect(changed.detailedDiff).toEqual({ apiKey: { kind: "UPDATE", inputDiff: true } });
    expect(await plugin.diffConfig(olds, { ...olds })).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
  });

  test("configured with nothing, and no BLOCKCHAIN_API_* in its environment: Check fails naming blockchain:apiKey, to be set --secret", async () => {
    const bare = await plugins.start({});
    const { failures } = await bare.check(NETWORK_URN, {}, { networkId: fixtures.networkWithNodes });
    expect(failures.length).toBeGreaterThan(0);
    const reasons = failures.map((f) => f.reason).join("\n");
    for (const token of ["blockchain:apiKey", "--secret"]) expect(reasons).toContain(token);
  });

  test("a key not known yet (preview of an explicit provider fed by another resource) passes Check, which hands back no setting", async () => {
    const pending = await plugins.start({
      apiUrl: emulator().url,
      apiKey: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    });
    const networkId = fixtures.networkWithNodes;
    expect(await pending.check(NETWORK_URN, {}, { networkId })).toEqual({
      inputs: { networkId },
      failures: [],
    });
  });

  test("CheckConfig refuses an unknown setting naming the close one (also a plain key under a mistyped name, not echoed), a 1 MB apiKey, a negative deadlineMs; the engine's `version` passes", async () => {
    const cases: Array<[Props, string, string[]]> = [
      [{ apiKye: secret("some-key-123456"), version: "0.1.0" }, "apiKye:", ["`apiKey`"]],
      [{ apikey: KEY }, "apikey:", ["`apiKey`"]],
      [{ apiKey: secret("k".repeat(1024 * 1024)) }, "apiKey:", ["1024"]],
      [{ apiKey: secret("k-123456"), deadlineMs: -5 }, "deadlineMs:", []],
    ];
    for (const [settings, starts, tokens] of cases)
      await refused(plugin.checkConfig({ apiUrl: emulator().url, ...settings }), starts, tokens);
  });
});

describe("Network", () => {
  const id = () => fixtures.networkWithNodes;
  let inputs: Props;
  let created: { id: string; properties: Props };
  /** The state after the refresh: what the engine hands Update as olds. */
  let refreshedState: Props;

  test("Check and Create adopt the network under a new name: connections secret, nodes readable and masked", async () => {
    const checked = await plugin.check(NETWORK_URN, {}, { networkId: id(), name: "plugin-net" });
    expect(checked).toEqual({ inputs: { networkId: id(), name: "plugin-net" }, failures: [] });
    inputs = checked.inputs;

    created = await plugin.create(NETWORK_URN, inputs);
    expect(created.id).toBe(id());
    expect(created.properties).toMatchObject({ networkId: id(), name: "plugin-net", protocol: "ethereum" });
    expect(emulator().admin.getNetwork(id())!.name).toBe("plugin-net");

    expect(isSecret(created.properties.connections)).toBe(true);
    const list = (created.properties.connections as { value: Array<Props> }).value;
    expect(list.length).toBeGreaterThan(0);
    expect(list[0].httpsEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);
    const nodes = created.properties.nodes as Array<Props>;
    expect(isSecret(nodes)).toBe(false);
    expect(nodes.map((n) => n.id)).toEqual(list.map((c) => c.id));
    expect(nodes[0]).toMatchObject({
      network: id(),
      httpsEndpointMasked: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/),
    });
    expectNothingPlain(created.properties);
    // The audit itself: the same list unwrapped is caught.
    expect(audit({ connections: list }).exposed).toContain(".connections[0].httpsEndpoint");
  });

  test("Diff: the same inputs change nothing; networkId replaces; name updates in place", async () => {
    const olds = created.properties;
    expect(await plugin.diff(NETWORK_URN, id(), olds, inputs)).toMatchObject({
      changes: "DIFF_NONE",
      replaces: [],
      diffs: [],
    });
    const other = await plugin.diff(NETWORK_URN, id(), olds, { ...inputs, networkId: fixtures.emptyNetwork });
    expect(other).toMatchObject({ changes: "DIFF_SOME", replaces: ["networkId"] });
    expect(other.detailedDiff.networkId.kind).toBe("UPDATE_REPLACE");
    const renamed = await plugin.diff(NETWORK_URN, id(), olds, { ...inputs, name: "renamed" });
    expect(renamed).toMatchObject({
      changes: "DIFF_SOME",
      replaces: [],
      diffs: ["name"],
      hasDetailedDiff: true,
    });
    expect(renamed.detailedDiff).toEqual({ name: { kind: "UPDATE", inputDiff: false } });
  });

  test("Read with no state (pulumi import) answers the network and inputs { networkId }; Check + Diff of those is DIFF_NONE", async () => {
    const imported = await plugin.read(NETWORK_URN, id(), {}, {});
    expect(imported.id).toBe(id());
    expect(imported.properties).toMatchObject({ networkId: id(), name: "plugin-net" });
    expect(isSecret(imported.properties.connections)).toBe(true);
    expect(audit(imported.properties).exposed).toEqual([]);
    expect(imported.inputs).toEqual({ networkId: id() });
    const checked = await plugin.check(NETWORK_URN, imported.properties, imported.inputs!);
    expect(checked.failures).toEqual([]);
    const diff = await plugin.diff(NETWORK_URN, id(), imported.properties, checked.inputs);
    expect(diff).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
  });

  test("Create of an invalid or unknown network, Read with no state of a missing network or of a FaucetDrip: one line naming it", async () => {
    const invalid = await failure(plugin.create(NETWORK_URN, { networkId: "NW-1/../x" }));
    expectNamed(invalid.details, "networkId");
    const unknown = await failure(plugin.create(NETWORK_URN, { networkId: "NW-999-999-9" }));
    expectNamed(unknown.details, "NW-999-999-9", "404");
    // An import of a missing network fails, not as an empty answer.
    const missing = await failure(plugin.read(NETWORK_URN, "NW-999-999-9", {}, {}));
    expectNamed(missing.details, "NW-999-999-9", "404");
    const drip = await failure(plugin.read(FAUCET_URN, "drip-1", {}, {}));
    expectNamed(drip.details, "FaucetDrip");
    for (const err of [invalid, unknown, missing, drip]) expect(err.code).toBe(GRPC_STATUS.UNKNOWN);
  });

  test("Refresh sees a rename made out of band: inputs carry the current name, and Diff against the program is DIFF_SOME on name", async () => {
    expect(emulator().admin.renameNetwork(id(), "console-name")).toBe(true);
    const refreshed = await plugin.read(NETWORK_URN, id(), created.properties, inputs);
    expect(refreshed.id).toBe(id());
    expect(refreshed.properties.name).toBe("console-name");
    expect(refreshed.inputs).toEqual({ networkId: id(), name: "console-name" });
    expect(audit(refreshed.properties).exposed).toEqual([]);
    refreshedState = refreshed.properties;
    const diff = await plugin.diff(NETWORK_URN, id(), refreshed.properties, inputs);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: [], diffs: ["name"] });
    expect(diff.detailedDiff.name.kind).toBe("UPDATE");
  });

  test("Update (from the refreshed state) renames back; Delete forgets the network, or with forceDestroy is refused while it has nodes", async () => {
    const updated = await plugin.update(NETWORK_URN, id(), refreshedState, inputs);
    expect(updated.properties.name).toBe("plugin-net");
    expect(emulator().admin.getNetwork(id())!.name).toBe("plugin-net");
    expect(isSecret(updated.properties.connections)).toBe(true);
    const deletes = () =>
      emulator()
        .requests()
        .filter((r) => r.method === "DELETE").length;
    const before = deletes();
    await plugin.delete(NETWORK_URN, id(), updated.properties);
    expect(deletes()).toBe(before);
    const forced = await plugin.update(NETWORK_URN, id(), updated.properties, {
      ...inputs,
      forceDestroy: true,
    });
    expect(forced.properties.forceDestroy).toBe(true);
    const err = await failure(plugin.delete(NETWORK_URN, id(), forced.properties));
    expectNamed(err.details, id());
    expect(deletes()).toBe(before + 1);
    expect(emulator().admin.getNetwork(id())).toBeDefined();
  });
});

describe("functions", () => {
  test("getNodes: nodes readable, masked endpoints only", async () => {
    const network = fixtures.networkWithNodes;
    const { return: ret } = await plugin.invoke("blockchain:index:getNodes", { network });
    const nodes = ret.nodes as Array<Props>;
    expect(isSecret(ret.nodes)).toBe(false);
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.network).toBe(network);
    expect(nodes.some((n) => typeof n.httpsEndpointMasked === "string")).toBe(true);
    expectNothingPlain(ret);
  });

  test("getNodeConnections: the list wrapped as a secret, real endpoints inside", async () => {
    const { return: ret } = await plugin.invoke("blockchain:index:getNodeConnections", {
      network: fixtures.networkWithNodes,
    });
    expect(Object.keys(ret)).toEqual(["connections"]);
    expect(isSecret(ret.connections)).toBe(true);
    const beacon = (ret.connections as { value: Array<Props> }).value.find(
      (c) => c.id === fixtures.beaconNode,
    )!;
    expect(emulator().secrets()).toEqual(
      expect.arrayContaining([beacon.httpsEndpoint, beacon.beaconEndpoint]),
    );
    expect(audit(ret).exposed).toEqual([]);
  });

  test("getNode: one node's metadata, masked", async () => {
    const { return: node } = await plugin.invoke("blockchain:index:getNode", { id: fixtures.beaconNode });
    expect(node).toMatchObject({
      id: fixtures.beaconNode,
      network: fixtures.networkWithNodes,
      organization: fixtures.organization,
      beaconEndpointMasked: expect.any(String),
    });
    expectNothingPlain(node);
  });

  test("invalid arguments fail naming them, nothing sent: a bad filter, id with a filter, a typo, a 1 MB name", async () => {
    emulator().resetRequests();
    const cases: Array<[string, Props, string[]]> = [
      ["getNodes", { region: "mars" }, ["region", "mars"]],
      ["getNodeConnections", { id: fixtures.beaconNode, region: "us-east-1" }, ["region", "id"]],
      ["getNode", { idd: fixtures.beaconNode }, ["idd:", "`id`"]],
      ["getNodes", { name: "n".repeat(1024 * 1024) }, ["name:", "1048576", "255"]],
    ];
    for (const [fn, args, tokens] of cases) {
      const err = await failure(plugin.invoke(`blockchain:index:${fn}`, args));
      expectNamed(err.details, ...tokens);
      expect(err.details.length).toBeLessThan(2000);
    }
    expect(emulator().requests()).toEqual([]);
  });

  test("a second plugin configured with the other organization's key lists only that organization's nodes", async () => {
    const org = fixtures.otherOrganization;
    const other = await plugins.start({ apiUrl: emulator().url, apiKey: secret(emulator().keys[org]) });
    const myIds = ((await plugin.invoke("blockchain:index:getNodes", {})).return.nodes as Array<Props>).map(
      (n) => n.id,
    );
    const theirNodes = (await other.invoke("blockchain:index:getNodes", {})).return.nodes as Array<Props>;
    expect(theirNodes.length).toBeGreaterThan(0);
    for (const n of theirNodes) expect(n.organization).toBe(org);
    expect(theirNodes.filter((n) => myIds.includes(n.id))).toEqual([]);
    expect(myIds).toContain(fixtures.beaconNode);
  });

  test("an unknown token is an error naming it and the served tokens, for invoke and for check", async () => {
    const invoke = await failure(plugin.invoke("blockchain:index:getNetworks", {}));
    expectNamed(invoke.details, "blockchain:index:getNetworks", ...FUNCTIONS);
    const check = await failure(
      plugin.check("urn:pulumi:dev::contract::blockchain:index:Node::n", {}, { id: "ND-1" }),
    );
    expect(check.details).toMatch(/\bblockchain:index:Node\b/);
    expectNamed(check.details, ...RESOURCES);
  });
});

describe("FaucetDrip", () => {
  const journal = withJournalDir();
  let drip: PluginClient;
  beforeAll(async () => {
    drip = await plugins.start(config(), { BLOCKCHAIN_FAUCET_JOURNAL_DIR: journal() });
  });

  test("Check, Create, Diff and Delete of a FaucetDrip: one send, recorded; a new address replaces it", async () => {
    const address = fixtures.faucetAddress;
    const checked = await drip.check(FAUCET_URN, {}, { address });
    expect(checked.failures).toEqual([]);
    const before = emulator().faucetSendCount(address);
    const created = await drip.create(FAUCET_URN, checked.inputs);
    expect(created.properties).toMatchObject({ address, outcome: "sent", note: "" });
    expect(created.properties.amountSent).toMatch(/^[1-9][0-9]*$/);
    expect(String(created.properties.transaction)).not.toBe("");
    expect(emulator().faucetSendCount(address)).toBe(before + 1);
    expect(await drip.diff(FAUCET_URN, created.id, created.properties, checked.inputs)).toMatchObject({
      changes: "DIFF_NONE",
    });
    const moved = await drip.diff(FAUCET_URN, created.id, created.properties, {
      address: "0x" + "ab".repeat(20),
    });
    expect(moved).toMatchObject({ changes: "DIFF_SOME", replaces: ["address"] });
    const bad = await drip.check(FAUCET_URN, {}, { address: "0x123" });
    expect(bad.failures.map((f) => f.property)).toContain("address");
    await drip.delete(FAUCET_URN, created.id, created.properties);
  });

  test("chain: Check refuses an invalid one; Create asks that chain's faucet; a new chain replaces", async () => {
    const address = "0x" + "cd".repeat(20);
    const bad = await drip.check(FAUCET_URN, {}, { address, chain: "Sepolia" });
    expect(bad.failures).toEqual([{ property: "chain", reason: expect.stringContaining('"Sepolia"') }]);
    const checked = await drip.check(FAUCET_URN, {}, { address, chain: "hoodi" });
    expect(checked.failures).toEqual([]);
    const created = await drip.create(FAUCET_URN, checked.inputs);
    expect(created.properties).toMatchObject({ address, chain: "hoodi", outcome: "sent" });
    const chains = emulator()
      .faucetSends()
      .filter((s) => s.address === address)
      .map((s) => s.chain);
    expect(chains).toEqual(["hoodi"]);
    expect(
      await drip.diff(FAUCET_URN, created.id, created.properties, { address, chain: "sepolia" }),
    ).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["chain"],
      detailedDiff: { chain: { kind: "UPDATE_REPLACE", inputDiff: false } },
    });
    // State recorded before chains existed: faucet-drip.test.ts, "diff, none recorded, goerli given".
    await drip.delete(FAUCET_URN, created.id, created.properties);
  });
});

test("Check refuses a property the schema does not know, naming it in the reason (the engine prints the value of a property named) and the close known name; a value that may be a key is described by its length", async () => {
  const id = fixtures.networkWithNodes;
  const cases: Array<[string, Props, string, string[]]> = [
    [NETWORK_URN, { networkId: id, nmae: "renamed" }, "nmae:", ["`name`"]],
    [FAUCET_URN, { address: fixtures.faucetAddress, amount: 5 }, "amount:", ["`address`", "`chain`"]],
    [NETWORK_URN, { networkId: id, bogus: true }, "bogus:", []],
    [NETWORK_URN, { networkId: id, apikey: KEY }, "apikey:", [String(KEY.length)]],
  ];
  for (const [urn, news, starts, tokens] of cases) {
    const reason = await refused(plugin.check(urn, {}, news), starts, tokens);
    // No close known name: none suggested.
    if (starts === "bogus:") expect(reason).not.toMatch(/did you mean/);
  }
  // A schema input keeps its property: its value is the engine's to show.
  const badId = await plugin.check(NETWORK_URN, {}, { networkId: "nope" });
  expect(badId.failures.map((f) => f.property)).toEqual(["networkId"]);
});

test("no answer of any plugin carried an API key; no error carried a stack trace", () => {
  const keys = Object.values(emulator().keys);
  expect(keys).toContain(emulator().apiKey);
  const transcript = plugins.started.flatMap((p) => p.transcript);
  expect(transcript.length).toBeGreaterThan(20);
  for (const text of [...transcript, ...plugins.started.map((p) => p.stderr())]) {
    for (const key of keys) expect(text.includes(key) ? text : "").toBe("");
    expect(text).not.toMatch(/\n\s+at /);
  }
  // Some of the transcript are errors, and they were audited above.
  expect(transcript.some((t) => t.includes("NW-999-999-9"))).toBe(true);
});
