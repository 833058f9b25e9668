/**
 * The functions in a CI pipeline under the real engine (programs on disk, the CLI with
 * `--non-interactive`, settings from the environment), against the emulator: right values, secret;
 * each expected failure one message, printed once, without a trace.
 */
import * as fs from "fs";
import * as path from "path";
import { NodeServiceClient, type Node } from "../../src/api";
import { findSecrets } from "../helpers/audit";
import { diagnosed, diagnosticLines, errorsWith, expectQuiet, TRACE } from "../helpers/diagnostics";
import { startScriptedServer } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, filesUnder, emulatorConfig, EngineRun } from "../helpers/engine";
import { occurrences, programProject } from "../helpers/program-project";
import { docBlock, readmeBlock, readmeFile } from "../helpers/readme";

// Each engine step (a test, a hook) may take minutes.
jest.setTimeout(240_000);
const ROOT = path.resolve(__dirname, "..", "..");
const NETWORK = "NW-100-000-1";

/** A lookup awaited and one left to the Output form, the latter under a component (`parent`). */
const LOOKUP = `
import * as pulumi from "@pulumi/pulumi";
import { getNode, getNodesOutput } from "pulumi-blockchain-nodes";

class App extends pulumi.ComponentResource {
  constructor(name: string) {
    super("e2e:index:App", name);
    this.registerOutputs({});
  }
}

export = async () => {
  const later = getNodesOutput({ network: "${NETWORK}" }, { parent: new App("app") });
  const node = await getNode({ id: "ND-100-000-001" });
  return { name: node.name, count: later.apply((ns) => ns.length) };
};
`;

/** Only a Network; with `previewChecks:argumentUrl` set, the URL is passed as an argument. */
const NETWORK_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const config = new pulumi.Config("previewChecks");
  const network = new Network("main", { networkId: "${NETWORK}", name: "checked", apiUrl: config.get("argumentUrl") });
  return { name: network.name };
};
`;

describeWithEngine()("the functions in a CI pipeline, under the real engine", () => {
  let run: EngineRun;
  const emulator = withEmulator();
  const requests = () => emulator().requests();

  beforeAll(async () => {
    run = await EngineRun.start();
  });

  afterAll(() => run?.close());

  /** A stack of `code` (in `project`) whose settings come from the environment, as in a CI job. */
  async function ciStack(name: string, code: string, project?: string): Promise<string> {
    const dir = programProject(`ci-${name}`, code, { project });
    await run.ok(dir, ["stack", "init", "ci"]);
    return dir;
  }
  /** The nodes of `network`, by name, read with the client. */
  const listNodes = (network: string, status?: "running") =>
    new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey }).listAllNodes(
      { network, status, orderBy: "name" },
      { limit: 100 },
    );

  const env = (extra: Record<string, string> = {}) => ({
    BLOCKCHAIN_API_URL: emulator().url,
    BLOCKCHAIN_API_KEY: emulator().apiKey,
    ...extra,
  });
  const up = (dir: string, label: string, extra?: Record<string, string>) =>
    run.cli(dir, ["up", "--yes", "--non-interactive", "--skip-preview"], label, env(extra));
  /** The stack's outputs as `pulumi stack output --json` prints them (`--show-secrets`: revealed). */
  const stackOutputs = async (dir: string, label: string, ...flags: string[]) =>
    JSON.parse((await run.cli(dir, ["stack", "output", "--json", ...flags], label, env())).output);

  test("the README's Functions block and the one-liner: right values, secret, no toJSON text, nothing leaks", async () => {
    const { beaconNode, networkWithNodes: network } = emulator().fixtures;
    const dir = await ciStack(
      "functions",
      `${readmeBlock("export const dotenv =")}
import { getNodes } from "pulumi-blockchain-nodes";

export const password = getNodeOutput({ id: "${beaconNode}" }).authPassword;
export const firstRpc = nodes.apply((ns) => ns[0].httpsEndpoint);
export const masked = pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.httpsEndpointMasked).join(" ")));
export const firstName = getNodes({ network: "${network}", orderBy: "name" }).then((ns) => ns[0].name);
`,
    );
    expect(await up(dir, "up functions")).toMatchObject({ code: 0 });
    const outputs: Record<string, unknown> = await stackOutputs(dir, "outputs", "--show-secrets");
    const plain = await stackOutputs(dir, "outputs");
    // The truth, read with the client, in the same order.
    const [all, running] = [await listNodes(network), await listNodes(network, "running")];
    const beacon = emulator().admin.getNode(beaconNode)!.details;
    expect(all.length).toBeGreaterThan(1);
    expect(outputs).toEqual({
      rpcUrl: beacon.https_endpoint,
      rpcUrls: JSON.stringify(running.map((n) => ({ rpc: n.details.httpsEndpoint }))),
      dotenv: `RPC_URL=${running[0].details.httpsEndpoint}\nWS_URL=${running[0].details.wssEndpoint}`,
      rpcEnv: `RPC_URL=${beacon.https_endpoint}`,
      names: running.map((n) => n.name),
      password: beacon.auth_password,
      firstRpc: running[0].details.httpsEndpoint,
      masked: expect.stringContaining("***"),
      firstName: all[0].name,
    });
    // Secret in state: shown as [secret] without --show-secrets; the readable ones stay readable.
    const readable = ["names", "masked", "firstName"];
    expect(plain).toEqual(
      Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, readable.includes(k) ? v : "[secret]"])),
    );
    expect(Object.values(run.transcript).join("")).not.toContain("Calling [toJSON] on an [Output<T>]");
    // The outputs read in plaintext on purpose leave the record; the rest of this block's is audited.
    for (const label of Object.keys(run.transcript))
      if (label.includes("outputs")) delete run.transcript[label];
    run.audit(emulator().secrets());
  });

  test("the README quick look: unknown in preview, read after the network's delayed update, its outputs; destroy keeps the network", async () => {
    const dir = programProject("ci-quick-look", readmeBlock("export = async () =>"));
    await run.initStack(dir, "invoke", emulator());
    emulator().setRouteDelays({ networkUpdateMs: 1000 });
    emulator().resetRequests();
    try {
      await run.ok(dir, ["up", "--yes", "--non-interactive"]);
    } finally {
      emulator().setRouteDelays({});
    }
    // Its preview reads nothing (the network is to be created: the lookup is unknown), then the
    // update reads the node only once the network's delayed updates have been answered.
    const log = requests().map((r) => `${r.method} ${r.route}`);
    const lastUpdate = log.lastIndexOf("PATCH /v1/networks/{id}/");
    expect(lastUpdate).toBeGreaterThanOrEqual(0);
    expect(log.indexOf("GET /v1/nodes/{id}/")).toBeGreaterThan(lastUpdate);
    expect(emulator().admin.getNetwork(NETWORK)!.name).toBe("mainnet");
    // Its outputs: readable names, the endpoint secret, a masked twin for display.
    const out = await (await run.stack({ stackName: "invoke", workDir: dir })).outputs();
    const beacon = emulator().admin.getNode("ND-100-000-001")!.details.https_endpoint;
    expect(out.rpcUrl).toEqual({ secret: true, value: beacon });
    expect(out.nodeNames).toMatchObject({
      secret: false,
      value: expect.arrayContaining([expect.any(String)]),
    });
    expect(out.rpcUrlForDisplay).toMatchObject({ secret: false, value: expect.stringContaining("***") });
    // destroy forgets the network: it stays in the service.
    await run.ok(dir, ["destroy", "--yes", "--non-interactive"]);
    expect(emulator().admin.getNetwork(NETWORK)).toBeDefined();
    run.audit(emulator().secrets());
  });

  test("a bare getNode({ id, verify: true }) nobody awaits: a stalled head fails the run naming the node once; a fresh one passes", async () => {
    const node = emulator().fixtures.beaconNode;
    const dir = await ciStack(
      "gate-bare-promise",
      `
import { getNode } from "pulumi-blockchain-nodes";

getNode({ id: "${node}", verify: true });
export const checked = "${node}";
`,
    );
    expect((await up(dir, "fresh head")).code).toBe(0);
    emulator().admin.setNodeEndpoint(node, { stalledSeconds: 3600 });
    try {
      const red = await up(dir, "stalled head");
      expect(red.code).not.toBe(0);
      expect(errorsWith(red.output, node)).toHaveLength(1);
      expect(diagnosed(red.output)).toMatch(/\b36\d\d s\b/);
    } finally {
      emulator().admin.setNodeEndpoint(node, { stalledSeconds: null });
    }
  });

  /** The LOOKUP stack, made once for the broken services below. */
  let lookupDir: Promise<string> | undefined;
  const lookup = () => (lookupDir ??= ciStack("lookup", LOOKUP));
  const preview = async (label: string, extra: Record<string, string>) => {
    const result = await run.cli(await lookup(), ["preview", "--non-interactive"], label, env(extra));
    expect(result.code).not.toBe(0);
    expectQuiet(result.output);
    return result.output;
  };

  test("a service that accepts connections and never answers: ends within the deadline set in the environment, wait lines first, one message naming the setting", async () => {
    const silent = await startScriptedServer();
    silent.fallback = { hang: true };
    try {
      const started = Date.now();
      const output = await preview("preview silent", {
        BLOCKCHAIN_API_URL: silent.url,
        BLOCKCHAIN_TIMEOUT_MS: "1500",
        BLOCKCHAIN_DEADLINE_MS: "4000",
      });
      console.log(
        `a silent service, timeoutMs 1500, deadlineMs 4000: preview failed after ${Date.now() - started} ms`,
      );
      // A wait line (1.5 s without an answer, then attempt 2 of 5) before the Diagnostics.
      expect(output.slice(0, output.indexOf("Diagnostics:"))).toMatch(/\b1\.5 s\b.*\b2 of 5\b/);
      const diag = diagnosed(output);
      expect(diag).toMatch(/\b4000 ms\b/);
      expect(diag).toContain("blockchain:deadlineMs");
      expect(diag).toContain("BLOCKCHAIN_DEADLINE_MS");
    } finally {
      await silent.close();
    }
  });

  test("a service that keeps answering 429 with Retry-After: each wait is logged as it happens, the Output form's under its parent, then one message", async () => {
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 2, match: { path: "/v1/nodes/" } });
    try {
      const output = await preview("preview throttled", { BLOCKCHAIN_MAX_RETRIES: "2" });
      // Each wait: 429, 2 s (its Retry-After), then the attempt of 3 it waits for; logged before
      // the Diagnostics, and the getNodesOutput's under its parent.
      const waits = [...output.matchAll(/\b429\b.* 2 s .*\b(\d) of 3\b/g)];
      expect(waits.map((m) => m[1])).toEqual(expect.arrayContaining(["2", "3"]));
      expect(waits[0].index).toBeLessThan(output.indexOf("Diagnostics:"));
      expect(output).toMatch(/ {2}e2e:index:App \(app\):\n {4}\S+: .*\b429\b/);
      expect(errorsWith(output, "error: getNode ND-100-000-001:")).toHaveLength(1);
      expect(diagnosed(output)).toMatch(/\b3 attempts\b/);
    } finally {
      emulator().setFaults({});
    }
  });

  test("an API URL with a wrong path: the message names that URL, not the id or the key, once, no trace", async () => {
    const url = `${emulator().url}/api/v2`;
    const output = await preview("preview wrong path", { BLOCKCHAIN_API_URL: url });
    expect(errorsWith(output, "error: getNode ND-100-000-001:")).toHaveLength(1);
    expect(diagnosed(output)).toContain(url);
    expect(diagnosed(output)).not.toContain("check the id and the key");
  });

  type Config = Parameters<EngineRun["stack"]>[1];
  /** A failing preview of `code` (the emulator's config and `extra`, or `config`), changing nothing: its text. */
  async function failedPreview(name: string, code: string, extra: Config = {}, config?: Config) {
    const workDir = programProject(`preview-${name}`, code);
    const stack = await run.stack(
      { stackName: name, workDir },
      config ?? { ...emulatorConfig(emulator()), ...extra },
    );
    const text = await run.failure(name, (options) => stack.preview(options));
    expectQuiet(text);
    // The service was not changed: the network keeps its seeded name.
    expect(emulator().admin.getNetwork(NETWORK)!.name).not.toBe("checked");
    return text;
  }

  test("the trace check finds a stack trace", () => expect(new Error("control").stack).toMatch(TRACE));

  test("a plain-http API URL fails the preview from the stack config as it does as an argument, once, naming where it came from", async () => {
    const host = "api.example.com";
    const fromConfig = await failedPreview("config-url", NETWORK_PROGRAM, {
      "blockchain:apiUrl": { value: `http://${host}` },
    });
    expect(errorsWith(fromConfig)).toHaveLength(1);
    expect(diagnosed(fromConfig)).toMatch(new RegExp(`${host}[\\s\\S]*blockchain:apiUrl https://`));
    const asArgument = await failedPreview("argument-url", NETWORK_PROGRAM, {
      "previewChecks:argumentUrl": { value: `http://${host}` },
    });
    expect(errorsWith(asArgument, "apiUrl")).toHaveLength(1);
    expect(diagnosed(asArgument)).toMatch(new RegExp(`${host}[\\s\\S]*https://`));
  });

  test("a wrong key fails the preview after one read-only request, once, with the fix for the stack config", async () => {
    const wrongKey = "wrong-key-for-preview-1234567890";
    emulator().resetRequests();
    const text = await failedPreview("wrong-key", NETWORK_PROGRAM, {
      "blockchain:apiKey": { value: wrongKey, secret: true },
    });
    expect(errorsWith(text)).toHaveLength(1);
    expect(diagnosed(text)).toMatch(/\b401\b[\s\S]*--secret blockchain:apiKey\b/);
    expect(text).not.toContain(wrongKey);
    expect(requests().map((r) => `${r.method} ${r.route}`)).toEqual(["GET /v1/nodes/"]);
  });

  test("no key: a program calling getNodes and getNodesOutput fails with one message, once, and the command to set it", async () => {
    const text = await failedPreview(
      "missing-key",
      `
import { getNodes, getNodesOutput } from "pulumi-blockchain-nodes";

export = async () => {
  const later = getNodesOutput({ network: "${NETWORK}" });
  const nodes = await getNodes({ network: "${NETWORK}" });
  return { count: nodes.length, later: later.apply((ns) => ns.length) };
};
`,
      {},
      { "blockchain:apiUrl": { value: emulator().url } },
    );
    // One diagnostic, the message alone. (The progress row echoes the diagnostic's first line.)
    const errors = errorsWith(text);
    expect(errors).toHaveLength(1);
    expect(diagnosed(text)).toMatch(/--secret blockchain:apiKey\b/);
    expect(occurrences(text, errors[0].slice("error: ".length))).toBeLessThanOrEqual(2);
  });

  test("the import option fails with the way that works (networkId), once", async () => {
    const text = await failedPreview(
      "import",
      `
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const network = new Network("main", { networkId: "${NETWORK}" }, { import: "${NETWORK}" });
  return { name: network.name };
};
`,
    );
    expect(occurrences(diagnosed(text), `networkId: "${NETWORK}"`)).toBe(1);
    expect(text).not.toContain("toJavaScript");
    expect(text).not.toContain("code must be a string");
    run.audit(emulator().secrets());
  });

  /** What the engine printed, but the outputs read in plaintext on purpose (labelled "revealed"). */
  const printed = () =>
    Object.fromEntries(Object.entries(run.transcript).filter(([label]) => !label.includes("revealed")));

  /**
   * A day on which the network's third node serves another chain (it fails the check) and its
   * second one has a head 60 s old (it passes, after the fresh ones): `body` runs, then both are
   * live again. Returns what `body` returned, with those two nodes.
   */
  async function withTwoBadNodes<T>(
    body: (nodes: { wrongChain: Node; older: Node; listed: Node[] }) => Promise<T>,
  ) {
    const listed = await listNodes(NETWORK, "running");
    expect(listed.length).toBe(4);
    const [older, wrongChain] = [listed[1], listed[2]];
    emulator().admin.setNodeEndpoint(wrongChain.id, { chainId: "5" });
    emulator().admin.setNodeEndpoint(older.id, { stalledSeconds: 60 });
    try {
      return await body({ wrongChain, older, listed });
    } finally {
      emulator().admin.setNodeEndpoint(wrongChain.id, { chainId: null });
      emulator().admin.setNodeEndpoint(older.id, { stalledSeconds: null });
    }
  }

  /** The healthy set's one warning: 3 of 4 passed with minVerified 2, naming the node left out and its chain (5). */
  const leftOut = (output: string, node: string) => {
    const lines = diagnosticLines(output, "warning: getNodesOutput");
    expect(lines).toEqual([expect.stringMatching(`\\b3 of 4\\b.*\\bminVerified 2\\b.*${node}\\b.*\\b5\\b`)]);
    return lines[0];
  };

  test("docs/ci.md's healthy set in the README's infra program: a node on another chain is left out with one warning, the app's RPC_URLS are the others, freshest first; too few passing fails the infra update", async () => {
    // The README's infra program with its `nodes` replaced by the guide's, and the guide's app.
    const guide = docBlock("docs/ci.md", "ts", "minVerified: 2");
    const readme = readmeFile("index.ts");
    const listing = /^const nodes = getNodesOutput\(.*\);\n/m;
    expect(readme).toMatch(listing);
    const infra = await ciStack("healthy-infra", readme.replace(listing, guide), "nodes-infra");
    const appCode = docBlock("docs/ci.md", "ts", 'getOutput("rpcUrls")');
    const app = await ciStack("healthy-app", appCode, "nodes-app");
    await run.ok(infra, ["config", "set", "networkId", NETWORK]);
    await run.ok(app, ["config", "set", "infraStack", "organization/nodes-infra/ci"]);

    await withTwoBadNodes(async ({ wrongChain, older, listed }) => {
      const infraUp = await up(infra, "healthy infra up");
      expect(infraUp.code).toBe(0);
      const warning = leftOut(infraUp.output, wrongChain.id);
      expect((await up(app, "healthy app up")).code).toBe(0);
      const { appEnvironment } = await stackOutputs(app, "revealed healthy app", "--show-secrets");
      const urls = JSON.parse(appEnvironment.RPC_URLS) as string[];
      const fresh = listed.filter((n) => n.id !== wrongChain.id && n.id !== older.id);
      // The two fresh nodes first (one head: their order is their latency's), the older head last.
      expect(new Set(urls.slice(0, 2))).toEqual(new Set(fresh.map((n) => n.details.httpsEndpoint)));
      expect(urls.slice(2)).toEqual([older.details.httpsEndpoint]);
      // The infra stack's readable `proven` is in the same order.
      type Proven = { id: string; headAgeSeconds: number }[];
      const proven = JSON.parse(await run.ok(infra, ["stack", "output", "proven", "--json"])) as Proven;
      expect(proven.map((p) => p.id)).toEqual(
        urls.map((url) => listed.find((n) => n.details.httpsEndpoint === url)!.id),
      );
      expect(proven[2].headAgeSeconds).toBeGreaterThanOrEqual(60);
      expect(proven[0].headAgeSeconds).toBeLessThan(60);
      // The guide shows this very warning.
      expect(fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8")).toContain(
        warning.replaceAll(wrongChain.id, "ND-100-000-003"),
      );
    });

    // Only one node passes: fewer than 2, the infra update fails naming the others; the app's stays.
    const listed = await listNodes(NETWORK, "running");
    for (const n of listed.slice(1)) emulator().admin.setNodeEndpoint(n.id, { chainId: "5" });
    try {
      const failed = await up(infra, "healthy infra up, one passing");
      expect(failed.code).not.toBe(0);
      expectQuiet(failed.output);
      expect(errorsWith(failed.output, "error: getNodesOutput:")).toEqual([
        expect.stringMatching(/\b1 of 4\b.*\bminVerified\b.*\b2\b/),
      ]);
      for (const n of listed.slice(1)) expect(diagnosed(failed.output)).toContain(n.id);
    } finally {
      for (const n of listed.slice(1)) emulator().admin.setNodeEndpoint(n.id, { chainId: null });
    }

    expect(
      findSecrets(emulator().secrets(), { files: filesUnder(run.sandbox.backendDir), texts: printed() }),
    ).toEqual([]);
  });

  test("examples/quickstart and examples/feed-app: the network adopted and named, tokens requested once, secrets secret; the app's RPC_URLS are the running nodes that pass, freshest first, a node left out named in one warning; no change to preview or refresh; destroy keeps the network", async () => {
    const examples = path.join(ROOT, "examples");
    const stackName = `e2e${process.pid}-ci`;
    const quickstart = await run.stack(
      { stackName, workDir: path.join(examples, "quickstart") },
      {
        ...emulatorConfig(emulator()),
        "quickstart:networkId": { value: NETWORK },
        "quickstart:networkName": { value: "e2e-mainnet" },
        "quickstart:faucetAddress": { value: emulator().fixtures.faucetAddress },
        "quickstart:minVerified": { value: "2" },
      },
    );
    const feedApp = await run.stack(
      { stackName, workDir: path.join(examples, "feed-app") },
      { "feed-app:quickstartStack": { value: `organization/quickstart/${stackName}` } },
    );
    await withTwoBadNodes(async ({ wrongChain, older, listed }) => {
      const up = await quickstart.up(run.recorded("quickstart up"));
      leftOut(up.stdout, wrongChain.id);
      // The network, the faucet drip and the stack.
      expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
      expect(emulator().admin.getNetwork(NETWORK)!.name).toBe("e2e-mainnet");
      const out = up.outputs;
      expect(out.networkName).toEqual({ value: "e2e-mainnet", secret: false });
      expect(out).toMatchObject({ protocol: { secret: false }, nodes: { secret: false } });
      expect(out.nodeCount.value).toBeGreaterThan(1);
      for (const node of out.nodes.value as { id: string }[]) expect(node.id).toMatch(/^ND-/);
      for (const key of ["firstNodeHttpsEndpoint", "firstNodeWssEndpoint", "firstNodeAuthKey", "rpcUrls"])
        expect([key, out[key].secret]).toEqual([key, true]);
      const masked = { value: expect.stringContaining("***"), secret: false };
      expect(out.firstNodeHttpsEndpointMasked).toEqual(masked);
      expect(out.faucetAmountSentWei).toEqual({ value: "500000000000000000", secret: false });
      type Healthy = { value: { id: string; headAgeSeconds: number }[]; secret: boolean };
      const healthy = up.outputs.healthyNodes as Healthy;
      expect(healthy.secret).toBe(false);
      expect(healthy.value.map((n) => n.id)).not.toContain(wrongChain.id);
      expect(healthy.value.map((n) => n.id).slice(2)).toEqual([older.id]);
      const app = await feedApp.up(run.recorded("feed-app up"));
      expect(app.outputs.appEnvironment.secret).toBe(true);
      const environment = JSON.parse(app.outputs.appEnvironment.value as string) as {
        RPC_URL: string;
        RPC_URLS: string;
      };
      const endpoint = (id: string) => listed.find((n) => n.id === id)!.details.httpsEndpoint;
      expect(JSON.parse(environment.RPC_URLS)).toEqual(healthy.value.map((n) => endpoint(n.id)));
      // The first node by name, proven on its own: the app's RPC_URL.
      expect(environment.RPC_URL).toBe(listed[0].details.httpsEndpoint);
      expect(app.outputs.rpcUrlForDisplay).toEqual(masked);
      expect(app.outputs.network).toEqual({ value: "e2e-mainnet", secret: false });
    });
    const preview = await quickstart.preview({
      expectNoChanges: true,
      diff: true,
      ...run.recorded("preview"),
    });
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(preview.stdout).not.toContain("__provider");
    const refresh = await quickstart.refresh({ expectNoChanges: true, ...run.recorded("refresh") });
    expect(refresh.summary.result).toBe("succeeded");
    await feedApp.destroy(run.recorded("feed-app destroy"));
    expect((await quickstart.destroy(run.recorded("quickstart destroy"))).summary.result).toBe("succeeded");
    expect(emulator().admin.getNetwork(NETWORK)).toBeDefined();
    const sends = emulator().faucetSends();
    expect(sends.filter((s) => s.address === emulator().fixtures.faucetAddress)).toHaveLength(1);
    const config = ["quickstart", "feed-app"].map((ex) =>
      path.join(examples, ex, `Pulumi.${stackName}.yaml`),
    );
    expect(
      findSecrets(emulator().secrets(), {
        files: [...filesUnder(run.sandbox.backendDir), ...config],
        texts: printed(),
      }),
    ).toEqual([]);
  });
});
