/**
 * A provider process started as the engine starts it, by a stand-in engine in a process of its own:
 * the stand-in serves the engine's `Log` on 127.0.0.1, starts the provider with that address as its
 * last argument and pipes for its standard streams, and prints the provider's port. So a SIGKILL of
 * the stand-in takes the engine away as a SIGKILL of `pulumi` does: the provider's parent changes,
 * its standard input ends, standard error becomes a broken pipe, the engine's address refuses
 * connections. SIGUSR1 makes the stand-in close only its engine server.
 */
import { PluginClient } from "./plugin-client";

/** The stand-in engine, run by `node -e` with the provider's command line (JSON) as its argument. */
const STAND_IN = `
const { spawn } = require("child_process");
const { createRequire } = require("module");
const sdk = createRequire(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] }));
const grpc = sdk("@grpc/grpc-js");
const rpc = sdk("./proto/engine_grpc_pb");
const { Empty } = sdk("google-protobuf/google/protobuf/empty_pb");
const say = (o) => process.stderr.write(JSON.stringify(o) + "\\n");
const [command, ...args] = JSON.parse(process.argv[1]);
const server = new grpc.Server();
const none = (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: "stand-in" });
server.addService(rpc.EngineService, {
  log: (call, callback) => { say({ log: call.request.getMessage() }); callback(null, new Empty()); },
  getRootResource: none, setRootResource: none, startDebugging: none, requirePulumiVersion: none,
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  const child = spawn(command, [...args, "127.0.0.1:" + port], { stdio: ["pipe", "pipe", "pipe"] });
  say({ pid: child.pid });
  child.stdout.pipe(process.stdout);
  child.stderr.on("data", (chunk) => say({ stderr: String(chunk) }));
});
process.on("SIGUSR1", () => server.forceShutdown());
`;

/**
 * Starts `command args…` under a stand-in engine in `cwd`, with `env` (plus PATH): a client of its
 * provider service (whose `kill` signals the stand-in engine, not the provider), the provider's
 * process id, and what the provider logged through the engine, in order.
 */
export async function underStandInEngine(command: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const client = await PluginClient.start(env, process.execPath, ["-e", STAND_IN, JSON.stringify(command)], {
    exec: true,
    cwd,
  });
  const said = () =>
    client
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { pid?: number; log?: string });
  const providerPid = said().find((o) => o.pid !== undefined)?.pid;
  if (providerPid === undefined) throw new Error(`the stand-in engine named no provider: ${client.stderr()}`);
  return {
    client,
    providerPid,
    logged: () => said().flatMap((o) => (o.log === undefined ? [] : [o.log])),
  };
}

/** The resident memory of a process, MB: the engine runner's one `/proc` reader. */
export { residentMb } from "../../scripts/engine-sandbox";
