/**
 * The serialized `__provider` of Network and FaucetDrip, then the cold starts of `@pulumi/pulumi`'s real
 * dynamic-provider host and of the provider plugin as users install it, each to its first completed Network
 * read, against a bare Node.js process making the same PATCH (docs/performance.md).
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { providerFor } from "../../src/resources/shell";
import { filesUnder } from "../engine-sandbox";
import { NETWORK_URN, PluginClient, serializeProvider } from "../../test/helpers/plugin-client";
import {
  ROOT,
  atMost,
  median,
  ms,
  timed,
  withEmulatorProcess,
  x,
  type EmulatorProcess,
  type Row,
} from "./common";

const RUNS = 3;
const PLUGIN_RUNS = 5;
const TARBALL_TARGET = 3 * 1024 * 1024;
const URN = "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/blockchain:Network::main";

/** The bare process: Node.js, its `http` module, one PATCH; exits when the answer is read (0: a network). */
const BARE = `
const http = require("http");
const [url, key] = process.argv.slice(1);
const req = http.request(url, { method: "PATCH", headers: { Authorization: "Bearer " + key, "Content-Type": "application/json" } }, (res) => {
  let body = ""; res.on("data", (c) => (body += c)); res.on("end", () => process.exit(res.statusCode === 200 && JSON.parse(body).id ? 0 : 1));
});
req.end("{}");`;

const bare = (url: string, key: string): Promise<number> =>
  timed(() => promisify(execFile)(process.execPath, ["-e", BARE, url, key])).then((r) => r.ms);

export async function runProvider(log: (line: string) => void): Promise<Row[]> {
  const network = await serializeProvider(providerFor("network"));
  const rows: Row[] = [];
  for (const [name, kind] of Object.entries({ Network: "network", FaucetDrip: "faucetDrip" } as const)) {
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
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-"));
    try {
      const pack = [path.join(ROOT, "scripts", "plugin-pack.js"), "--out", work];
      const packed = execFileSync(process.execPath, pack, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      const tarball = packed.toString().trim().split("\n").pop()!;
      const size = fs.statSync(tarball).size;
      // Unpacked as `pulumi plugin install` does: the tarball's files in a folder of their own.
      const installed = path.join(work, "plugins", "resource-blockchain");
      fs.mkdirSync(installed, { recursive: true });
      execFileSync("tar", ["-xzf", tarball, "-C", installed]);
      const unpacked = filesUnder(installed).reduce((n, f) => n + fs.statSync(f).size, 0);
      const launcher = path.join(installed, "pulumi-resource-blockchain");
      /** The code caches the launcher wrote beside the bundle. */
      const caches = () => fs.readdirSync(installed).filter((f) => f.endsWith(".cache"));

      const [first, later, pluginBareRuns]: number[][] = [[], [], []];
      for (let i = 0; i < PLUGIN_RUNS; i++) {
        for (const f of caches()) fs.rmSync(path.join(installed, f));
        first.push(await coldStart(launcher, emulator, id));
        pluginBareRuns.push(await bareRun());
      }
      if (caches().length !== 1) throw new Error("the first start wrote no code cache");
      for (let i = 0; i < PLUGIN_RUNS; i++) {
        later.push(await coldStart(launcher, emulator, id));
        pluginBareRuns.push(await bareRun());
      }
      const [pb, f, l] = [median(pluginBareRuns), median(first), median(later)];
      log(
        `plugin cold start: first ${first.map(ms).join(", ")}; later ${later.map(ms).join(", ")}; bare ${pluginBareRuns.map(ms).join(", ")}`,
      );
      const section = "provider plugin";
      return [
        ...rows,
        {
          section,
          figure: `plugin tarball ${path.basename(tarball)} (the same bundle for every OS and architecture)`,
          value: `${kib(size)} (${kib(unpacked)} unpacked)`,
          baseline: `${kib(TARBALL_TARGET)} (target)`,
          ratio: x(size / TARBALL_TARGET),
          goal: "<= 3 MB",
          met: size <= TARBALL_TARGET,
        },
        {
          section,
          figure: `cold start of the installed plugin, run as the engine runs it, to the first completed Network read; code cache written by an earlier start (median of ${PLUGIN_RUNS})`,
          value: ms(l),
          baseline: `bare Node.js process, same PATCH: ${ms(pb)} (median of ${pluginBareRuns.length}); dynamic-provider host: ${ms(h)}`,
          ...atMost(l / pb, 1.5),
          ratio: `${x(l / pb)} (${x(l / h)} of the dynamic host)`,
        },
        {
          section,
          figure: `the same, first start after install: no code cache yet, the start writes it (median of ${PLUGIN_RUNS})`,
          value: ms(f),
          baseline: `bare Node.js process: ${ms(pb)}`,
          ratio: x(f / pb),
          goal: "once per install and Node.js version",
        },
      ];
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
}

const kib = (bytes: number): string => `${Math.round(bytes / 1024).toLocaleString("en-US")} KiB`;

/** Starts the installed plugin as the engine does, configures it and reads a network; resolves with the ms. */
async function coldStart(launcher: string, emulator: EmulatorProcess, id: string): Promise<number> {
  const t = performance.now();
  const plugin = await PluginClient.start({}, launcher, [], { exec: true });
  await plugin.configure({ apiUrl: emulator.url, apiKey: emulator.apiKey });
  const read = await plugin.read(NETWORK_URN, id, { networkId: id, managedInputs: [] }, { networkId: id });
  const took = performance.now() - t;
  await plugin.stop();
  if (read.id !== id) throw new Error(`plugin read returned id ${read.id}`);
  return took;
}
