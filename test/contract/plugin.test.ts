/** The `blockchain` plugin driven over gRPC as the engine drives it, against the emulator. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startScriptedServer } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";
import { PluginClient, Props } from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const NETWORK_URN = "urn:pulumi:dev::contract::blockchain:index:Network::main";
const FAUCET_URN = "urn:pulumi:dev::contract::blockchain:index:FaucetDrip::drip";
const SECRET_FIELD =
  /^(httpsEndpoint|wssEndpoint|graphqlEndpoint|beaconEndpoint|authUsername|authPassword|authKey)$/;
const RESOURCES = ["blockchain:index:Network", "blockchain:index:FaucetDrip"];
const FUNCTIONS = [
  "blockchain:index:getNode",
  "blockchain:index:getNodes",
  "blockchain:index:getNodeConnections",
];

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;

/** The strings outside secret wrappers, and the paths of endpoint or credential fields outside them. */
function audit(value: unknown): { plainStrings: string[]; exposed: string[] } {
  const plainStrings: string[] = [];
  const exposed: string[] = [];
  const walk = (v: unknown, at: string, inSecret: boolean) => {
    if (isSecret(v)) return walk(v.value, `${at}<secret>`, true);
    if (typeof v === "string" && !inSecret) plainStrings.push(v);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${at}[${i}]`, inSecret));
    else if (typeof v === "object" && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        if (SECRET_FIELD.test(k) && !inSecret) exposed.push(`${at}.${k}`);
        walk(item, `${at}.${k}`, inSecret);
      }
    }
  };
  walk(value, "", false);
  return { plainStrings, exposed };
}

/** The gRPC error of a call that must fail. */
async function failure(promise: Promise<unknown>): Promise<Error & { details: string; code: number }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error("expected the call to fail, it succeeded");
  return err as Error & { details: string; code: number };
}

const emulator = withEmulator({ pageSize: 5 });
/** Every plugin started here, stopped after the tests; each is also audited for the API keys. */
const plugins: PluginClient[] = [];
let plugin: PluginClient;

async function startPlugin(config?: Props): Promise<PluginClient> {
  const p = await PluginClient.start({ HOME: process.env.HOME });
  plugins.push(p);
  if (config) await p.configure(config);
  return p;
}

beforeAll(async () => {
  plugin = await startPlugin({ apiUrl: emulator().url, apiKey: secret(emulator().apiKey) });
});

afterAll(async () => {
  await Promise.all(plugins.map((p) => p.stop()));
});

describe("plugin info and schema", () => {
  test("GetPluginInfo answers the package's version", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    expect(await plugin.getPluginInfo()).toEqual({ version: pkg.version });
  });

  test("GetSchema answers exactly the committed schema.json", async () => {
    const schema = await plugin.getSchema();
    expect(schema).toBe(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
    expect(JSON.parse(schema).name).toBe("blockchain");
  });
});

describe("provider config", () => {
  test("CheckConfig refuses a non-HTTPS remote apiUrl, naming apiUrl; accepts the emulator's local URL", async () => {
    const bad = await plugin.checkConfig({ apiUrl: "http://example.com", apiKey: secret("some-key-123456") });
    expect(bad.failures.map((f) => f.property)).toEqual([""]);
    expect(bad.failures[0].reason).toMatch(/^apiUrl: .*https/i);
    const good = await plugin.checkConfig({ apiUrl: emulator().url, apiKey: secret("some-key-123456") });
    expect(good.failures).toEqual([]);
    expect(good.inputs).toEqual({ apiUrl: emulator().url, apiKey: secret("some-key-123456") });
    // A key passed in plain text (a YAML literal, say) comes back a secret, so state stores it encrypted.
    const plain = await plugin.checkConfig({ apiUrl: emulator().url, apiKey: "plain-key-123456" });
    expect(plain.inputs).toEqual({ apiUrl: emulator().url, apiKey: secret("plain-key-123456") });
    // A key pasted into the URL is not echoed in the failure.
    const pasted = await plugin.checkConfig({
      apiUrl: "http://example.com/plain-key-123456",
      apiKey: "plain-key-123456",
    });
    expect(pasted.failures.map((f) => f.property)).toEqual([""]);
    expect(pasted.failures[0].reason).not.toContain("plain-key-123456");
  });

  test("DiffConfig reports a new key as a change that replaces nothing; the same config as no change", async () => {
    const olds = { apiUrl: emulator().url, apiKey: secret("first-key-123456") };
    const changed = await plugin.diffConfig(olds, { ...olds, apiKey: secret("second-key-123456") });
    expect(changed).toMatchObject({ changes: "DIFF_SOME", replaces: [], diffs: ["apiKey"] });
    expect(changed.detailedDiff).toEqual({ apiKey: { kind: "UPDATE", inputDiff: true } });
    expect(await plugin.diffConfig(olds, { ...olds })).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
  });

  test("a plugin configured with nothing, and no BLOCKCHAIN_API_* in its environment, fails Check telling how to set blockchain:apiKey", async () => {
    const bare = await startPlugin({});
    const { failures } = await bare.check(
      NETWORK_URN,
      {},
      { networkId: emulator().fixtures.networkWithNodes },
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.map((f) => f.reason).join("\n")).toContain(
      "`pulumi config set --secret blockchain:apiKey <key>`",
    );
  });

  test("a provider whose key is not known yet (preview of an explicit provider fed by another resource) passes Check, which hands back no setting", async () => {
    const pending = await startPlugin({});
    await pending.configure({ apiUrl: emulator().url, apiKey: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" });
    const { inputs, failures } = await pending.check(
      NETWORK_URN,
      {},
      { networkId: emulator().fixtures.networkWithNodes },
    );
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ networkId: emulator().fixtures.networkWithNodes });
  });
});

describe("Network", () => {
  const id = () => emulator().fixtures.networkWithNodes;
  let inputs: Props;
  let created: { id: string; properties: Props };
  /** The state after the refresh: what the engine hands Update as olds. */
  let refreshedState: Props;

  test("Check and Create adopt the network under a new name: connections secret, nodes readable and masked", async () => {
    const checked = await plugin.check(NETWORK_URN, {}, { networkId: id(), name: "plugin-net" });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ networkId: id(), name: "plugin-net" });
    inputs = checked.inputs;

    created = await plugin.create(NETWORK_URN, inputs);
    expect(created.id).toBe(id());
    expect(created.properties).toMatchObject({ networkId: id(), name: "plugin-net", protocol: "ethereum" });
    expect(emulator().admin.getNetwork(id())!.name).toBe("plugin-net");

    const connections = created.properties.connections;
    expect(isSecret(connections)).toBe(true);
    const list = (connections as { value: Array<Props> }).value;
    expect(list.length).toBeGreaterThan(0);
    expect(list[0].httpsEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);

    const nodes = created.properties.nodes as Array<Props>;
    expect(isSecret(nodes)).toBe(false);
    expect(nodes.map((n) => n.id)).toEqual(list.map((c) => c.id));
    expect(nodes[0]).toMatchObject({
      network: id(),
      httpsEndpointMasked: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/),
    });

    const { plainStrings, exposed } = audit(created.properties);
    expect(exposed).toEqual([]);
    // The audit itself: the same list unwrapped is caught.
    expect(audit({ connections: list }).exposed).toContain(".connections[0].httpsEndpoint");
    for (const s of emulator().secrets()) expect(plainStrings.filter((p) => p.includes(s))).toEqual([]);
  });

  test("Diff: the same inputs change nothing; networkId replaces; name updates in place", async () => {
    const olds = created.properties;
    const same = await plugin.diff(NETWORK_URN, id(), olds, inputs);
    expect(same).toMatchObject({ changes: "DIFF_NONE", replaces: [], diffs: [] });

    const other = await plugin.diff(NETWORK_URN, id(), olds, {
      ...inputs,
      networkId: emulator().fixtures.emptyNetwork,
    });
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

  test("Create of an invalid or unknown network fails with one message naming it, no trace", async () => {
    const invalid = await failure(plugin.create(NETWORK_URN, { networkId: "NW-1/../x" }));
    expect(invalid.details).toMatch(/networkId/);
    const unknown = await failure(plugin.create(NETWORK_URN, { networkId: "NW-999-999-9" }));
    expect(unknown.details).toMatch(/NW-999-999-9.*404/s);
    for (const err of [invalid, unknown]) expect(err.details).not.toMatch(/\n\s+at /);
  });

  test("Read with no state (pulumi import) of a network that does not exist fails saying so, not as an empty answer", async () => {
    const err = await failure(plugin.read(NETWORK_URN, "NW-999-999-9", {}, {}));
    expect(err.details).toMatch(/NW-999-999-9: cannot import it: the service answered 404/);
    expect(err.details).not.toMatch(/\n\s+at /);
  });

  test("Read with no state of a FaucetDrip fails: it cannot be imported", async () => {
    const err = await failure(plugin.read(FAUCET_URN, "drip-1", {}, {}));
    expect(err.details).toMatch(/cannot be imported/);
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
    expect(err.details).toMatch(/nodes/);
    expect(deletes()).toBe(before + 1);
    expect(emulator().admin.getNetwork(id())).toBeDefined();
  });
});

describe("only the service's own 404 means gone, under the plugin", () => {
  test.each([
    [
      "a Go mux's text",
      { status: 404, text: "404 page not found", headers: { "content-type": "text/plain" } },
    ],
    ["an API gateway's JSON", { status: 404, body: { message: "Not Found" } }],
    ["a web framework's JSON", { status: 404, body: { detail: "Not found." } }],
  ])("%s while the node list answers: Read and Delete fail naming the API URL", async (_what, answer) => {
    const server = await startScriptedServer();
    try {
      server.fallback = { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      server.script(answer, answer);
      const props = {
        networkId: "NW-100-000-2",
        apiUrl: server.url,
        apiKey: secret("scripted-key-123456"),
        forceDestroy: true,
      };
      const read = await failure(plugin.read(NETWORK_URN, "NW-100-000-2", props, {}));
      expect(read.details).toMatch(/answered 404.*API URL \(http:\/\/127\.0\.0\.1:\d+\/?\) looks wrong/s);
      const removed = await failure(plugin.delete(NETWORK_URN, "NW-100-000-2", props));
      expect(removed.details).toMatch(/DELETE .* answered 404.*looks wrong/s);
      expect(server.hits.map((h) => h.method)).toEqual(["PATCH", "DELETE"]);
    } finally {
      await server.close();
    }
  });
});

describe("functions", () => {
  test("getNodes: nodes readable, masked endpoints only", async () => {
    const { return: ret } = await plugin.invoke("blockchain:index:getNodes", {
      network: emulator().fixtures.networkWithNodes,
    });
    const nodes = ret.nodes as Array<Props>;
    expect(isSecret(ret.nodes)).toBe(false);
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.network).toBe(emulator().fixtures.networkWithNodes);
    expect(nodes.some((n) => typeof n.httpsEndpointMasked === "string")).toBe(true);
    const { plainStrings, exposed } = audit(ret);
    expect(exposed).toEqual([]);
    for (const s of emulator().secrets()) expect(plainStrings.filter((p) => p.includes(s))).toEqual([]);
  });

  test("getNodeConnections: the list wrapped as a secret, real endpoints inside", async () => {
    const { return: ret } = await plugin.invoke("blockchain:index:getNodeConnections", {
      network: emulator().fixtures.networkWithNodes,
    });
    expect(Object.keys(ret)).toEqual(["connections"]);
    expect(isSecret(ret.connections)).toBe(true);
    const list = (ret.connections as { value: Array<Props> }).value;
    expect(list.map((c) => c.id)).toContain(emulator().fixtures.beaconNode);
    const beacon = list.find((c) => c.id === emulator().fixtures.beaconNode)!;
    expect(emulator().secrets()).toContain(beacon.httpsEndpoint);
    expect(emulator().secrets()).toContain(beacon.beaconEndpoint);
    expect(audit(ret).exposed).toEqual([]);
  });

  test("getNode: one node's metadata, masked", async () => {
    const { return: node } = await plugin.invoke("blockchain:index:getNode", {
      id: emulator().fixtures.beaconNode,
    });
    expect(node).toMatchObject({
      id: emulator().fixtures.beaconNode,
      network: emulator().fixtures.networkWithNodes,
      organization: emulator().fixtures.organization,
      beaconEndpointMasked: expect.any(String),
    });
    expect(audit(node).exposed).toEqual([]);
    for (const s of emulator().secrets()) expect(JSON.stringify(node)).not.toContain(s);
  });

  test("an invalid filter is an error naming the field", async () => {
    const err = await failure(plugin.invoke("blockchain:index:getNodes", { region: "mars" }));
    expect(err.details).toMatch(/region/);
    expect(err.details).toMatch(/mars/);
  });

  test("getNodeConnections with both id and a filter fails naming the filter", async () => {
    const err = await failure(
      plugin.invoke("blockchain:index:getNodeConnections", {
        id: emulator().fixtures.beaconNode,
        region: "us-east-1",
      }),
    );
    expect(err.details).toMatch(/region/);
    expect(err.details).toMatch(/not with id/);
  });
});

describe("explicit providers and unknown tokens", () => {
  test("a second plugin configured with the other organization's key lists only that organization's nodes", async () => {
    const org = emulator().fixtures.otherOrganization;
    const other = await startPlugin({ apiUrl: emulator().url, apiKey: secret(emulator().keys[org]) });
    const mine = await plugin.invoke("blockchain:index:getNodes", {});
    const theirs = await other.invoke("blockchain:index:getNodes", {});
    const myIds = (mine.return.nodes as Array<Props>).map((n) => n.id);
    const theirNodes = theirs.return.nodes as Array<Props>;
    expect(theirNodes.length).toBeGreaterThan(0);
    for (const n of theirNodes) expect(n.organization).toBe(org);
    expect(theirNodes.filter((n) => myIds.includes(n.id))).toEqual([]);
    expect(myIds).toContain(emulator().fixtures.beaconNode);
  });

  test("an unknown token is an error naming the served tokens, for invoke and for check", async () => {
    const invoke = await failure(plugin.invoke("blockchain:index:getNetworks", {}));
    expect(invoke.details).toContain("blockchain:index:getNetworks");
    expect(invoke.details).toMatch(/unknown function/);
    for (const tok of FUNCTIONS) expect(invoke.details).toContain(tok);
    const check = await failure(
      plugin.check("urn:pulumi:dev::contract::blockchain:index:Node::n", {}, { id: "ND-1" }),
    );
    expect(check.details).toMatch(/unknown resource type blockchain:index:Node\b/);
    for (const tok of RESOURCES) expect(check.details).toContain(tok);
  });
});

describe("FaucetDrip", () => {
  let journal: string;
  let drip: PluginClient;

  beforeAll(async () => {
    journal = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-faucet-journal-"));
    drip = await PluginClient.start({ HOME: process.env.HOME, BLOCKCHAIN_FAUCET_JOURNAL_DIR: journal });
    plugins.push(drip);
    await drip.configure({ apiUrl: emulator().url, apiKey: secret(emulator().apiKey) });
  });

  afterAll(() => fs.rmSync(journal, { recursive: true, force: true }));

  test("Check, Create, Diff and Delete of a FaucetDrip: one send, recorded; a new address replaces it", async () => {
    const address = emulator().fixtures.faucetAddress;
    const checked = await drip.check(FAUCET_URN, {}, { address });
    expect(checked.failures).toEqual([]);
    const before = emulator().faucetSendCount(address);
    const created = await drip.create(FAUCET_URN, checked.inputs);
    expect(created.properties).toMatchObject({ address, outcome: "sent", note: "" });
    expect(created.properties.amountSent).toMatch(/^[1-9][0-9]*$/);
    expect(String(created.properties.transaction)).not.toBe("");
    expect(emulator().faucetSendCount(address)).toBe(before + 1);

    const same = await drip.diff(FAUCET_URN, created.id, created.properties, checked.inputs);
    expect(same).toMatchObject({ changes: "DIFF_NONE" });
    const other = "0x" + "ab".repeat(20);
    const moved = await drip.diff(FAUCET_URN, created.id, created.properties, { address: other });
    expect(moved).toMatchObject({ changes: "DIFF_SOME", replaces: ["address"] });

    const bad = await drip.check(FAUCET_URN, {}, { address: "0x123" });
    expect(bad.failures.map((f) => f.property)).toContain("address");

    await drip.delete(FAUCET_URN, created.id, created.properties);
  });

  test("chain: Check refuses an invalid one; Create asks that chain's faucet; a new chain replaces; none counts as goerli", async () => {
    const address = "0x" + "cd".repeat(20);
    const bad = await drip.check(FAUCET_URN, {}, { address, chain: "Sepolia" });
    expect(bad.failures).toEqual([
      { property: "chain", reason: expect.stringMatching(/got "Sepolia"; expected a chain name/) },
    ]);

    const checked = await drip.check(FAUCET_URN, {}, { address, chain: "hoodi" });
    expect(checked.failures).toEqual([]);
    const created = await drip.create(FAUCET_URN, checked.inputs);
    expect(created.properties).toMatchObject({ address, chain: "hoodi", outcome: "sent" });
    expect(
      emulator()
        .faucetSends()
        .filter((s) => s.address === address)
        .map((s) => s.chain),
    ).toEqual(["hoodi"]);

    const moved = await drip.diff(FAUCET_URN, created.id, created.properties, { address, chain: "sepolia" });
    expect(moved).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["chain"],
      detailedDiff: { chain: { kind: "UPDATE_REPLACE", inputDiff: false } },
    });
    // State recorded before chains existed (no chain): no change without chain, or with goerli.
    const { chain: _chain, ...before } = created.properties;
    for (const news of [{ address }, { address, chain: "goerli" }]) {
      expect(await drip.diff(FAUCET_URN, created.id, before, news)).toMatchObject({
        changes: "DIFF_NONE",
        replaces: [],
      });
    }
    await drip.delete(FAUCET_URN, created.id, created.properties);
  });
});

describe("typos refused, sizes bounded, nothing handed back in plain", () => {
  test("Check of a Network with `nmae` or `bogus`, and of a FaucetDrip with `amount`, fails naming it (in the reason: the engine prints the value of a property named), and the close known name", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const typo = await plugin.check(NETWORK_URN, {}, { networkId: id, nmae: "renamed" });
    expect(typo.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^nmae: .*unknown property; did you mean `name`\?/) },
    ]);
    const drip = await plugin.check(
      FAUCET_URN,
      {},
      { address: emulator().fixtures.faucetAddress, amount: 5 },
    );
    expect(drip.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^amount: .*unknown property.*Known: `address`, `chain`/),
      },
    ]);
    const bogus = await plugin.check(NETWORK_URN, {}, { networkId: id, bogus: true });
    expect(bogus.failures.map((f) => f.property)).toEqual([""]);
    expect(bogus.failures[0].reason).toMatch(/^bogus: .*unknown property/);
    // A schema input keeps its property: its value is the engine's to show.
    const badId = await plugin.check(NETWORK_URN, {}, { networkId: "nope" });
    expect(badId.failures.map((f) => f.property)).toEqual(["networkId"]);
    expect(bogus.failures[0].reason).not.toMatch(/did you mean/);
  });

  test("CheckConfig refuses an unknown setting naming the close one, and a 1 MB apiKey; the engine's `version` passes", async () => {
    const typo = await plugin.checkConfig({
      apiUrl: emulator().url,
      apiKye: secret("some-key-123456"),
      version: "0.1.0",
    });
    expect(typo.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^apiKye: unknown setting; did you mean `apiKey`\?/) },
    ]);
    const huge = await plugin.checkConfig({
      apiUrl: emulator().url,
      apiKey: secret("k".repeat(1024 * 1024)),
    });
    expect(huge.failures.map((f) => f.property)).toEqual([""]);
    expect(huge.failures[0].reason).toMatch(/^apiKey: .*at most 1024/);
    const badLimit = await plugin.checkConfig({
      apiUrl: emulator().url,
      apiKey: secret("k-123456"),
      deadlineMs: -5,
    });
    expect(badLimit.failures.map((f) => f.property)).toEqual([""]);
    expect(badLimit.failures[0].reason).toMatch(/^deadlineMs: /);
  });

  test("a plain key under a mistyped name is refused with no property for the engine to print and no value in the reason", async () => {
    const key = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";
    const config = await plugin.checkConfig({ apiUrl: emulator().url, apikey: key });
    expect(config.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^apikey: unknown setting; did you mean `apiKey`\?/) },
    ]);
    // On a resource, the value is described by its own length (not its quoted rendering's).
    const id = emulator().fixtures.networkWithNodes;
    const resource = await plugin.check(NETWORK_URN, {}, { networkId: id, apikey: key });
    expect(resource.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(`apikey: got a value of ${key.length} characters (not shown`),
      },
    ]);
    const reasons = [...config.failures, ...resource.failures].map((f) => f.reason).join("\n");
    expect(reasons).not.toContain(key);
  });

  test("a refused apiUrl holding the key comes back from CheckConfig as a secret, never in plain", async () => {
    const pasted = await plugin.checkConfig({
      apiUrl: "http://example.com/plain-key-123456",
      apiKey: "plain-key-123456",
    });
    expect(pasted.failures.map((f) => f.property)).toEqual([""]);
    expect(pasted.inputs.apiUrl).toEqual(secret("http://example.com/plain-key-123456"));
    expect(audit(pasted.inputs).plainStrings.join(" ")).not.toContain("plain-key-123456");
  });

  test("an unknown argument of getNode is refused naming it; a 1 MB name filter is refused naming `name`, nothing sent", async () => {
    emulator().resetRequests();
    const typo = await failure(
      plugin.invoke("blockchain:index:getNode", { idd: emulator().fixtures.beaconNode }),
    );
    expect(typo.details).toMatch(/idd: .*unknown argument; did you mean `id`\?/);
    const huge = await failure(plugin.invoke("blockchain:index:getNodes", { name: "n".repeat(1024 * 1024) }));
    expect(huge.details).toMatch(/name: got a string of 1048576 characters; expected at most 255 characters/);
    expect(huge.details.length).toBeLessThan(2000);
    expect(emulator().requests()).toEqual([]);
  });
});

describe("audit of every answer", () => {
  test("no answer of any plugin carried an API key; no error carried a stack trace", () => {
    const keys = Object.values(emulator().keys);
    expect(keys).toContain(emulator().apiKey);
    const transcript = plugins.flatMap((p) => p.transcript);
    expect(transcript.length).toBeGreaterThan(20);
    for (const text of [...transcript, ...plugins.map((p) => p.stderr())]) {
      for (const key of keys) expect(text.includes(key) ? text : "").toBe("");
      expect(text).not.toMatch(/\n\s+at /);
      expect(text).not.toContain("    at ");
    }
    // Some of the transcript are errors, and they were audited above.
    expect(transcript.some((t) => /cannot be imported/.test(t))).toBe(true);
  });
});
