/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC stubs are untyped */
/**
 * Drives `@pulumi/pulumi`'s real dynamic-provider host (`cmd/dynamic-provider`) over gRPC, the
 * way the engine does: the provider is serialized exactly as `pulumi.dynamic.Resource` does
 * (`serializeFunction(() => provider, { allowSecrets: true })`) and passed as `__provider`.
 */
import { ChildProcess, spawn } from "child_process";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const provrpc: any = require(path.join(pulumiDir, "proto", "provider_grpc_pb"));
const provproto: any = require(path.join(pulumiDir, "proto", "provider_pb"));

type Props = Record<string, unknown>;

/** Serializes a provider exactly as a dynamic resource does; returns the text stored in `__provider`. */
export async function serializeProvider(provider: pulumi.dynamic.ResourceProvider): Promise<string> {
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return sf.text;
}

/** A running dynamic-provider host and a client speaking its gRPC interface. */
export class ProviderHost {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
    readonly stderr: () => string,
  ) {}

  /** Starts the host in `cwd` with `env` (the engine passes the project name). */
  static async start(opts: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    project?: string;
  }): Promise<ProviderHost> {
    const child = spawn(
      process.execPath,
      [path.join(pulumiDir, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:1"],
      {
        cwd: opts.cwd,
        env: { ...opts.env, PULUMI_NODEJS_PROJECT: opts.project ?? "contract" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr!.on("data", (d) => (err += d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d.toString();
        const m = /^(\d+)\s/m.exec(out);
        if (m) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`provider host exited with ${code}: ${err}`)));
    });
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new ProviderHost(child, client, () => err);
  }

  private call<T>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) =>
      this.client[method](req, (e: Error | null, resp: T) => (e ? reject(e) : resolve(resp))),
    );
  }

  /** Configure with stack config (full keys such as `blockchain:apiKey`). */
  async configure(config: Record<string, string>): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(Struct.fromJavaScript(config));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    await this.call("configure", req);
  }

  async check(
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(Struct.fromJavaScript(olds as never));
    req.setNews(Struct.fromJavaScript(news as never));
    const resp: any = await this.call("check", req);
    return {
      inputs: resp.getInputs().toJavaScript(),
      failures: resp
        .getFailuresList()
        .map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: string; replaces: string[]; detailedDiff?: Record<string, string> }> {
    const req = new provproto.DiffRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(Struct.fromJavaScript(olds as never));
    req.setNews(Struct.fromJavaScript(news as never));
    const resp: any = await this.call("diff", req);
    const names: Record<number, string> = { 0: "unknown", 1: "none", 2: "some" };
    const result = { changes: names[resp.getChanges()], replaces: resp.getReplacesList() };
    if (!resp.getHasdetaileddiff()) return result;
    // What the engine would get: each property's kind (the protocol's PropertyDiff.Kind, by name).
    const kinds = Object.fromEntries(
      Object.entries(provproto.PropertyDiff.Kind as Record<string, number>).map(([k, v]) => [v, k]),
    );
    const detailedDiff: Record<string, string> = {};
    resp.getDetaileddiffMap().forEach((d: any, key: string) => (detailedDiff[key] = kinds[d.getKind()]));
    return { ...result, detailedDiff };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(Struct.fromJavaScript(properties as never));
    const resp: any = await this.call("create", req);
    return { id: resp.getId(), properties: resp.getProperties().toJavaScript() };
  }

  /** Read (refresh): `inputs` are the inputs the provider returned for later diffs, when it did. */
  async read(
    id: string,
    urn: string,
    properties: Props,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new provproto.ReadRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(Struct.fromJavaScript(properties as never));
    const resp: any = await this.call("read", req);
    const inputs = resp.getInputs()?.toJavaScript();
    return {
      id: resp.getId(),
      properties: resp.getProperties()?.toJavaScript() ?? {},
      ...(inputs ? { inputs } : {}),
    };
  }

  async update(id: string, urn: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const req = new provproto.UpdateRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(Struct.fromJavaScript(olds as never));
    req.setNews(Struct.fromJavaScript(news as never));
    const resp: any = await this.call("update", req);
    return { properties: resp.getProperties().toJavaScript() };
  }

  async delete(id: string, urn: string, properties: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(Struct.fromJavaScript(properties as never));
    await this.call("delete", req);
  }

  /** Stops the host. */
  async stop(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once("exit", () => resolve());
      this.child.kill("SIGTERM");
    });
  }
}
