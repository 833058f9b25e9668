/**
 * The serialized `__provider` of Network and FaucetDrip (as `pulumi.dynamic.Resource` stores it),
 * and the provider host's cold start: from starting `@pulumi/pulumi`'s real dynamic-provider host
 * to its first completed `read` of a Network, against a bare Node.js process that makes the same
 * HTTP call (`PATCH /v1/networks/{id}/` with `{}`); then the provider plugin, which every YAML or
 * Python program starts, as users install it (`./plugin.ts`).
 */
import { spawn } from "child_process";
import { providerFor } from "../../src/resources/shell";
import { PluginClient, serializeProvider } from "../../test/helpers/plugin-client";
import { ROOT, atMost, median, ms, timed, withEmulatorProcess, x, type Row } from "./common";
import { runPlugin } from "./plugin";

const RUNS = 3;
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/blockchain:Network::main";

/** The bare process: Node.js, its `http` module, one PATCH; exits when the answer is read. */
const BARE = `
const http = require("http");
const [url, key] = process.argv.slice(1);
const req = http.request(url, { method: "PATCH", headers: { Authorization: "Bearer " + key, "Content-Type": "application/json" } }, (res) => {
  let body = ""; res.on("data", (c) => (body += c)); res.on("end", () => process.exit(res.statusCode === 200 && JSON.parse(body).id ? 0 : 1));
});
req.end("{}");`;

/** Runs the bare process once; resolves with its ms. */
const bare = (url: string, key: string): Promise<number> =>
  timed(
    () =>
      new Promise<void>((resolve, reject) =>
        spawn(process.execPath, ["-e", BARE, url, key], { stdio: "ignore" }).on("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`bare process exited with ${code}`)),
        ),
      ),
  ).then((r) => r.ms);

export async function runProvider(log: (line: string) => void): Promise<Row[]> {
  const network = await serializeProvider(providerFor("network"));
  const rows: Row[] = [];
  for (const [name, kind] of [
    ["Network", "network"],
    ["FaucetDrip", "faucetDrip"],
  ] as const) {
    const size = Buffer.byteLength(kind === "network" ? network : await serializeProvider(providerFor(kind)));
    rows.push({
      section: "serialized provider",
      figure: `${name} \`__provider\` size`,
      value: `${size.toLocaleString("en-US")} bytes`,
      baseline: "4,096 bytes (target)",
      ratio: x(size / 4096),
      goal: "<= 4 KB",
      met: size <= 4096,
    });
  }

  return withEmulatorProcess({ seed: 1 }, async (emulator) => {
    const id = emulator.fixtures.networkWithNodes;
    const bareRun = () => bare(`${emulator.url}/v1/networks/${id}/`, emulator.apiKey);
    const [hostRuns, listening, bareRuns]: number[][] = [[], [], []];
    for (let i = 0; i < RUNS; i++) {
      const host = await timed(async () => {
        const t = performance.now();
        const h = await PluginClient.dynamicProviderHost(ROOT, process.env, "bench");
        listening.push(performance.now() - t);
        await h.configure({ "blockchain:apiUrl": emulator.url, "blockchain:apiKey": emulator.apiKey });
        const read = await h.read(URN, id, { networkId: id, __provider: network });
        if (read.id !== id) throw new Error(`read returned id ${read.id}`);
        return h;
      });
      hostRuns.push(host.ms);
      await host.result.stop();
      bareRuns.push(await bareRun());
    }
    const [h, b] = [median(hostRuns), median(bareRuns)];
    log(`cold start: host ${hostRuns.map(ms).join(", ")}; bare ${bareRuns.map(ms).join(", ")}`);
    rows.push({
      section: "provider host cold start",
      figure: `start of the dynamic-provider host to the first completed Network read (median of ${RUNS})`,
      value: ms(h),
      baseline: `bare Node.js process, same PATCH: ${ms(b)}`,
      ...atMost(h / b, 2),
    });
    if (h / b > 2) {
      const l = median(listening);
      rows.push({
        section: "provider host cold start",
        figure: "where the time goes: the host process up and listening (loading @pulumi/pulumi and gRPC)",
        value: ms(l),
        baseline: `then configure + read: ${ms(h - l)}`,
        ratio: `${x(l / h)} of the cold start`,
      });
    }
    return [...rows, ...(await runPlugin(emulator, id, bareRun, h, log))];
  });
}
