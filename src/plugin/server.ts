/** The gRPC side of the plugin: Pulumi's provider service on the SDK's stubs, each method a thin mapping onto `./handlers.ts`. */
import * as fs from "fs";
import { createRequire } from "module";
import * as path from "path";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as rpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as protoTypes from "@pulumi/pulumi/proto/provider_pb";
import { attachEngine, withResource } from "../provider/calls";
import * as handlers from "./handlers";
import type { PropertyMap } from "./properties";
import { cancelCalls, refuseAfterCancel, trackCall } from "./shutdown";

/** True in the bundled plugin: `scripts/bundle-plugin.js` defines it; not defined elsewhere. */
declare const BLOCKCHAIN_PLUGIN_BUNDLED: boolean | undefined;
declare const BLOCKCHAIN_PLUGIN_VERSION: string | undefined;
declare const BLOCKCHAIN_PLUGIN_SCHEMA: string | undefined;

interface Stubs {
  grpc: typeof grpcTypes;
  proto: typeof protoTypes;
  rpc: typeof rpcTypes;
  pluginProto: typeof pluginTypes;
  Struct: typeof structTypes.Struct;
  Empty: typeof emptyTypes.Empty;
}

function loadStubs(): Stubs {
  // A constant in the bundle: the bundler keeps this branch and drops the other.
  if (typeof BLOCKCHAIN_PLUGIN_BUNDLED === "boolean") {
    return {
      grpc: require("@grpc/grpc-js"),
      proto: require("@pulumi/pulumi/proto/provider_pb"),
      rpc: require("@pulumi/pulumi/proto/provider_grpc_pb"),
      pluginProto: require("@pulumi/pulumi/proto/plugin_pb"),
      Struct: require("google-protobuf/google/protobuf/struct_pb").Struct,
      Empty: require("google-protobuf/google/protobuf/empty_pb").Empty,
    };
  }
  const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return {
    grpc: sdkRequire("@grpc/grpc-js"),
    proto: sdkRequire("./proto/provider_pb"),
    rpc: sdkRequire("./proto/provider_grpc_pb"),
    pluginProto: sdkRequire("./proto/plugin_pb"),
    Struct: sdkRequire("google-protobuf/google/protobuf/struct_pb").Struct,
    Empty: sdkRequire("google-protobuf/google/protobuf/empty_pb").Empty,
  };
}

const { grpc, proto, rpc, pluginProto, Struct, Empty } = loadStubs();

/** The package root of the unbundled build (`dist/plugin/server.js`): `schema.json` and `package.json` are there. */
const PACKAGE_ROOT = path.resolve(__dirname, "..", "..");

/** The plugin's version: the package's. */
export function pluginVersion(): string {
  if (typeof BLOCKCHAIN_PLUGIN_VERSION === "string") return BLOCKCHAIN_PLUGIN_VERSION;
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")).version as string;
}

/** The text of the plugin's schema: `schema.json` as committed. */
export function pluginSchema(): string {
  if (typeof BLOCKCHAIN_PLUGIN_SCHEMA === "string") return BLOCKCHAIN_PLUGIN_SCHEMA;
  return fs.readFileSync(path.join(PACKAGE_ROOT, "schema.json"), "utf8");
}

const toJs = (s: structTypes.Struct | undefined): PropertyMap => (s ? (s.toJavaScript() as PropertyMap) : {});
const toStruct = (m: PropertyMap) => Struct.fromJavaScript(m as Record<string, structTypes.JavaScriptValue>);

type Callback<T> = (err: grpcTypes.ServiceError | null, value?: T) => void;

function grpcError(err: unknown): Partial<grpcTypes.ServiceError> {
  const message = err instanceof Error ? err.message : String(err);
  return { code: grpc.status.UNKNOWN, details: message, message };
}

let onWarm: (() => void) | undefined;

/**
 * Runs `body` and answers the call with its value or its error's message, tracked until answered
 * (so a shutdown or `Cancel` can answer it), refused after `Cancel`; `warms`: its first answer runs `onWarm`.
 */
function answer<Req, Res>(body: (req: Req) => Promise<Res> | Res, warms = false) {
  return (call: { request: Req }, callback: Callback<Res>) => {
    const done = trackCall<Res>((result) => {
      if ("value" in result) callback(null, result.value);
      else callback(grpcError(result.error) as grpcTypes.ServiceError);
      const warm = warms ? onWarm : undefined;
      if (warm) {
        onWarm = undefined;
        setImmediate(warm);
      }
    });
    Promise.resolve()
      .then(() => {
        refuseAfterCancel();
        return body(call.request);
      })
      .then(
        (value) => done({ value }),
        (error: unknown) => done({ error }),
      );
  };
}

type DiffKindName = keyof typeof protoTypes.PropertyDiff.Kind;

function diffResponse(d: handlers.Diff): protoTypes.DiffResponse {
  const C = proto.DiffResponse.DiffChanges;
  const res = new proto.DiffResponse()
    .setChanges(d.changes === true ? C.DIFF_SOME : d.changes === false ? C.DIFF_NONE : C.DIFF_UNKNOWN)
    .setReplacesList(d.replaces)
    .setDeletebeforereplace(d.deleteBeforeReplace)
    .setDiffsList(d.diffs)
    .setHasdetaileddiff(true);
  for (const [key, value] of Object.entries(d.detailedDiff)) {
    const kind = proto.PropertyDiff.Kind[value.kind.toUpperCase().replace("-", "_") as DiffKindName];
    res.getDetaileddiffMap().set(key, new proto.PropertyDiff().setKind(kind).setInputdiff(value.inputDiff));
  }
  return res;
}

function checkResponse(r: { inputs: PropertyMap; failures: handlers.Failure[] }): protoTypes.CheckResponse {
  const failures = r.failures.map((f) =>
    new proto.CheckFailure().setProperty(f.property).setReason(f.reason),
  );
  return new proto.CheckResponse().setInputs(toStruct(r.inputs)).setFailuresList(failures);
}

/** The implementation of `pulumirpc.ResourceProvider` served by the plugin. */
export const providerService = {
  getPluginInfo: answer(() => new pluginProto.PluginInfo().setVersion(pluginVersion())),
  getSchema: answer((req: protoTypes.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    return new proto.GetSchemaResponse().setSchema(pluginSchema());
  }),
  checkConfig: answer((req: protoTypes.CheckRequest) =>
    checkResponse(handlers.checkConfig(toJs(req.getNews()))),
  ),
  diffConfig: answer((req: protoTypes.DiffRequest) =>
    diffResponse(handlers.diffConfig(toJs(req.getOlds()), toJs(req.getNews()))),
  ),
  configure: answer((req: protoTypes.ConfigureRequest) => {
    const variables: Record<string, string> = {};
    req.getVariablesMap().forEach((value, key) => (variables[key] = value));
    handlers.configure(toJs(req.getArgs()), variables);
    return new proto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(false)
      .setAcceptresources(false)
      .setAcceptoutputs(false);
  }),
  invoke: answer(async (req: protoTypes.InvokeRequest) => {
    const result = await handlers.invoke(req.getTok(), toJs(req.getArgs()));
    return new proto.InvokeResponse().setReturn(toStruct(result));
  }, true),
  check: answer(async (req: protoTypes.CheckRequest) => {
    const [urn, olds, news] = [req.getUrn(), toJs(req.getOlds()), toJs(req.getNews())];
    return checkResponse(await withResource(urn, () => handlers.check(urn, olds, news)));
  }, true),
  diff: answer(
    async (req: protoTypes.DiffRequest) =>
      diffResponse(await handlers.diff(req.getUrn(), req.getId(), toJs(req.getOlds()), toJs(req.getNews()))),
    true,
  ),
  create: answer(async (req: protoTypes.CreateRequest) => {
    const urn = req.getUrn();
    const { id, props } = await withResource(urn, () => handlers.create(urn, toJs(req.getProperties())));
    return new proto.CreateResponse().setId(id).setProperties(toStruct(props));
  }, true),
  read: answer(async (req: protoTypes.ReadRequest) => {
    const r = await withResource(req.getUrn(), () =>
      handlers.read(req.getUrn(), req.getId(), toJs(req.getProperties()), toJs(req.getInputs())),
    );
    const res = new proto.ReadResponse().setId(r.id).setProperties(toStruct(r.props));
    return r.inputs ? res.setInputs(toStruct(r.inputs)) : res;
  }, true),
  update: answer(async (req: protoTypes.UpdateRequest) => {
    const { props } = await withResource(req.getUrn(), () =>
      handlers.update(req.getUrn(), req.getId(), toJs(req.getOlds()), toJs(req.getNews())),
    );
    return new proto.UpdateResponse().setProperties(toStruct(props));
  }, true),
  delete: answer(async (req: protoTypes.DeleteRequest) => {
    const urn = req.getUrn();
    await withResource(urn, () => handlers.remove(urn, req.getId(), toJs(req.getProperties())));
    return new Empty();
  }, true),
  // Answered at once, never refused: Cancel is advisory and may come again.
  cancel: (_call: unknown, callback: Callback<emptyTypes.Empty>) => {
    cancelCalls();
    callback(null, new Empty());
  },
  attach: answer((req: pluginTypes.PluginAttach) => {
    attachEngine(req.getAddress());
    return new Empty();
  }),
};

/** Serves the plugin on 127.0.0.1 (a free port) and resolves with the port; `onWarm` runs after the first call. */
export function serve(options: { onWarm?: () => void } = {}) {
  onWarm = options.onWarm;
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 1024 * 1024 * 400,
    "grpc.max_send_message_length": 1024 * 1024 * 400,
  });
  server.addService(
    rpc.ResourceProviderService,
    providerService as unknown as grpcTypes.UntypedServiceImplementation,
  );
  return new Promise<{ port: number; server: grpcTypes.Server }>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve({ port, server }),
    );
  });
}
