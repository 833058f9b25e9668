/**
 * A healthy set (`verify.minVerified`) through the plugin's `Invoke`, as the engine drives it for
 * YAML, Go and Python programs: the nodes that pass, freshest head first; the nodes left out in
 * one warning through the engine's `Log` (a fake engine here, recording it); fewer than asked fail
 * with one message whose hints spell arguments as the program's language does, told by the
 * `Pulumi.yaml` of the folder the plugin runs in.
 */
import * as fs from "fs";
import { createRequire } from "module";
import * as os from "os";
import * as path from "path";
import type { NodeEndpointBehaviour } from "../../src/emulator";
import { withEmulator } from "../helpers/emulator";
import { PluginClient, type Props } from "../helpers/plugin-client";

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc: typeof import("@grpc/grpc-js") = sdkRequire("@grpc/grpc-js");
const engineRpc = sdkRequire("./proto/engine_grpc_pb");
const engineProto = sdkRequire("./proto/engine_pb");
const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb");

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const [A, B, C, D] = ["ND-100-000-001", "ND-100-000-002", "ND-100-000-003", "ND-100-000-004"];

interface Logged {
  severity: number;
  message: string;
}

/** A fake engine that records every `Log` call. */
async function fakeEngine(): Promise<{ address: string; logged: Logged[]; close: () => Promise<void> }> {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  type Callback = import("@grpc/grpc-js").sendUnaryData<unknown>;
  const unimplemented = (_call: unknown, callback: Callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: "not in this fake" });
  server.addService(engineRpc.EngineService, {
    log: (call: { request: { getSeverity(): number; getMessage(): string } }, callback: Callback) => {
      logged.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
      callback(null, new Empty());
    },
    getRootResource: unimplemented,
    setRootResource: unimplemented,
    startDebugging: unimplemented,
    requirePulumiVersion: unimplemented,
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logged,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

const emulator = withEmulator({ seed: 11, quiet: true });
let engine: Awaited<ReturnType<typeof fakeEngine>>;
let dir: string;
const plugins: PluginClient[] = [];

/** The plugin started in a program folder whose Pulumi.yaml says `runtime`, configured for the emulator. */
async function pluginFor(runtime: string): Promise<PluginClient> {
  const folder = fs.mkdtempSync(path.join(dir, `${runtime}-`));
  fs.writeFileSync(path.join(folder, "Pulumi.yaml"), `name: app\nruntime: ${runtime}\n`);
  const plugin = await PluginClient.start({ HOME: process.env.HOME }, undefined, [engine.address], {
    cwd: folder,
  });
  plugins.push(plugin);
  await plugin.configure({
    apiUrl: emulator().url,
    apiKey: { [SIG_KEY]: SECRET_SIG, value: emulator().apiKey },
  });
  return plugin;
}

beforeAll(async () => {
  engine = await fakeEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-healthy-set-"));
});
afterAll(async () => {
  await Promise.all(plugins.map((p) => p.stop()));
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every line the engine got in the file, for the audit at the end. */
const everLogged: Logged[] = [];
let before: Record<string, NodeEndpointBehaviour>;
beforeEach(() => {
  everLogged.push(...engine.logged.splice(0));
  before = Object.fromEntries([A, B, C, D].map((id) => [id, emulator().admin.nodeEndpoint(id)!]));
  // B refuses connections, C's head is 900 s old, A's 40 s (within the 120 s accepted): D is the freshest.
  emulator().admin.setNodeEndpoint(A, { stalledSeconds: 40 });
  emulator().admin.setNodeEndpoint(B, { answer: "refuse" });
  emulator().admin.setNodeEndpoint(C, { stalledSeconds: 900 });
});
afterEach(() => {
  for (const [id, behaviour] of Object.entries(before)) emulator().admin.setNodeEndpoint(id, behaviour);
});

const warnings = () => engine.logged.filter((l) => l.severity === engineProto.LogSeverity.WARNING);

/** Every answer and error of the file, for the audit at the end. */
const answers: unknown[] = [];

/** `Invoke` of `tok`, its answer kept for the audit. */
async function invoke(plugin: PluginClient, tok: string, args: Props): Promise<Props> {
  const { return: ret } = await plugin.invoke(tok, args);
  answers.push(ret);
  return ret;
}

async function failure(promise: Promise<unknown>): Promise<Error & { details: string }> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error("expected the call to fail, it succeeded");
  answers.push((err as Error & { details: string }).details);
  return err as Error & { details: string };
}

test("a YAML program's getNodes with verify { minVerified: 2 }: the two that pass, freshest first; one warning through the engine names both left out", async () => {
  const plugin = await pluginFor("yaml");
  const ret = await invoke(plugin, "blockchain:index:getNodes", {
    network: emulator().fixtures.networkWithNodes,
    verify: { minVerified: 2 },
  });
  const nodes = ret.nodes as Array<Props & { verified: Props }>;
  expect(nodes.map((n) => n.id)).toEqual([D, A]);
  expect(nodes[0].verified.headAgeSeconds as number).toBeLessThan(nodes[1].verified.headAgeSeconds as number);
  expect(Object.keys(nodes[0].verified).sort()).toEqual([
    "chainId",
    "checkedAt",
    "headAgeSeconds",
    "headBlock",
    "latencyMs",
  ]);
  expect(warnings()).toHaveLength(1);
  const [{ message }] = warnings();
  expect(message).toMatch(
    /^getNodes: 2 of 4 nodes passed the endpoint check \(verify\.minVerified 2\); left out: /,
  );
  expect(message).toContain(`${B}: it could not be reached (`);
  expect(message).toMatch(new RegExp(`${C}: its head block \\d+ is 9\\d\\d s old`));
});

test("getNodeConnections with the same verify: the connections of the healthy set, in its order, secret", async () => {
  const plugin = await pluginFor("go");
  const ret = await invoke(plugin, "blockchain:index:getNodeConnections", {
    network: emulator().fixtures.networkWithNodes,
    verify: { minVerified: 2 },
  });
  const wrapped = ret.connections as Props;
  expect(wrapped[SIG_KEY]).toBe(SECRET_SIG);
  const connections = wrapped.value as Array<{ id: string; httpsEndpoint: string }>;
  expect(connections.map((c) => c.id)).toEqual([D, A]);
  expect(connections[0].httpsEndpoint).toContain("/node/");
  expect(warnings()).toHaveLength(1);
  expect(JSON.stringify(engine.logged)).not.toContain("/node/");
});

test("fewer pass than asked: one message, hints in the schema's spelling for YAML and in snake_case for Python (min_verified as a dict key)", async () => {
  const yaml = await pluginFor("yaml");
  const network = emulator().fixtures.networkWithNodes;
  const yamlError = await failure(
    invoke(yaml, "blockchain:index:getNodes", { network, verify: { minVerified: 3 } }),
  );
  expect(yamlError.details).toContain(
    "getNodes: 2 of 4 nodes passed the endpoint check, verify.minVerified asks 3: ",
  );
  expect(yamlError.details).toContain("raise verify.maxHeadAgeSeconds");

  const python = await pluginFor("python");
  const pythonError = await failure(
    invoke(python, "blockchain:index:getNodes", { network, verify: { min_verified: 3 } }),
  );
  expect(pythonError.details).toContain(
    "getNodes: 2 of 4 nodes passed the endpoint check, verify.min_verified asks 3: ",
  );
  expect(pythonError.details).toContain("raise verify.max_head_age_seconds");
  expect(pythonError.details).toContain("raise verify.timeout_seconds");
  expect(pythonError.details).not.toMatch(/minVerified|maxHeadAgeSeconds|timeoutSeconds/);
  for (const details of [yamlError.details, pythonError.details]) {
    expect(details).toContain(`${B}: it could not be reached (`);
    expect(details).not.toMatch(/\n\s+at |\/node\//);
  }
  expect(warnings()).toEqual([]);
});

test("getNode refuses a minVerified above 1, naming it as Python spells it", async () => {
  const python = await pluginFor("python");
  const error = await failure(
    invoke(python, "blockchain:index:getNode", { id: A, verify: { min_verified: 2 } }),
  );
  expect(error.details).toContain("verify.min_verified");
  expect(error.details).toContain("a healthy set of several comes from getNodes");
});

/** The strings of `value` outside secret wrappers. */
function plainStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(plainStrings);
  if (!value || typeof value !== "object" || (value as Props)[SIG_KEY] === SECRET_SIG) return [];
  return Object.values(value).flatMap(plainStrings);
}

test("no warning, error or answer held a credential outside a secret", () => {
  const said = [...everLogged, ...engine.logged].map((l) => l.message).concat(plainStrings(answers));
  expect(said.some((s) => s.includes("left out"))).toBe(true);
  expect(said.some((s) => s.includes("verify.min_verified asks 3"))).toBe(true);
  const leaked = emulator()
    .secrets()
    .filter((s) => said.some((m) => m.includes(s)));
  expect(leaked).toEqual([]);
  expect(plugins.flatMap((p) => p.transcript).join("\n")).not.toContain(emulator().apiKey);
});
