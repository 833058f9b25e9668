/**
 * The functions in a CI pipeline under the real engine (programs on disk, the CLI with
 * `--non-interactive`, settings from the environment), against the emulator: the README's
 * Functions block gives the right values, secret; each expected failure is one message, printed
 * once, without a trace.
 */
import * as net from "net";
import { NodeServiceClient, type Node } from "../../src/api";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, filesUnder } from "../helpers/engine";
import { EngineRun } from "../helpers/engine-run";
import { closedPort } from "../../scripts/bad-days";
import { diagnostics, occurrences, programProject } from "../helpers/program-project";
import { readmeBlock } from "../helpers/readme";

const STEP_TIMEOUT = 240_000;

/** A stack trace frame, as Node.js prints them. */
const FRAME = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

/**
 * What must never appear in a CI log of an expected failure. (Node's `PromiseRejectionHandledWarning`
 * may: Pulumi's Outputs print it for any Output that fails before the stack's exports await it, a
 * plain `pulumi.output(1).apply(() => { throw … })` too, and a library may not silence it process-wide.)
 */
function expectQuiet(output: string): void {
  expect(output).not.toMatch(FRAME);
  expect(output).not.toMatch(/unhandled exception|UnhandledPromiseRejection/i);
  expect(output).not.toContain("node_modules");
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describeWithEngine()("the functions in a CI pipeline, under the real engine", () => {
  let run: EngineRun;
  const emulator = withEmulator();

  beforeAll(async () => {
    run = await EngineRun.start();
  }, STEP_TIMEOUT);

  afterAll(() => run?.sandbox.cleanup());

  /** A stack of `code` whose settings come from the environment, as in a CI job. */
  async function ciStack(name: string, code: string): Promise<string> {
    const dir = programProject(`ci-${name}`, code);
    await run.ok(dir, ["stack", "init", "ci"]);
    return dir;
  }

  const env = (extra: Record<string, string> = {}) => ({
    BLOCKCHAIN_API_URL: emulator().url,
    BLOCKCHAIN_API_KEY: emulator().apiKey,
    ...extra,
  });

  test(
    "the README's Functions block, the one-liner and the getNodeConnectionsOutput snippets: right values, secret, no toJSON text, nothing leaks",
    async () => {
      const { beaconNode, networkWithNodes: network } = emulator().fixtures;
      const dir = await ciStack(
        "functions",
        `${readmeBlock("export const dotenv =")}
import { getNodeConnectionsOutput, getNodes } from "pulumi-blockchain-nodes";

export const password = getNodeOutput({ id: "${beaconNode}" }).authPassword;
export const firstRpc = nodes.apply((ns) => ns[0].httpsEndpoint);
const conns = getNodeConnectionsOutput({ network: "${network}", orderBy: "name" });
export const rpcJson = conns.apply((cs) => JSON.stringify(cs.map((c) => ({ rpc: c.httpsEndpoint }))));
export const connEnv = conns.apply((cs) => \`RPC_URL=\${cs[0].httpsEndpoint}\`);
export const connInterpolated = pulumi.interpolate\`RPC_URL=\${conns[0].httpsEndpoint}\`;
export const masked = pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.httpsEndpointMasked).join(" ")));
export const firstName = getNodes({ network: "${network}", orderBy: "name" }).then((ns) => ns[0].name);
`,
      );
      const up = await run.cli(
        dir,
        ["up", "--yes", "--non-interactive", "--skip-preview"],
        "up functions",
        env(),
      );
      expect(up).toMatchObject({ code: 0 });
      const outputs = JSON.parse(
        (await run.cli(dir, ["stack", "output", "--json", "--show-secrets"], "outputs", env())).output,
      ) as Record<string, unknown>;
      const plain = JSON.parse((await run.cli(dir, ["stack", "output", "--json"], "outputs", env())).output);
      // The truth, read with the client, in the same order.
      const client = new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey });
      const list = (status?: "running") =>
        client.listAllNodes({ network, status, orderBy: "name" }, { limit: 100 });
      const [all, running] = [await list(), await list("running")];
      const rpcs = (nodes: Node[]) => JSON.stringify(nodes.map((n) => ({ rpc: n.details.httpsEndpoint })));
      const beacon = emulator().admin.getNode(beaconNode)!.details;
      expect(all.length).toBeGreaterThan(1);
      expect(outputs).toEqual({
        rpcUrl: beacon.https_endpoint,
        rpcUrls: rpcs(running),
        dotenv: `RPC_URL=${running[0].details.httpsEndpoint}\nWS_URL=${running[0].details.wssEndpoint}`,
        rpcEnv: `RPC_URL=${beacon.https_endpoint}`,
        names: running.map((n) => n.name),
        password: beacon.auth_password,
        firstRpc: running[0].details.httpsEndpoint,
        rpcJson: rpcs(all),
        connEnv: `RPC_URL=${all[0].details.httpsEndpoint}`,
        connInterpolated: `RPC_URL=${all[0].details.httpsEndpoint}`,
        masked: expect.stringContaining("***"),
        firstName: all[0].name,
      });
      // Secret in state: shown as [secret] without --show-secrets; the readable ones stay readable.
      const readable = ["names", "masked", "firstName"];
      expect(plain).toEqual(
        Object.fromEntries(
          Object.entries(outputs).map(([k, v]) => [k, readable.includes(k) ? v : "[secret]"]),
        ),
      );
      expect(Object.values(run.transcript).join("")).not.toContain("Calling [toJSON] on an [Output<T>]");
      const transcript = Object.fromEntries(
        Object.entries(run.transcript).filter(([label]) => !label.includes("outputs")),
      );
      expect(
        findSecrets(emulator().secrets(), { files: filesUnder(run.sandbox.backendDir), texts: transcript }),
      ).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  const LOOKUP = () => `
import { getNode, getNodesOutput } from "pulumi-blockchain-nodes";

export = async () => {
  const later = getNodesOutput({ network: "NW-100-000-1" });
  const node = await getNode({ id: "ND-100-000-001" });
  return { name: node.name, count: later.apply((ns) => ns.length) };
};
`;

  test(
    "an unreachable API URL: one message, once, no trace",
    async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const dir = await ciStack("unreachable", LOOKUP());
      const result = await run.cli(
        dir,
        ["preview", "--non-interactive"],
        "preview unreachable",
        env({ BLOCKCHAIN_API_URL: url, BLOCKCHAIN_MAX_RETRIES: "1" }),
      );
      expect(result.code).not.toBe(0);
      expectQuiet(result.output);
      // Each of the two calls fails with its own message, printed once.
      const diag = diagnostics(result.output);
      expect(occurrences(diag, "error: getNode ND-100-000-001:")).toBe(1);
      expect(occurrences(diag, "error: getNodesOutput:")).toBe(1);
      expect(diag).toMatch(/error: getNode ND-100-000-001: ECONNREFUSED: .*ECONNREFUSED/);
    },
    STEP_TIMEOUT,
  );

  test(
    "a service that accepts connections and never answers: ends within the deadline set in the environment, wait lines first, one message naming the setting",
    async () => {
      const silent = await silentServer();
      try {
        const dir = await ciStack("silent", LOOKUP());
        const started = Date.now();
        const result = await run.cli(
          dir,
          ["preview", "--non-interactive"],
          "preview silent",
          env({
            BLOCKCHAIN_API_URL: silent.url,
            BLOCKCHAIN_TIMEOUT_MS: "1500",
            BLOCKCHAIN_DEADLINE_MS: "4000",
          }),
        );
        console.log(
          `a silent service, timeoutMs 1500, deadlineMs 4000: preview failed after ${Date.now() - started} ms`,
        );
        expect(result.code).not.toBe(0);
        expectQuiet(result.output);
        expect(result.output).toMatch(/no answer within 1\.5 s; waiting .+ before attempt 2 of 5/);
        const diag = diagnostics(result.output);
        expect(diag).toMatch(/deadline of 4000 ms/);
        expect(diag).toContain("blockchain:deadlineMs");
        expect(diag).toContain("BLOCKCHAIN_DEADLINE_MS");
      } finally {
        await silent.close();
      }
    },
    STEP_TIMEOUT,
  );

  test(
    "a service that keeps answering 429 with Retry-After: each wait is logged as it happens, then one message",
    async () => {
      emulator().setFaults({ rate429: 1, retryAfterSeconds: 2, match: { path: "/v1/nodes/" } });
      try {
        const dir = await ciStack("throttled", LOOKUP());
        const result = await run.cli(
          dir,
          ["preview", "--non-interactive"],
          "preview throttled",
          env({ BLOCKCHAIN_MAX_RETRIES: "2" }),
        );
        expect(result.code).not.toBe(0);
        expectQuiet(result.output);
        const waits = [
          ...result.output.matchAll(/the service answered 429; waiting 2 s before attempt (\d) of 3/g),
        ];
        expect(waits.map((m) => m[1])).toEqual(expect.arrayContaining(["2", "3"]));
        // the wait lines come before the error
        const diagAt = result.output.indexOf("Diagnostics:");
        expect(result.output.indexOf("waiting 2 s before attempt 2 of 3")).toBeLessThan(diagAt);
        const diag = diagnostics(result.output);
        expect(diag).toMatch(/error: getNode ND-100-000-001: 429 \w+: [\s\S]*Gave up after 3 attempts/);
        expect(occurrences(diag, "error: getNode ND-100-000-001:")).toBe(1);
      } finally {
        emulator().setFaults({});
      }
    },
    STEP_TIMEOUT,
  );

  test(
    "an API URL with a wrong path: the function says the API URL looks wrong, once, no trace",
    async () => {
      const dir = await ciStack("wrong-path", LOOKUP());
      const result = await run.cli(
        dir,
        ["preview", "--non-interactive"],
        "preview wrong path",
        env({ BLOCKCHAIN_API_URL: `${emulator().url}/api/v2` }),
      );
      expect(result.code).not.toBe(0);
      expectQuiet(result.output);
      const diag = diagnostics(result.output);
      expect(diag).toContain("looks wrong");
      expect(diag).not.toContain("check the id and the key");
    },
    STEP_TIMEOUT,
  );

  test(
    "a bad filter: one clear message, no trace",
    async () => {
      const dir = await ciStack(
        "bad-filter",
        `
import { getNodesOutput } from "pulumi-blockchain-nodes";

const nodes = getNodesOutput({ region: "mars-north1" as never });
export const count = nodes.apply((ns) => ns.length);
`,
      );
      const result = await run.cli(dir, ["preview", "--non-interactive"], "preview bad filter", env());
      expect(result.code).not.toBe(0);
      expectQuiet(result.output);
      const diag = diagnostics(result.output);
      expect(occurrences(diag, "mars-north1")).toBe(1);
    },
    STEP_TIMEOUT,
  );

  test(
    "a preview only reads (GET); a networkId that does not exist is named by the first up, in one message",
    async () => {
      const missing = "NW-999-999-9";
      const program = (id: string) => `
import { Network } from "pulumi-blockchain-nodes";

const network = new Network("main", { networkId: "${id}" });
export const name = network.name;
`;
      const dir = await ciStack("adopt", program(missing));
      emulator().resetRequests();
      const preview = await run.cli(dir, ["preview", "--non-interactive"], "preview missing network", env());
      expect(preview.code).toBe(0);
      expect(
        new Set(
          emulator()
            .requests()
            .map((r) => r.method),
        ),
      ).toEqual(new Set(["GET"]));
      const failed = await run.cli(dir, ["up", "--yes", "--non-interactive"], "up missing network", env());
      expect(failed.code).not.toBe(0);
      expectQuiet(failed.output);
      expect(occurrences(diagnostics(failed.output), missing)).toBe(1);
      expect(diagnostics(failed.output)).toMatch(/cannot adopt it: the service answered 404/);

      // An existing network, adopted; then deleted out of band; refresh says so in one line.
      const id = emulator().fixtures.secondEmptyNetwork;
      const adopt = programProject("ci-adopt", program(id));
      const up = await run.cli(adopt, ["up", "--yes", "--non-interactive"], "up adopt", env());
      expect(up.code).toBe(0);
      // A preview of the adopted network makes no adoption read (only the first one did).
      emulator().resetRequests();
      expect((await run.cli(adopt, ["preview", "--non-interactive"], "preview adopted", env())).code).toBe(0);
      const patches = emulator()
        .requests()
        .filter((r) => r.method === "PATCH");
      expect(patches).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
