/**
 * The plugin logs each wait before a retry through the engine's `Log` call (at the address passed
 * as its last argument, or sent by `Attach`), on the resource of the call; the engine here is a
 * fake that records it.
 */
import { createRequire } from "module";
import { withEmulator } from "../helpers/emulator";
import { PluginClient } from "../helpers/plugin-client";

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc: typeof import("@grpc/grpc-js") = sdkRequire("@grpc/grpc-js");
const engineRpc = sdkRequire("./proto/engine_grpc_pb");
const engineProto = sdkRequire("./proto/engine_pb");
const { Empty } = sdkRequire("google-protobuf/google/protobuf/empty_pb");

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const NETWORK_URN = "urn:pulumi:dev::log::blockchain:index:Network::main";

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

/** A fake engine that records every `Log` call. */
async function fakeEngine(): Promise<{ address: string; logged: Logged[]; close: () => Promise<void> }> {
  const logged: Logged[] = [];
  const server = new grpc.Server();
  type Callback = import("@grpc/grpc-js").sendUnaryData<unknown>;
  interface LogRequest {
    getSeverity(): number;
    getMessage(): string;
    getUrn(): string;
  }
  const unimplemented = (_call: unknown, callback: Callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: "not in this fake" });
  server.addService(engineRpc.EngineService, {
    log: (call: { request: LogRequest }, callback: Callback) => {
      logged.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
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

const emulator = withEmulator();

test("a 429 during a refresh: the wait is logged once, through the engine, on the resource, before the error", async () => {
  const engine = await fakeEngine();
  const plugin = await PluginClient.start({ HOME: process.env.HOME }, undefined, [
    "--logtostderr",
    "-v=1",
    engine.address,
  ]);
  try {
    await plugin.configure({
      apiUrl: emulator().url,
      apiKey: { [SIG_KEY]: SECRET_SIG, value: emulator().apiKey },
      maxRetries: 1,
    });
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 1, match: { path: "/v1/networks/" } });
    const id = emulator().fixtures.networkWithNodes;
    const error = await plugin.read(NETWORK_URN, id, { networkId: id }, { networkId: id }).then(
      () => undefined,
      (e: Error & { details: string }) => e,
    );
    expect(error?.details).toMatch(/429/);
    const waits = engine.logged.filter((l) => /waiting/.test(l.message));
    expect(waits).toEqual([
      {
        severity: engineProto.LogSeverity.INFO,
        message: `Network main ${id}: the service answered 429; waiting 1 s before attempt 2 of 2`,
        urn: NETWORK_URN,
      },
    ]);
    expect(plugin.stderr()).not.toContain("waiting 1 s");
  } finally {
    emulator().setFaults({});
    await plugin.stop();
    await engine.close();
  }
});

test("Attach: a plugin started with no engine address (PULUMI_DEBUG_PROVIDERS) logs through the engine it is attached to", async () => {
  const engine = await fakeEngine();
  const plugin = await PluginClient.start({ HOME: process.env.HOME });
  try {
    await plugin.attach(engine.address);
    await plugin.configure({ apiUrl: emulator().url, apiKey: emulator().apiKey, maxRetries: 1 });
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 1, match: { path: "/v1/networks/" } });
    const id = emulator().fixtures.networkWithNodes;
    await plugin.read(NETWORK_URN, id, { networkId: id }, { networkId: id }).catch(() => undefined);
    expect(engine.logged.filter((l) => /waiting 1 s/.test(l.message))).toEqual([
      expect.objectContaining({ severity: engineProto.LogSeverity.INFO, urn: NETWORK_URN }),
    ]);
    expect(plugin.stderr()).not.toContain("waiting 1 s");
  } finally {
    emulator().setFaults({});
    await plugin.stop();
    await engine.close();
  }
});
