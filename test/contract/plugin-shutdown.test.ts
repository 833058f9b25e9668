/** A stopped plugin answers its waiting calls after a bounded grace and exits; a cut send is unknown. */
import * as fs from "fs";
import { startScriptedServer, type ScriptedServer } from "../helpers/client";
import { withJournalDir } from "../helpers/env";
import { FAUCET_URN, NETWORK_URN, pluginPool, Props, settle, sleep, until } from "../helpers/plugin-client";

const GRACE_MS = 500;
/** How long after the signal the process may take to exit: the grace and a few seconds. */
const EXIT_BOUND_MS = GRACE_MS + 4_000;
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
const NETWORK_ID = "NW-100-000-1";

/** A server that takes every request and never answers it. */
let silent: ScriptedServer;
const plugins = pluginPool();
const journal = withJournalDir({ each: true });

beforeAll(async () => {
  silent = await startScriptedServer();
  silent.fallback = { hang: true };
});
afterAll(async () => {
  await plugins.stop();
  await silent.close();
});

describe.each(["SIGTERM", "SIGINT"] as const)("%s while calls wait on a silent service", (signal) => {
  test("the calls in flight are answered after the grace and the process exits; the faucet send is recorded as unknown", async () => {
    const env = { BLOCKCHAIN_FAUCET_JOURNAL_DIR: journal(), BLOCKCHAIN_SHUTDOWN_GRACE_MS: String(GRACE_MS) };
    const plugin = await plugins.start({ apiUrl: silent.url, apiKey: "plugin-shutdown-test-key-Zq81" }, env);
    silent.hits.length = 0;

    const create = settle(plugin.create(FAUCET_URN, { address: ADDRESS }));
    const props: Props = { networkId: NETWORK_ID };
    const read = settle(plugin.read(NETWORK_URN, NETWORK_ID, props, props));
    const requests = () => silent.hits.map((h) => `${h.method} ${h.url}`);
    await until("both requests", () => (silent.hits.length >= 2 ? true : undefined));
    expect(requests().sort()).toEqual(["PATCH /v1/networks/NW-100-000-1/", "POST /v1/faucet/goerli"]);

    plugin.kill(signal);
    const exit = await Promise.race([plugin.exited(), sleep(EXIT_BOUND_MS).then(() => "still running")]);
    expect(exit).not.toBe("still running");

    const created = await create;
    expect(created.err).toBeUndefined();
    expect(created.ok?.properties).toMatchObject({ address: ADDRESS, outcome: "unknown", amountSent: "" });
    expect(String(created.ok?.properties.note)).toMatch(/stopped/);
    // The entry stays: a run that lost this answer records the send as unknown, never sends again.
    expect(fs.readdirSync(journal()).filter((f) => f.endsWith(".json"))).toHaveLength(1);

    const r = await read;
    expect(r.err?.details).toMatch(/provider was stopped/);
    expect(r.err?.details).toContain("BLOCKCHAIN_SHUTDOWN_GRACE_MS");
    // Once, no stack trace.
    expect(r.err?.details).not.toMatch(/\n\s+at /);
    // One faucet request in all.
    expect(requests().filter((line) => line.startsWith("POST"))).toHaveLength(1);
  }, 20_000);
});

test("a plugin with no call in flight exits at once on SIGTERM", async () => {
  const plugin = await plugins.start(undefined, { BLOCKCHAIN_SHUTDOWN_GRACE_MS: "60000" });
  await plugin.getPluginInfo();
  plugin.kill("SIGTERM");
  const exit = await Promise.race([plugin.exited(), sleep(4_000).then(() => "still running")]);
  expect(exit).toEqual({ code: 0, signal: null });
});
