/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC stubs are untyped */
/** A provider process (the plugin or the dynamic-provider host) spoken to over gRPC as the engine does. */
import { ChildProcess, spawn } from "child_process";
import { once } from "events";
import { setTimeout as sleep } from "timers/promises";
import * as fs from "fs";
import { createRequire } from "module";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** The package root: the nearest folder above with `bin/pulumi-resource-blockchain` (also when compiled to build/). */
function packageRoot(dir: string): string {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "bin", "pulumi-resource-blockchain"))) return d;
  }
  return path.resolve(__dirname, "..", "..");
}
const root = packageRoot(__dirname);
const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc: typeof import("@grpc/grpc-js") = sdkRequire("@grpc/grpc-js");
const rpc: any = sdkRequire("./proto/provider_grpc_pb");
const proto: any = sdkRequire("./proto/provider_pb");
const { Struct } = sdkRequire("google-protobuf/google/protobuf/struct_pb");
const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb");
const { PluginAttach } = sdkRequire("./proto/plugin_pb");

export type Props = Record<string, unknown>;

/** How a call ended: its value, or its error (gRPC's `details` with it). */
export type Settled<T> = { ok: T; err?: undefined } | { ok?: undefined; err: Error & { details?: string } };

/** The end of `promise`, as a value either way. */
export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (ok) => ({ ok }),
    (err: Error) => ({ err }),
  );

/** A gRPC error: its status `code` and its `details` (the provider's message). */
export type GrpcError = Error & { details: string; code: number };

/** The gRPC error of a call that must fail. */
export async function failure(promise: Promise<unknown>): Promise<GrpcError> {
  const { err } = await settle(promise);
  if (!err) throw new Error("expected the call to fail, it succeeded");
  return err as GrpcError;
}

/** gRPC's status codes by name (`UNKNOWN`, `UNIMPLEMENTED`, ...). */
export const GRPC_STATUS = grpc.status;

/** The protocol's secret wrapper: a value wrapped as `{ [SIG_KEY]: SECRET_SIG, value }`. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
export const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;

/** The strings outside secret wrappers, and the paths of endpoint or credential fields outside them. */
export function audit(value: unknown): { plainStrings: string[]; exposed: string[] } {
  const plainStrings: string[] = [];
  const exposed: string[] = [];
  const walk = (v: unknown, at: string, inSecret: boolean) => {
    if (isSecret(v)) return walk(v.value, `${at}<secret>`, true);
    if (typeof v === "string" && !inSecret) plainStrings.push(v);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${at}[${i}]`, inSecret));
    else if (typeof v === "object" && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        if (/^(https|wss|graphql|beacon)Endpoint$|^auth(Username|Password|Key)$/.test(k) && !inSecret)
          exposed.push(`${at}.${k}`);
        walk(item, `${at}.${k}`, inSecret);
      }
    }
  };
  walk(value, "", false);
  return { plainStrings, exposed };
}

export { sleep };

/** The first value `probe` gives other than undefined, polled every 20 ms; fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (let value = probe(); ; value = probe()) {
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** The engine's log severities by name (`INFO`, `WARNING`, ...). */
export const LOG_SEVERITY: Record<string, number> = sdkRequire("./proto/engine_pb").LogSeverity;

/** A stand-in engine in this process on 127.0.0.1, recording every `Log` call (grpc-js answers its other calls UNIMPLEMENTED). */
export async function fakeEngine() {
  const logged: Array<{ severity: number; message: string; urn: string }> = [];
  const server = new grpc.Server();
  server.addService(sdkRequire("./proto/engine_grpc_pb").EngineService, {
    log: ({ request: r }: { request: any }, callback: import("@grpc/grpc-js").sendUnaryData<unknown>) => {
      logged.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn() });
      callback(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    logged,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    /** Closes at once, calls in flight and all. */
    kill: () => server.forceShutdown(),
  };
}

/** A `diff` answer, the enums by name (`DIFF_SOME`, `UPDATE_REPLACE`, ...). */
export type DiffAnswer = Awaited<ReturnType<PluginClient["diff"]>>;

const fromStruct = (s: any): Props | undefined => (s ? s.toJavaScript() : undefined);
const names = (enumeration: Record<string, number>) =>
  Object.fromEntries(Object.entries(enumeration).map(([k, v]) => [v, k]));
const CHANGES = names(proto.DiffResponse.DiffChanges);
const KINDS = names(proto.PropertyDiff.Kind);
const PROVIDER_URN = "urn:pulumi:dev::contract::pulumi:providers:blockchain::default";

/** A request of `type` with its fields set (`urn: "..."` calls `setUrn("...")`; property maps as Structs). */
function request(type: string, fields: Record<string, unknown>): any {
  const req = new proto[type]();
  for (const [field, value] of Object.entries(fields)) {
    const isMap = typeof value === "object" && value !== null && !Array.isArray(value);
    req[`set${field[0].toUpperCase()}${field.slice(1)}`](isMap ? Struct.fromJavaScript(value) : value);
  }
  return req;
}

const failures = (resp: any): Array<{ property: string; reason: string }> => resp.toObject().failuresList;

/** The plugin launcher, and the build it runs. */
export const PLUGIN_BIN = path.join(root, "bin", "pulumi-resource-blockchain");
const PLUGIN_MAIN = path.join(root, "dist", "plugin", "pulumi-resource-blockchain.js");
/** `@pulumi/pulumi`'s dynamic-provider host. */
export const DYNAMIC_PROVIDER_HOST = path.join(
  path.dirname(require.resolve("@pulumi/pulumi/package.json")),
  "cmd",
  "dynamic-provider",
  "index.js",
);

/** A running provider process and a client of its `pulumirpc.ResourceProvider` service. */
export class PluginClient {
  /** Every answer (JSON) and every error's details, in order. */
  readonly transcript: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
    /** What the process wrote on standard error so far. */
    readonly stderr: () => string,
  ) {}

  /** Starts `bin` (run by node unless `exec`) with exactly `env` plus PATH, in its own folder unless `cwd`. */
  static async start(
    env: NodeJS.ProcessEnv = {},
    bin: string = PLUGIN_BIN,
    args: string[] = [],
    options: { exec?: boolean; cwd?: string } = {},
  ): Promise<PluginClient> {
    // The plugin and the dynamic-provider host's provider runtime both run the build.
    if (!fs.existsSync(PLUGIN_MAIN)) throw new Error("dist/ is missing: run `npm run build` first");
    const child = spawn(options.exec ? bin : process.execPath, options.exec ? args : [bin, ...args], {
      cwd: options.cwd ?? (bin === PLUGIN_BIN ? root : path.dirname(bin)),
      env: { PATH: process.env.PATH, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let err = "";
    child.stderr!.on("data", (d) => (err += d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d.toString();
        const line = /^(.*)\n/.exec(out);
        if (!line) return;
        if (/^\d+$/.test(line[1])) resolve(line[1]);
        else reject(new Error(`plugin printed ${JSON.stringify(line[1])} instead of a port`));
      });
      child.on("exit", (code) => reject(new Error(`plugin exited with ${code}: ${err}`)));
      child.on("error", reject);
    });
    const client = new rpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new PluginClient(child, client, () => err);
  }

  /** `@pulumi/pulumi`'s dynamic-provider host for `project`, in `cwd` (where the runtime resolves from). */
  static dynamicProviderHost(cwd: string, env: NodeJS.ProcessEnv = {}, project = "contract") {
    const hostEnv = { ...env, PULUMI_NODEJS_PROJECT: project };
    return PluginClient.start(hostEnv, DYNAMIC_PROVIDER_HOST, ["127.0.0.1:1"], { cwd });
  }

  private call(method: string, req: unknown): Promise<any> {
    return new Promise((resolve, reject) =>
      this.client[method](req, (e: (Error & { details?: string }) | null, resp: any) => {
        if (e) {
          this.transcript.push(e.details ?? e.message);
          reject(e);
        } else {
          this.transcript.push(JSON.stringify(resp.toObject()));
          resolve(resp);
        }
      }),
    );
  }

  async getPluginInfo(): Promise<{ version: string }> {
    return { version: (await this.call("getPluginInfo", new Empty())).getVersion() };
  }

  async getSchema(version = 0): Promise<string> {
    return (await this.call("getSchema", request("GetSchemaRequest", { version }))).getSchema();
  }

  /** Configure with `args` (the provider's inputs: `apiUrl`, `apiKey`) and legacy `variables`. */
  async configure(args: Props, variables: Record<string, string> = {}): Promise<{ acceptSecrets: boolean }> {
    const req = request("ConfigureRequest", { args, acceptsecrets: true });
    for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
    return { acceptSecrets: (await this.call("configure", req)).getAcceptsecrets() };
  }

  async checkConfig(news: Props, olds: Props = {}) {
    return this.check(PROVIDER_URN, olds, news, "checkConfig");
  }

  async check(urn: string, olds: Props, news: Props, method = "check") {
    const resp = await this.call(method, request("CheckRequest", { urn, olds, news }));
    return { inputs: fromStruct(resp.getInputs()) ?? {}, failures: failures(resp) };
  }

  async diffConfig(olds: Props, news: Props) {
    return this.diff(PROVIDER_URN, "", olds, news, "diffConfig");
  }

  async diff(urn: string, id: string, olds: Props, news: Props, method = "diff") {
    const o = (await this.call(method, request("DiffRequest", { urn, id, olds, news }))).toObject();
    const detailed: Array<[string, { kind: number; inputdiff: boolean }]> = o.detaileddiffMap;
    return {
      changes: CHANGES[o.changes] as "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME",
      replaces: o.replacesList as string[],
      diffs: o.diffsList as string[],
      deleteBeforeReplace: o.deletebeforereplace as boolean,
      hasDetailedDiff: o.hasdetaileddiff as boolean,
      detailedDiff: Object.fromEntries(
        detailed.map(([key, d]) => [key, { kind: KINDS[d.kind], inputDiff: d.inputdiff }]),
      ),
    };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const resp = await this.call("create", request("CreateRequest", { urn, properties }));
    return { id: resp.getId(), properties: fromStruct(resp.getProperties()) ?? {} };
  }

  /** Read: refresh (prior `properties` and `inputs`) or import (both empty). */
  async read(
    urn: string,
    id: string,
    properties: Props,
    inputs: Props = {},
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const resp = await this.call("read", request("ReadRequest", { urn, id, properties, inputs }));
    const newInputs = fromStruct(resp.getInputs());
    return {
      id: resp.getId(),
      properties: fromStruct(resp.getProperties()) ?? {},
      ...(newInputs ? { inputs: newInputs } : {}),
    };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const resp = await this.call("update", request("UpdateRequest", { urn, id, olds, news }));
    return { properties: fromStruct(resp.getProperties()) ?? {} };
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    await this.call("delete", request("DeleteRequest", { urn, id, properties }));
  }

  async invoke(tok: string, args: Props) {
    const resp = await this.call("invoke", request("InvokeRequest", { tok, args }));
    return { return: fromStruct(resp.getReturn()) ?? {}, failures: failures(resp) };
  }

  /** `Cancel`, as the engine sends it when a run is cancelled (and before it closes a provider). */
  async cancel(): Promise<void> {
    await this.call("cancel", new Empty());
  }

  /** `Attach` with the engine's `address`, as the engine sends it to a provider started beforehand. */
  async attach(address: string): Promise<void> {
    const req = new PluginAttach();
    req.setAddress(address);
    await this.call("attach", req);
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Resolves once the process has exited, with its exit code or the signal that ended it. */
  async exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) await once(this.child, "exit");
    return { code: this.child.exitCode, signal: this.child.signalCode };
  }

  /** Closes the client and stops the process (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const kill = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    this.child.kill("SIGTERM");
    await once(this.child, "exit");
    clearTimeout(kill);
  }
}

/** The URNs of a Network and a FaucetDrip of the plugin, as the engine names them. */
export const NETWORK_URN = "urn:pulumi:dev::contract::blockchain:index:Network::main";
export const FAUCET_URN = "urn:pulumi:dev::contract::blockchain:index:FaucetDrip::drip";

/** Plugins started with HOME (configured with `config` if given) and any client pushed to `started`; `stop` ends them all. */
export function pluginPool() {
  const started: PluginClient[] = [];
  const start = async (config?: Props, env: NodeJS.ProcessEnv = {}, args: string[] = [], cwd?: string) => {
    const plugin = await PluginClient.start({ HOME: process.env.HOME, ...env }, PLUGIN_BIN, args, { cwd });
    started.push(plugin);
    if (config) await plugin.configure(config);
    return plugin;
  };
  return { started, start, stop: () => Promise.all(started.map((p) => p.stop())) };
}

/** Serializes a provider exactly as `pulumi.dynamic.Resource` does; returns the text stored in `__provider`. */
export async function serializeProvider(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  const { runtime }: typeof pulumi = require("@pulumi/pulumi");
  return (await runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}
