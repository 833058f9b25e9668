/**
 * The plugin speaks through the engine's `Log` (at the address passed as its last argument, or sent
 * by `Attach`; a stand-in engine records it here): each wait before a retry, on the call's resource;
 * the nodes a healthy set (`verify.minVerified`) leaves out, in one warning. Its hints spell
 * arguments as the program's language does, told by the `Pulumi.yaml` of the folder it runs in.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { NodeEndpointBehaviour } from "../../src/emulator";
import { withEmulator } from "../helpers/emulator";
import {
  audit,
  fakeEngine,
  failure,
  isSecret,
  LOG_SEVERITY,
  PluginClient,
  pluginPool,
  secret,
  type Props,
} from "../helpers/plugin-client";

const NETWORK_URN = "urn:pulumi:dev::log::blockchain:index:Network::main";
const [A, B, C, D] = ["ND-100-000-001", "ND-100-000-002", "ND-100-000-003", "ND-100-000-004"];

const emulator = withEmulator({ seed: 11, quiet: true });
let engine: Awaited<ReturnType<typeof fakeEngine>>;
let dir: string;
const plugins = pluginPool();

beforeAll(async () => {
  engine = await fakeEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-engine-log-"));
});
afterAll(async () => {
  await plugins.stop();
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The plugin in a program folder whose Pulumi.yaml says `runtime`; `attach`: the engine's address by Attach. */
async function pluginFor(runtime: string, options: { attach?: boolean; args?: string[] } = {}) {
  const cwd = fs.mkdtempSync(path.join(dir, `${runtime}-`));
  fs.writeFileSync(path.join(cwd, "Pulumi.yaml"), `name: app\nruntime: ${runtime}\n`);
  const args = options.attach ? [] : [...(options.args ?? []), engine.address];
  const plugin = await plugins.start(undefined, {}, args, cwd);
  if (options.attach) await plugin.attach(engine.address);
  return plugin;
}

const configure = (plugin: PluginClient, more: Props = {}) =>
  plugin.configure({ apiUrl: emulator().url, apiKey: secret(emulator().apiKey), ...more });

describe("a 429 during a refresh: the wait is logged once, through the engine, on the resource, before the error", () => {
  afterEach(() => emulator().setFaults({}));

  test.each([
    ["the engine's address as its last argument, --logtostderr -v=1", { args: ["--logtostderr", "-v=1"] }],
    ["no engine address at start (PULUMI_DEBUG_PROVIDERS), then Attach", { attach: true }],
  ])("%s", async (_how, options) => {
    const plugin = await pluginFor("yaml", options);
    await configure(plugin, { maxRetries: 1 });
    engine.logged.length = 0;
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 1, match: { path: "/v1/networks/" } });
    const id = emulator().fixtures.networkWithNodes;
    const error = await failure(plugin.read(NETWORK_URN, id, { networkId: id }, { networkId: id }));
    expect(error.details).toMatch(/\b429\b/);
    expect(engine.logged.filter((l) => /waiting/.test(l.message))).toEqual([
      {
        severity: LOG_SEVERITY.INFO,
        message: expect.stringMatching(new RegExp(`${id}.*\\b429\\b.*\\b1 s\\b.*\\b2 of 2\\b`)),
        urn: NETWORK_URN,
      },
    ]);
    expect(plugin.stderr()).not.toContain("waiting");
  });
});

describe("a healthy set through Invoke: one node refusing, one stalled 900 s, one 40 s (accepted)", () => {
  /** Every line, answer and error of the block, for the audit at its end. */
  const said: string[] = [];
  const answers: unknown[] = [];
  let before: Record<string, NodeEndpointBehaviour>;
  beforeEach(() => {
    said.push(...engine.logged.splice(0).map((l) => l.message));
    before = Object.fromEntries([A, B, C, D].map((id) => [id, emulator().admin.nodeEndpoint(id)!]));
    emulator().admin.setNodeEndpoint(A, { stalledSeconds: 40 });
    emulator().admin.setNodeEndpoint(B, { answer: "refuse" });
    emulator().admin.setNodeEndpoint(C, { stalledSeconds: 900 });
  });
  afterEach(() => {
    for (const [id, behaviour] of Object.entries(before)) emulator().admin.setNodeEndpoint(id, behaviour);
  });

  const warnings = () => engine.logged.filter((l) => l.severity === LOG_SEVERITY.WARNING);
  const network = () => emulator().fixtures.networkWithNodes;

  /** `blockchain:index:<fn>` invoked by a plugin in a `runtime` program's folder. */
  async function invoke(runtime: string, fn: string, args: Props): Promise<Props> {
    const plugin = await pluginFor(runtime);
    await configure(plugin);
    const { return: ret } = await plugin.invoke(`blockchain:index:${fn}`, args);
    answers.push(ret);
    return ret;
  }
  async function refused(runtime: string, fn: string, args: Props): Promise<string> {
    const { details } = await failure(invoke(runtime, fn, args));
    answers.push(details);
    expect(details).not.toMatch(/\n\s+at |\/node\//);
    return details;
  }

  test("getNodes with minVerified 2 (YAML): the two that pass, freshest first; one warning names both left out", async () => {
    const ret = await invoke("yaml", "getNodes", { network: network(), verify: { minVerified: 2 } });
    const nodes = ret.nodes as Array<Props & { verified: Props }>;
    // The set's order and its warning's words: client/healthy-set.emulator.test.ts, "minVerified 2: …".
    expect(nodes.map((n) => n.id)).toEqual([D, A]);
    expect(Object.keys(nodes[0].verified).sort()).toEqual([
      "chainId",
      "checkedAt",
      "headAgeSeconds",
      "headBlock",
      "latencyMs",
    ]);
    expect(warnings()).toHaveLength(1);
    const [{ message }] = warnings();
    expect(message).toMatch(/^getNodes: 2 of 4 .*minVerified 2\b/);
    for (const id of [B, C]) expect(message).toContain(`${id}: `);
  });

  test("getNodeConnections with the same verify (Go): the healthy set's connections, in its order, secret", async () => {
    const ret = await invoke("go", "getNodeConnections", { network: network(), verify: { minVerified: 2 } });
    expect(isSecret(ret.connections)).toBe(true);
    const connections = (ret.connections as { value: Array<{ id: string; httpsEndpoint: string }> }).value;
    expect(connections.map((c) => c.id)).toEqual([D, A]);
    expect(connections[0].httpsEndpoint).toContain("/node/");
    expect(warnings()).toHaveLength(1);
    expect(JSON.stringify(engine.logged)).not.toContain("/node/");
  });

  // The schema's spelling (YAML, as the client's), getNode's refusal of minVerified 2 and the spelling rules:
  // client/healthy-set.emulator "minVerified 3: one message …", "getNode takes minVerified 1 … refuses 2";
  // pure/verify-spelling "the plugin's spelling, from the program's folder".
  test("fewer pass than asked (Python): one failure, no warning; its hints in snake_case", async () => {
    const python = await refused("python", "getNodes", { network: network(), verify: { min_verified: 3 } });
    expect(python).toMatch(new RegExp(`^getNodes: 2 of 4 .*\\b3\\b.*${B}: `));
    for (const field of ["verify.min_verified", "verify.max_head_age_seconds", "verify.timeout_seconds"])
      expect(python).toContain(field);
    expect(python).not.toMatch(/minVerified|maxHeadAgeSeconds|timeoutSeconds/);
    expect(warnings()).toEqual([]);
  });

  test("no warning, error or answer held a credential outside a secret", () => {
    const all = [...said, ...engine.logged.map((l) => l.message), ...audit(answers).plainStrings];
    expect(all.some((s) => s.includes(B))).toBe(true);
    expect(
      emulator()
        .secrets()
        .filter((s) => all.some((m) => m.includes(s))),
    ).toEqual([]);
    expect(plugins.started.flatMap((p) => p.transcript).join("\n")).not.toContain(emulator().apiKey);
  });
});
