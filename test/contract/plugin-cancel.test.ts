/**
 * Calls in flight when a provider must stop. The engine's `Cancel`: the plugin's calls in flight (a
 * wait for a node's status, a request the service holds, a faucet send, a rename) end at once, each
 * failing once, nothing is sent after it, later calls are refused. Its engine gone (the stand-in
 * engine of `engine-parent.ts` SIGKILLed, or its address closing): the provider, Pulumi's
 * dynamic-provider host or the plugin, exits, sends nothing more, its memory bounded. A rename held
 * past a write's bound, through the host that hears no Cancel: one PATCH, one failure.
 */
import * as fs from "fs";
import * as path from "path";
import { NODE_STATUSES } from "../../src/model";
import { providerFor } from "../../src/resources/shell";
import { recordArrivals, withEmulator } from "../helpers/emulator";
import { residentMb, underStandInEngine } from "../helpers/engine-parent";
import { withJournalDir } from "../helpers/env";
import {
  DYNAMIC_PROVIDER_HOST,
  FAUCET_URN,
  GRPC_STATUS,
  NETWORK_URN,
  PLUGIN_BIN,
  PluginClient,
  pluginPool,
  Props,
  serializeProvider,
  settle,
  sleep,
  until,
} from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
/** Far longer than any bound below: what ends a held call here is the provider. */
const HOLD_MS = 120_000;
/** Generous bounds: this machine is noisy. */
const BOUND_MS = 5_000;
const EXIT_DEADLINE_MS = 20_000;
/** The matrix's bound on a provider's memory (scripts/bad-days.ts): a runaway passes it in seconds. */
const RSS_BOUND_MB = 400;
const PROC = fs.existsSync("/proc/self/status");

const emulator = withEmulator();
const arrivals = recordArrivals(emulator);
const journal = withJournalDir();
const plugins = pluginPool();
let networkProvider = "";

beforeAll(async () => {
  networkProvider = await serializeProvider(providerFor("network"));
});
afterEach(() => emulator().setRouteDelays({}));
afterAll(plugins.stop);

const patches = () => arrivals().filter((a) => a.method === "PATCH");
const oneLine = (details = "") => expect(details).not.toMatch(/\n/);

/** A plugin configured for the emulator, with timeouts far beyond the test's bounds. */
const startPlugin = (env: NodeJS.ProcessEnv = {}) =>
  plugins.start(
    { apiUrl: emulator().url, apiKey: emulator().apiKey, timeoutMs: HOLD_MS, deadlineMs: HOLD_MS },
    env,
  );

/** A rename of `id` from "before" to `name`, as the engine sends it to either host. */
function rename(client: PluginClient, dynamic: boolean, id: string, name: string) {
  const urn = dynamic
    ? "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:Network::main"
    : NETWORK_URN;
  const extra: Props = dynamic ? { __provider: networkProvider } : {};
  const olds = { networkId: id, name: "before", managedInputs: ["name"], ...extra };
  return settle(client.update(urn, id, olds, { networkId: id, name, ...extra }));
}

describe("Cancel", () => {
  test("a wait for a node's status and a request held by the service end at once, each failing once; the held request is aborted; later calls are refused", async () => {
    const plugin = await startPlugin();
    const node = emulator().fixtures.beaconNode;
    const status = NODE_STATUSES.find((s) => s !== emulator().admin.getNode(node)!.status)!;
    const nodePolls = () => arrivals().filter((a) => a.path.includes(node));
    const waitFor = { status, timeoutSeconds: 600, intervalSeconds: 0.2 };
    const wait = settle(plugin.invoke("blockchain:index:getNode", { id: node, waitFor }));
    await until("two polls of the node", () => (nodePolls().length >= 2 ? true : undefined));
    emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
    const id = emulator().fixtures.networkWithNodes;
    const read = settle(plugin.read(NETWORK_URN, id, { networkId: id }, { networkId: id }));
    const held = await until("the network read at the service", () => patches()[0]);

    const cancelledAt = Date.now();
    await plugin.cancel();
    const [waited, readAnswer] = await Promise.all([wait, read]);
    expect(Date.now() - cancelledAt).toBeLessThan(BOUND_MS);
    const cancelled = waited.err!.details!;
    expect(waited.err).toMatchObject({ code: GRPC_STATUS.UNKNOWN });
    expect(cancelled).toContain("(Cancel)");
    oneLine(cancelled);
    expect(readAnswer.err?.details).toBe(cancelled);
    expect(plugin.transcript.filter((line) => line === cancelled)).toHaveLength(2);
    await until("the held request's connection to close", () => held.closedAt, BOUND_MS);
    // No poll in ten intervals.
    const polls = nodePolls().length;
    await sleep(2_000);
    expect(nodePolls()).toHaveLength(polls);

    const before = arrivals().length;
    const later = await settle(plugin.invoke("blockchain:index:getNode", { id: node }));
    expect(later.err?.details).toBe(cancelled);
    expect(arrivals()).toHaveLength(before);
    // The engine also sends it before closing a provider.
    await plugin.cancel();
  }, 30_000);

  test("a faucet send cut off is recorded as unknown and its journal entry kept, as at a shutdown", async () => {
    const plugin = await startPlugin({ BLOCKCHAIN_FAUCET_JOURNAL_DIR: journal() });
    emulator().setRouteDelays({ faucetMs: HOLD_MS });
    const address = emulator().fixtures.faucetAddress;
    const create = settle(plugin.create(FAUCET_URN, { address }));
    const post = await until("the send at the service", () => arrivals().find((a) => a.method === "POST"));

    await plugin.cancel();
    const created = await create;
    expect(created.err).toBeUndefined();
    expect(created.ok?.properties).toMatchObject({ address, outcome: "unknown", amountSent: "" });
    expect(String(created.ok?.properties.note)).toContain("(Cancel)");
    // The entry stays: the next run records the send as unknown and never sends again.
    expect(fs.readdirSync(journal()).filter((f) => f.endsWith(".json"))).toHaveLength(1);
    await until("the held send's connection to close", () => post.closedAt, BOUND_MS);
    expect(arrivals().filter((a) => a.method === "POST")).toHaveLength(1);
  }, 30_000);

  test("a rename held by the service: one line naming the network and the name; the PATCH aborted, not sent again", async () => {
    const plugin = await startPlugin();
    emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
    const id = emulator().fixtures.emptyNetwork;
    const update = rename(plugin, false, id, "renamed-at-cancel");
    const patch = await until("the rename at the service", () => patches()[0]);

    await plugin.cancel();
    const details = (await update).err?.details;
    for (const token of [id, '"renamed-at-cancel"', "(Cancel)", "may have been applied"])
      expect(details).toContain(token);
    oneLine(details);
    await until("the held rename's connection to close", () => patch.closedAt, BOUND_MS);
    await sleep(2_000);
    expect(patches()).toHaveLength(1);
  }, 30_000);
});

/** A provider under a stand-in engine, configured, asked for a rename the service holds. */
async function heldRename(dynamic: boolean) {
  const env = { HOME: process.env.HOME, PULUMI_NODEJS_PROJECT: "contract" };
  const command = [process.execPath, dynamic ? DYNAMIC_PROVIDER_HOST : PLUGIN_BIN];
  const parent = await underStandInEngine(command, env, root);
  plugins.started.push(parent.client);
  await parent.client.configure(
    dynamic
      ? { "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey }
      : { apiUrl: emulator().url, apiKey: emulator().apiKey },
  );
  emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
  return {
    parent,
    start: (name: string) => rename(parent.client, dynamic, emulator().fixtures.emptyNetwork, name),
  };
}

/** Waits for the provider to end (sending nothing after `before` arrivals), its memory sampled; the peak, MB. */
async function endsSilently(pid: number, before: number): Promise<number> {
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
  // Not even once it could have retried.
  await sleep(1_000);
  expect(arrivals().slice(before)).toEqual([]);
  return peak;
}

(PROC ? test.each : test.skip.each)([
  ["Pulumi's dynamic-provider host, its engine SIGKILLed", true, "SIGKILL"],
  ["the plugin, its engine SIGKILLed", false, "SIGKILL"],
  [
    "Pulumi's dynamic-provider host, its engine's address closing (parent alive, standard input open)",
    true,
    "SIGUSR1",
  ],
] as const)(
  "%s during a rename the service holds: it exits, sending nothing more, its memory bounded",
  async (_name, dynamic, signal) => {
    const { parent, start } = await heldRename(dynamic);
    const renamed = start("renamed-while-held");
    await until("the rename at the service", () => (patches().some((a) => a.complete()) ? true : undefined));
    const before = arrivals().length;
    parent.client.kill(signal);
    expect(await endsSilently(parent.providerPid, before)).toBeLessThan(RSS_BOUND_MB);
    // The answer could not reach the engine either way: the call ends with the provider.
    expect((await renamed).err).toBeDefined();
  },
  60_000,
);

(PROC ? describe : describe.skip)("Pulumi's dynamic-provider host, its engine alive", () => {
  test("a rename the service holds past a write's bound: one PATCH, one line naming the network and the name, no limit to raise, no wait logged", async () => {
    const { parent, start } = await heldRename(true);
    const details = (await start("renamed-past-bound")).err?.details;
    for (const token of [emulator().fixtures.emptyNetwork, '"renamed-past-bound"', "may have been applied"])
      expect(details).toContain(token);
    oneLine(details);
    expect(details).not.toMatch(/deadlineMs|timeoutMs|raise/i);
    expect(patches()).toHaveLength(1);
    expect(parent.logged().filter((line) => /waiting/.test(line))).toEqual([]);
  }, 60_000);
});
