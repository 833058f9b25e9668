/**
 * The one table of messages: each failure kind on each surface (a function's Output and Promise
 * forms, a Network's provider, the plugin's invoke) fails with an error whose code and kind say the
 * cause, whose first line names the caller and its id, and whose text gives the one fix that fits
 * the cause, once. Message words are checked here and nowhere else. `PRINT_MESSAGES=1` prints the
 * table as a user sees it.
 */
import * as net from "../../src/provider/network";
import { invoke } from "../../src/plugin/handlers";
import { startScriptedServer, type ScriptedServer } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";
import { withEnv } from "../helpers/env";
import { mockedSdk, outputRejection, rejection } from "./outputs";

const sdk = mockedSdk();

const emulator = withEmulator();
withEnv({ BLOCKCHAIN_API_URL: undefined, BLOCKCHAIN_API_KEY: undefined, CI: undefined });
let refusedUrl = "";
let hanging: ScriptedServer;
let failing: ScriptedServer;

beforeAll(async () => {
  const refused = await startScriptedServer();
  refusedUrl = refused.url;
  await refused.close();
  hanging = await startScriptedServer();
  hanging.fallback = { hang: true };
  failing = await startScriptedServer();
  failing.fallback = {
    status: 503,
    body: { error: { code: "unavailable", message: "down for maintenance" } },
  };
});
afterAll(async () => {
  await Promise.all([hanging.close(), failing.close()]);
  if (process.env.PRINT_MESSAGES) console.log(printed.join("\n"));
});

/** A failure kind: the connection it uses, the id asked for, what the error must carry, and its one fix. */
interface Kind {
  connection: () => Record<string, unknown>;
  node?: string;
  network?: string;
  expect: { code?: string; kind?: string; name?: string; limit?: string };
  fix: RegExp;
  /** Fixes that do not fit this cause and must not be offered. */
  not?: RegExp;
}

const good = () => ({ apiUrl: emulator().url, apiKey: emulator().apiKey });
const MISSING_NODE = "ND-999-999-999";
const MISSING_NETWORK = "NW-999-999-9";

const KINDS: Record<string, Kind> = {
  "key refused (401)": {
    connection: () => ({ ...good(), apiKey: "not-the-key-0000" }),
    expect: { kind: "unauthorized", code: "authentication_failed" },
    fix: /came from the apiKey argument: pass the right key/,
    not: /config set|export|blockchain:apiKey|BLOCKCHAIN_API_KEY/,
  },
  "nothing listening": {
    connection: () => ({ apiUrl: refusedUrl, apiKey: "k-1234567890", maxRetries: 1 }),
    expect: { kind: "network", code: "ECONNREFUSED" },
    fix: /The API URL came from the apiUrl argument: pass the right URL/,
    not: /maxRetries|deadlineMs|timeoutMs/,
  },
  "deadline passed": {
    connection: () => ({ apiUrl: hanging.url, apiKey: "k-1234567890", deadlineMs: 300 }),
    expect: { kind: "timeout", code: "deadline_exceeded", limit: "deadlineMs" },
    fix: /Raise deadlineMs\.\ndeadlineMs is an argument of every resource and function/,
    not: /raise (maxRetries|timeoutMs)/i,
  },
  "retries ran out (503)": {
    connection: () => ({ apiUrl: failing.url, apiKey: "k-1234567890", maxRetries: 1 }),
    expect: { kind: "unavailable", limit: "maxRetries" },
    fix: /Raise maxRetries\.\nmaxRetries is an argument of every resource and function/,
    not: /raise (deadlineMs|timeoutMs)/i,
  },
  "no such id (404)": {
    connection: good,
    node: MISSING_NODE,
    network: MISSING_NETWORK,
    expect: { kind: "not_found" },
    fix: /check the id and the key|cannot be created through the API: create it in the service's console/,
    not: /API URL/,
  },
  "malformed id": {
    connection: good,
    node: "node-1",
    network: "net-1",
    expect: { kind: "invalid_input" },
    fix: /got "(node|net)-1"; expected a (node|network) id/,
  },
  "no API key": {
    connection: () => ({ apiUrl: emulator().url }),
    expect: { name: "SettingsError" },
    fix: /pulumi config set --secret blockchain:apiKey <key>/,
  },
};

/** A surface: how a caller on it meets the failure, and the name it is known by in the first line. */
const SURFACES: Record<string, { caller: string; fail: (k: Kind) => Promise<Error> }> = {
  "getNodeOutput (TypeScript Output)": {
    caller: "getNodeOutput",
    fail: (k) =>
      outputRejection(sdk.getNodeOutput({ id: k.node ?? emulator().fixtures.beaconNode, ...k.connection() })),
  },
  "getNode (TypeScript Promise)": {
    caller: "getNode",
    fail: (k) => rejection(sdk.getNode({ id: k.node ?? emulator().fixtures.beaconNode, ...k.connection() })),
  },
  "Network (resource, up)": {
    caller: "network",
    fail: (k) =>
      rejection(
        net.createNetwork({ networkId: k.network ?? emulator().fixtures.emptyNetwork, ...k.connection() }),
      ),
  },
  "getNode (plugin invoke)": {
    caller: "getNode",
    fail: (k) =>
      rejection(
        invoke("blockchain:index:getNode", {
          id: k.node ?? emulator().fixtures.beaconNode,
          ...k.connection(),
        }),
      ),
  },
};

const printed: string[] = ["| failure | surface | first line · fix |", "|---|---|---|"];

const cells = Object.entries(KINDS).flatMap(([kind, k]) =>
  Object.entries(SURFACES).map(([surface, s]) => [kind, surface, k, s] as const),
);

test.each(cells)(
  "%s on %s: the cause by its code, the caller and id in the first line, one fix",
  async (kind, surface, k, s) => {
    const error = await s.fail(k);
    const cause = ((error as { cause?: unknown }).cause ?? error) as Error & Record<string, unknown>;
    const [first, ...rest] = error.message.split("\n");
    printed.push(`| ${kind} | ${surface} | \`${first}\` · ${rest.join(" ").slice(0, 200)} |`);
    const { name, ...fields } = k.expect;
    expect(cause).toMatchObject(fields);
    if (name) expect(cause.name).toBe(name);
    // The caller and the id the call was about; a missing setting is the program's, not one call's:
    // one message for every call of the run (functions.test.ts: "a missing key: the fix, once").
    if (!name) {
      expect(first.toLowerCase()).toContain(s.caller.toLowerCase());
      if (kind !== "malformed id")
        expect(first).toContain(
          surface.startsWith("Network")
            ? (k.network ?? emulator().fixtures.emptyNetwork)
            : (k.node ?? emulator().fixtures.beaconNode),
        );
    }
    expect(error.message).toMatch(k.fix);
    expect(error.message.match(new RegExp(k.fix.source, "g")) ?? []).toHaveLength(1);
    if (k.not) expect(error.message).not.toMatch(k.not);
    // One message per failure: no stack trace, no credential.
    expect(error.message).not.toMatch(/\n\s+at /);
    expect(error.message).not.toContain("not-the-key-0000");
  },
);
