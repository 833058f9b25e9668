/**
 * The engine's `Cancel`: the plugin's calls in flight (a wait for a node's status, a request the
 * service holds, a faucet send, a rename) end at once, each failing once with one message (the send
 * is recorded as unknown, as at a shutdown; the rename says it may have been applied), nothing is
 * sent after it, and the calls after it are refused.
 */
import * as diagnostics from "diagnostics_channel";
import * as fs from "fs";
import type { IncomingMessage, Server } from "http";
import * as os from "os";
import * as path from "path";
import { NODE_STATUSES } from "../../src/model";
import { withEmulator } from "../helpers/emulator";
import { PluginClient, Props, settle } from "../helpers/plugin-client";

const CANCELLED =
  "the engine cancelled the operation (Cancel): this call was interrupted; run the command again";
const NETWORK_URN = "urn:pulumi:dev::contract::blockchain:index:Network::main";
const FAUCET_URN = "urn:pulumi:dev::contract::blockchain:index:FaucetDrip::drip";
/** Far longer than any bound below: what ends a call here can only be Cancel. */
const HOLD_MS = 120_000;
/** Generous bounds: this machine is noisy. */
const BOUND_MS = 5_000;

const emulator = withEmulator();
const plugins: PluginClient[] = [];
const journals: string[] = [];

/** A request as it reached the emulator's server (in this process), and when its connection closed. */
interface Arrival {
  method: string;
  path: string;
  closedAt?: number;
}
let arrivals: Arrival[] = [];
const onRequest = (message: unknown) => {
  const { request, server } = message as { request: IncomingMessage; server: Server };
  const address = server.address();
  if (typeof address !== "object" || address?.port !== Number(new URL(emulator().url).port)) return;
  const arrival: Arrival = { method: request.method ?? "", path: (request.url ?? "").split("?")[0] };
  request.socket.once("close", () => (arrival.closedAt = Date.now()));
  arrivals.push(arrival);
};

beforeAll(() => diagnostics.subscribe("http.server.request.start", onRequest));
afterEach(() => {
  emulator().setRouteDelays({});
  arrivals = [];
});
afterAll(async () => {
  diagnostics.unsubscribe("http.server.request.start", onRequest);
  await Promise.all(plugins.map((p) => p.stop()));
  for (const dir of journals) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A plugin configured for the emulator, with timeouts far beyond the test's bounds. */
async function startPlugin(env: NodeJS.ProcessEnv = {}): Promise<PluginClient> {
  const plugin = await PluginClient.start({ HOME: process.env.HOME, ...env });
  plugins.push(plugin);
  await plugin.configure({
    apiUrl: emulator().url,
    apiKey: emulator().apiKey,
    timeoutMs: HOLD_MS,
    deadlineMs: HOLD_MS,
  });
  return plugin;
}

test("a wait for a node's status and a request held by the service end at Cancel, each failing once; the held request is aborted; later calls are refused", async () => {
  const plugin = await startPlugin();
  const node = emulator().fixtures.beaconNode;
  const status = NODE_STATUSES.find((s) => s !== emulator().admin.getNode(node)!.status)!;
  const nodePolls = () => arrivals.filter((a) => a.path.includes(node));

  const wait = settle(
    plugin.invoke("blockchain:index:getNode", {
      id: node,
      waitFor: { status, timeoutSeconds: 600, intervalSeconds: 0.2 },
    }),
  );
  await until("two polls of the node", () => (nodePolls().length >= 2 ? true : undefined));
  emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
  const id = emulator().fixtures.networkWithNodes;
  const props: Props = { networkId: id };
  const read = settle(plugin.read(NETWORK_URN, id, props, props));
  const held = await until("the network read at the service", () =>
    arrivals.find((a) => a.method === "PATCH"),
  );

  const cancelledAt = Date.now();
  await plugin.cancel();
  const [waited, readAnswer] = await Promise.all([wait, read]);
  expect(Date.now() - cancelledAt).toBeLessThan(BOUND_MS);
  // One answer each, the one message (no stack trace, no second failure in the transcript).
  expect(waited.err?.details).toBe(CANCELLED);
  expect(readAnswer.err?.details).toBe(CANCELLED);
  expect(plugin.transcript.filter((line) => line === CANCELLED)).toHaveLength(2);
  // The held request's connection was closed by the plugin, long before its timeout.
  await until("the held request's connection to close", () => held.closedAt, BOUND_MS);
  // The wait stopped polling: no poll in ten intervals.
  const polls = nodePolls().length;
  await sleep(2_000);
  expect(nodePolls()).toHaveLength(polls);

  // After Cancel, a call is refused with the same message and sends nothing.
  const before = arrivals.length;
  const later = await settle(plugin.invoke("blockchain:index:getNode", { id: node }));
  expect(later.err?.details).toBe(CANCELLED);
  expect(arrivals).toHaveLength(before);
  // Cancel may come again (the engine also sends it before closing a provider).
  await plugin.cancel();
}, 30_000);

test("a faucet send cut off by Cancel is recorded as unknown and its journal entry kept, as at a shutdown", async () => {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-cancel-journal-"));
  journals.push(journal);
  const plugin = await startPlugin({ BLOCKCHAIN_FAUCET_JOURNAL_DIR: journal });
  emulator().setRouteDelays({ faucetMs: HOLD_MS });
  const address = emulator().fixtures.faucetAddress;
  const create = settle(plugin.create(FAUCET_URN, { address }));
  const post = await until("the faucet send at the service", () => arrivals.find((a) => a.method === "POST"));

  await plugin.cancel();
  const created = await create;
  expect(created.err).toBeUndefined();
  expect(created.ok?.properties).toMatchObject({ address, outcome: "unknown", amountSent: "" });
  expect(String(created.ok?.properties.note)).toContain(
    "was under way when the engine cancelled the operation (Cancel)",
  );
  // The entry stays: the next run records the send as unknown and never sends again.
  expect(fs.readdirSync(journal).filter((f) => f.endsWith(".json"))).toHaveLength(1);
  await until("the held send's connection to close", () => post.closedAt, BOUND_MS);
  expect(arrivals.filter((a) => a.method === "POST")).toHaveLength(1);
}, 30_000);

test("a rename held by the service is cut off at Cancel: one line saying it may have been applied; the PATCH aborted, not sent again", async () => {
  const plugin = await startPlugin();
  emulator().setRouteDelays({ networkUpdateMs: HOLD_MS });
  const id = emulator().fixtures.emptyNetwork;
  const olds: Props = { networkId: id, name: "before", managedInputs: ["name"] };
  const update = settle(plugin.update(NETWORK_URN, id, olds, { networkId: id, name: "renamed-at-cancel" }));
  const patch = await until("the rename at the service", () => arrivals.find((a) => a.method === "PATCH"));

  await plugin.cancel();
  const answer = await update;
  expect(answer.err?.details).toBe(
    `updating network ${id}: the engine cancelled the operation (Cancel) while it was in flight; ` +
      'the rename to "renamed-at-cancel" may have been applied by the service; `pulumi refresh` shows what it holds',
  );
  await until("the held rename's connection to close", () => patch.closedAt, BOUND_MS);
  // Not sent again: one PATCH in all, also after the time a retry would have taken.
  await sleep(2_000);
  expect(arrivals.filter((a) => a.method === "PATCH")).toHaveLength(1);
}, 30_000);
