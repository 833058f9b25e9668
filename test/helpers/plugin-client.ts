/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC stubs are untyped */
/**
 * Runs the `blockchain` provider plugin (`bin/pulumi-resource-blockchain`, which runs the bundle
 * `npm run build` writes to `dist/plugin/pulumi-resource-blockchain.js`)
 * as a child process and speaks Pulumi's provider protocol to it over gRPC, the way the engine
 * does, on the SDK's own stubs. Property maps go in and come out as plain JavaScript (the
 * `google.protobuf.Struct` form: secrets stay wrapped). Every answer, and every error's details,
 * is kept in {@link PluginClient.transcript} for audits.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import { createRequire } from "module";
import * as path from "path";

/** The package root: the nearest folder above this file with a `bin/` holding the plugin (also when compiled to build/). */
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

export type Props = Record<string, unknown>;

/** A `check` failure. */
export interface Failure {
  property: string;
  reason: string;
}

/** A `diff` answer, the enums by name (`DIFF_SOME`, `UPDATE_REPLACE`, ...). */
export interface DiffAnswer {
  changes: "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME";
  replaces: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
  hasDetailedDiff: boolean;
  detailedDiff: Record<string, { kind: string; inputDiff: boolean }>;
}

const toStruct = (props: Props) => Struct.fromJavaScript(props);
const fromStruct = (s: any): Props | undefined => (s ? s.toJavaScript() : undefined);
const names = (enumeration: Record<string, number>) =>
  Object.fromEntries(Object.entries(enumeration).map(([k, v]) => [v, k]));
const CHANGES = names(proto.DiffResponse.DiffChanges);
const KINDS = names(proto.PropertyDiff.Kind);

/** The plugin launcher, and the build it runs. */
export const PLUGIN_BIN = path.join(root, "bin", "pulumi-resource-blockchain");
const PLUGIN_MAIN = path.join(root, "dist", "plugin", "pulumi-resource-blockchain.js");

/** A running plugin process and a client of its `pulumirpc.ResourceProvider` service. */
export class PluginClient {
  /** Every answer (JSON) and every error's details, in order. */
  readonly transcript: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
    /** What the plugin wrote on standard error so far. */
    readonly stderr: () => string,
  ) {}

  /**
   * Starts the plugin with exactly `env` (plus PATH): no `BLOCKCHAIN_API_*` variable of this
   * process leaks into it unless given. `bin`: this checkout's plugin by default, or another copy
   * (an installed package's `bin/pulumi-resource-blockchain`), run from its own folder. `args`:
   * what the engine passes (its own address last). `exec`: run `bin` itself, as the engine does
   * (its shell lines, then `node` from PATH), instead of `node <bin>`.
   */
  static async start(
    env: NodeJS.ProcessEnv = {},
    bin: string = PLUGIN_BIN,
    args: string[] = [],
    options: { exec?: boolean } = {},
  ): Promise<PluginClient> {
    if (bin === PLUGIN_BIN && !fs.existsSync(PLUGIN_MAIN)) {
      throw new Error(`${path.relative(root, PLUGIN_MAIN)} is missing: run npm run build first`);
    }
    const child = spawn(options.exec ? bin : process.execPath, options.exec ? args : [bin, ...args], {
      cwd: bin === PLUGIN_BIN ? root : path.dirname(bin),
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

  private call<T>(method: string, req: unknown): Promise<T> {
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
    const resp: any = await this.call("getPluginInfo", new Empty());
    return { version: resp.getVersion() };
  }

  async getSchema(version = 0): Promise<string> {
    const req = new proto.GetSchemaRequest();
    req.setVersion(version);
    const resp: any = await this.call("getSchema", req);
    return resp.getSchema();
  }

  /** Configure with `args` (the provider's inputs: `apiUrl`, `apiKey`) and legacy `variables`. */
  async configure(args: Props, variables: Record<string, string> = {}): Promise<{ acceptSecrets: boolean }> {
    const req = new proto.ConfigureRequest();
    req.setArgs(toStruct(args));
    for (const [k, v] of Object.entries(variables)) req.getVariablesMap().set(k, v);
    req.setAcceptsecrets(true);
    const resp: any = await this.call("configure", req);
    return { acceptSecrets: resp.getAcceptsecrets() };
  }

  private checkRequest(urn: string, olds: Props, news: Props) {
    const req = new proto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    return req;
  }

  private static checkAnswer(resp: any): { inputs: Props; failures: Failure[] } {
    return {
      inputs: fromStruct(resp.getInputs()) ?? {},
      failures: resp
        .getFailuresList()
        .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async checkConfig(news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
    const urn = "urn:pulumi:dev::contract::pulumi:providers:blockchain::default";
    return PluginClient.checkAnswer(await this.call("checkConfig", this.checkRequest(urn, olds, news)));
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: Failure[] }> {
    return PluginClient.checkAnswer(await this.call("check", this.checkRequest(urn, olds, news)));
  }

  private diffRequest(urn: string, id: string, olds: Props, news: Props) {
    const req = new proto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    return req;
  }

  private static diffAnswer(resp: any): DiffAnswer {
    const detailedDiff: DiffAnswer["detailedDiff"] = {};
    resp
      .getDetaileddiffMap()
      .forEach(
        (d: any, key: string) =>
          (detailedDiff[key] = { kind: KINDS[d.getKind()], inputDiff: d.getInputdiff() }),
      );
    return {
      changes: CHANGES[resp.getChanges()] as DiffAnswer["changes"],
      replaces: resp.getReplacesList(),
      diffs: resp.getDiffsList(),
      deleteBeforeReplace: resp.getDeletebeforereplace(),
      hasDetailedDiff: resp.getHasdetaileddiff(),
      detailedDiff,
    };
  }

  async diffConfig(olds: Props, news: Props): Promise<DiffAnswer> {
    const urn = "urn:pulumi:dev::contract::pulumi:providers:blockchain::default";
    return PluginClient.diffAnswer(await this.call("diffConfig", this.diffRequest(urn, "", olds, news)));
  }

  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffAnswer> {
    return PluginClient.diffAnswer(await this.call("diff", this.diffRequest(urn, id, olds, news)));
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const req = new proto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(toStruct(properties));
    const resp: any = await this.call("create", req);
    return { id: resp.getId(), properties: fromStruct(resp.getProperties()) ?? {} };
  }

  /** Read: refresh (prior `properties` and `inputs`) or import (both empty). */
  async read(
    urn: string,
    id: string,
    properties: Props,
    inputs: Props,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new proto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(toStruct(properties));
    req.setInputs(toStruct(inputs));
    const resp: any = await this.call("read", req);
    const newInputs = fromStruct(resp.getInputs());
    return {
      id: resp.getId(),
      properties: fromStruct(resp.getProperties()) ?? {},
      ...(newInputs ? { inputs: newInputs } : {}),
    };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const req = new proto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    const resp: any = await this.call("update", req);
    return { properties: fromStruct(resp.getProperties()) ?? {} };
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    const req = new proto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(toStruct(properties));
    await this.call("delete", req);
  }

  async invoke(tok: string, args: Props): Promise<{ return: Props; failures: Failure[] }> {
    const req = new proto.InvokeRequest();
    req.setTok(tok);
    req.setArgs(toStruct(args));
    const resp: any = await this.call("invoke", req);
    return {
      return: fromStruct(resp.getReturn()) ?? {},
      failures: resp
        .getFailuresList()
        .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Sends `signal` to the plugin process, as the engine or a CI runner stopping it does. */
  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Resolves once the plugin process has exited, with its exit code or the signal that ended it. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      return Promise.resolve({ code: this.child.exitCode, signal: this.child.signalCode });
    }
    return new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Closes the client and stops the plugin (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      this.child.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      this.child.kill("SIGTERM");
    });
  }
}
