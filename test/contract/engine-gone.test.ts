/**
 * Stops a provider can hear: its engine SIGKILLed during a rename the service holds (the stand-in
 * engine of `engine-parent.ts`), or its engine's address closing. The provider (Pulumi's
 * dynamic-provider host running the runtime, and the plugin) exits, sends no request after it,
 * its memory bounded. And a rename the service holds past a write's bound, through the host that
 * hears no Cancel: one PATCH, and one line saying the rename may have been applied.
 */
import * as diagnostics from "diagnostics_channel";
import * as fs from "fs";
import type { IncomingMessage, Server } from "http";
import * as path from "path";
import { providerFor } from "../../src/resources/shell";
import { withEmulator } from "../helpers/emulator";
import { residentMb, underStandInEngine, type EngineParent } from "../helpers/engine-parent";
import { PluginClient, serializeProvider, settle, type Props, type Settled } from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
const HOST = path.join(
  path.dirname(require.resolve("@pulumi/pulumi/package.json")),
  "cmd",
  "dynamic-provider",
);
/** Far longer than any bound below: what ends a held request here is the provider. */
const HOLD_MS = 120_000;
/** Generous: the provider must be gone well within this after its engine (this machine is noisy). */
const EXIT_DEADLINE_MS = 20_000;
/** The matrix's bound on a provider's memory (scripts/bad-days.ts): a runaway passes it in seconds. */
const RSS_BOUND_MB = 400;
const PROC = fs.existsSync("/proc/self/status");

const emulator = withEmulator();
const started: PluginClient[] = [];

/** The requests that reached the emulator's server (in this process), in order. */
let arrivals: Array<{ method: string; path: string; complete: () => boolean }> = [];
const onRequest = (message: unknown) => {
  const { request, server } = message as { request: IncomingMessage; server: Server };
  const address = server.address();
  if (typeof address !== "object" || address?.port !== Number(new URL(emulator().url).port)) return;
  const path = (request.url ?? "").split("?")[0];
  arrivals.push({ method: request.method ?? "", path, complete: () => request.complete });
};
beforeAll(() => diagnostics.subscribe("http.server.request.start", onRequest));
afterEach(() => {
  emulator().setRouteDelays({});
  arrivals = [];
});
afterAll(async () => {
  diagnostics.unsubscribe("http.server.request.start", onRequest);
  await Promise.all(started.map((p) => p.stop()));
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** One of the two hosts: how it is started, configured and asked for a rename. */
interface Host {
  name: string;
  command: () => string[];
  configure(client: PluginClient): Promise<unknown>;
  rename(client: PluginClient, id: string, name: string): Promise<unknown>;
}

let networkProvider = "";
const DYNAMIC: Host = {
  name: "Pulumi's dynamic-provider host",
  command: () => [process.execPath, HOST],
  configure: (client) =>
    client.configure({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey }),
  rename: (client, id, name) => {
    const olds: Props = {
      networkId: id,
      name: "before",
      managedInputs: ["name"],
      __provider: networkProvider,
    };
    const news: Props = { networkId: id, name, __provider: networkProvider };
    return client.update(
      "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:Network::main",
      id,
      olds,
      news,
    );
  },
};
const PLUGIN: Host = {
  name: "the plugin",
  command: () => [process.execPath, path.join(root, "bin", "pulumi-resource-blockchain")],
  configure: (client) => client.configure({ apiUrl: emulator().url, apiKey: emulator().apiKey }),
  rename: (client, id, name) => {
    const olds: Props = { networkId: id, name: "before", managedInputs: ["name"] };
    return client.update("urn:pulumi:dev::contract::blockchain:index:Network::main", id, olds, {
      networkId: id,
      name,
    });
  },
};

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, "dist", "plugin", "pulumi-resource-blockchain.js")))
    throw new Error("dist/ is missing: the contract tier runs the compiled provider; run `npm run build`");
  networkProvider = await serializeProvider(providerFor("network"));
});

/** A provider of `host` under a stand-in engine, configured, asked for a rename the service holds. */
async function heldRename(host: Host): Promise<{ parent: EngineParent; rename: Promise<Settled<unknown>> }> {
  const env = { HOME: process.env.HOME, PULUMI_NODEJS_PROJECT: "contract" };
  const parent = await underStandInEngine(host.command(), env, root);
  started.push(parent.client);
  await host.configure(parent.client);
  emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
  const rename = settle(host.rename(parent.client, emulator().fixtures.emptyNetwork, "renamed-while-held"));
  await until("the rename at the service", () =>
    arrivals.some((a) => a.method === "PATCH" && a.complete()) ? true : undefined,
  );
  return { parent, rename };
}

/** Waits for the provider to end, sampling its memory; returns the peak, MB. */
async function ended(pid: number): Promise<number> {
  let peak = 0;
  await until(
    `the provider (pid ${pid}) to exit`,
    () => {
      const mb = residentMb(pid);
      if (mb === undefined) return true;
      peak = Math.max(peak, mb);
      return undefined;
    },
    EXIT_DEADLINE_MS,
  );
  return peak;
}

(PROC ? describe.each([DYNAMIC, PLUGIN]) : describe.skip.each([DYNAMIC, PLUGIN]))("$name", (host) => {
  test("its engine SIGKILLed during a rename the service holds: it exits, sending nothing more, its memory bounded", async () => {
    const { parent } = await heldRename(host);
    const before = arrivals.length;
    parent.client.kill("SIGKILL");
    const peak = await ended(parent.providerPid);
    expect(peak).toBeLessThan(RSS_BOUND_MB);
    // Nothing sent after the kill, not even once the provider could have retried.
    await sleep(1_000);
    expect(arrivals.slice(before)).toEqual([]);
  }, 60_000);
});

(PROC ? describe : describe.skip)("Pulumi's dynamic-provider host, its engine alive", () => {
  test("its engine's address closing (its parent alive, its standard input open) ends it, sending nothing more", async () => {
    const { parent, rename } = await heldRename(DYNAMIC);
    const before = arrivals.length;
    parent.client.kill("SIGUSR1");
    await ended(parent.providerPid);
    await sleep(1_000);
    expect(arrivals.slice(before)).toEqual([]);
    // The answer could not reach the engine either way: the call ends with the provider.
    expect((await rename).err).toBeDefined();
  }, 60_000);

  test("a rename the service holds past a write's bound: one PATCH, then one line saying it may have been applied, no limit to raise", async () => {
    const parent = await underStandInEngine(
      DYNAMIC.command(),
      { HOME: process.env.HOME, PULUMI_NODEJS_PROJECT: "contract" },
      root,
    );
    started.push(parent.client);
    await DYNAMIC.configure(parent.client);
    emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
    const id = emulator().fixtures.emptyNetwork;
    const result = await settle(DYNAMIC.rename(parent.client, id, "renamed-past-bound"));
    const details = result.err?.details ?? "";
    expect(details).toMatch(
      new RegExp(
        `^updating network ${id}: no answer from the service within \\d+ s; the rename to "renamed-past-bound" ` +
          "may have been applied by the service; `pulumi refresh` shows what it holds$",
      ),
    );
    expect(details).not.toMatch(/deadlineMs|timeoutMs|raise/i);
    expect(arrivals.filter((a) => a.method === "PATCH")).toHaveLength(1);
    // The one attempt's end was no wait for a retry: nothing was logged as waiting.
    expect(parent.logged().filter((line) => /waiting/.test(line))).toEqual([]);
  }, 60_000);
});
