/**
 * End to end: the brief in a CI pipeline, under the real engine (programs on disk run by the
 * nodejs language host, the CLI with `--non-interactive`, settings from the environment as a CI
 * job sets them), against the emulator.
 *
 * - The brief's one-liner: `getNodeOutput({ id }).httpsEndpoint` and `getNodesOutput(...)` give
 *   the endpoint, secret, into stack outputs; the backend's files and the output are audited.
 * - Each expected failure ends in one message, printed once, with no stack trace, no "unhandled
 *   exception" and no `PromiseRejectionHandledWarning`: an unreachable URL, a service that never
 *   answers, a throttling service (its wait lines come first), a wrong API path, a bad filter.
 * - A `networkId` that does not exist fails at preview; a network deleted out of band is dropped
 *   by refresh with a line that says why.
 */
import * as net from "net";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, filesUnder } from "../helpers/engine";
import { EngineRun } from "../helpers/engine-run";
import { occurrences, programProject } from "../helpers/program-project";

const STEP_TIMEOUT = 240_000;

/** A stack trace frame, as Node.js prints them. */
const FRAME = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

/** What must never appear in a CI log of an expected failure. */
function expectQuiet(output: string): void {
  expect(output).not.toMatch(FRAME);
  expect(output).not.toMatch(/unhandled exception|PromiseRejectionHandledWarning|UnhandledPromiseRejection/i);
  expect(output).not.toContain("node_modules");
}

/** The engine's `Diagnostics:` section (each error once; progress lines may show it too). */
function diagnostics(text: string): string {
  expect(text).toContain("Diagnostics:");
  return text.slice(text.indexOf("Diagnostics:"));
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

/** A port on 127.0.0.1 where nothing listens (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithEngine()("the brief in a CI pipeline, under the real engine", () => {
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
    "the brief's one-liner: getNodeOutput({ id }).httpsEndpoint and getNodesOutput give the endpoint, secret; nothing leaks",
    async () => {
      const node = emulator().fixtures.beaconNode;
      const network = emulator().fixtures.networkWithNodes;
      const dir = await ciStack(
        "brief",
        `
import * as pulumi from "@pulumi/pulumi";
import { getNodeOutput, getNodesOutput } from "pulumi-blockchain-nodes";

const node = getNodeOutput({ id: "${node}" });
const nodes = getNodesOutput({ network: "${network}", orderBy: "name" });
export const rpcUrl = node.httpsEndpoint;
export const password = node.authPassword;
export const firstRpc = nodes.apply((ns) => ns[0].httpsEndpoint);
export const rpcEnv = nodes.apply((ns) => \`RPC_URL=\${ns[0].httpsEndpoint}\`);
export const interpolated = pulumi.interpolate\`RPC_URL=\${node.httpsEndpoint}\`;
export const names = pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name)));
`,
      );
      const up = await run.cli(
        dir,
        ["up", "--yes", "--non-interactive", "--skip-preview"],
        "up brief",
        env(),
      );
      expect(up).toMatchObject({ code: 0 });
      const outputs = JSON.parse(
        (await run.cli(dir, ["stack", "output", "--json", "--show-secrets"], "outputs", env())).output,
      ) as Record<string, unknown>;
      const plain = JSON.parse((await run.cli(dir, ["stack", "output", "--json"], "outputs", env())).output);
      const theNode = emulator().admin.getNode(node)!;
      const listed = [...emulator().admin.getNetwork(network)!.nodes].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      expect(outputs).toEqual({
        rpcUrl: theNode.details.https_endpoint,
        password: theNode.details.auth_password,
        firstRpc: listed[0].details.https_endpoint,
        rpcEnv: `RPC_URL=${listed[0].details.https_endpoint}`,
        interpolated: `RPC_URL=${theNode.details.https_endpoint}`,
        names: listed.map((n) => n.name),
      });
      // Secret in state: shown as [secret] without --show-secrets; the readable list stays readable.
      expect(plain).toEqual({
        rpcUrl: "[secret]",
        password: "[secret]",
        firstRpc: "[secret]",
        rpcEnv: "[secret]",
        interpolated: "[secret]",
        names: listed.map((n) => n.name),
      });
      const secrets = emulator().secrets();
      const transcript = Object.fromEntries(
        Object.entries(run.transcript).filter(([label]) => !label.includes("outputs")),
      );
      expect(findSecrets(secrets, { files: filesUnder(run.sandbox.backendDir), texts: transcript })).toEqual(
        [],
      );
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
    "a bad filter: one clear message, no PromiseRejectionHandledWarning",
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
    "a networkId that does not exist fails at preview, naming the id; a network deleted out of band is dropped by refresh with a line that says why",
    async () => {
      const missing = "NW-999-999-9";
      const program = (id: string) => `
import { Network } from "pulumi-blockchain-nodes";

const network = new Network("main", { networkId: "${id}" }, { retainOnDelete: true });
export const name = network.name;
`;
      const dir = await ciStack("adopt", program(missing));
      const preview = await run.cli(dir, ["preview", "--non-interactive"], "preview missing network", env());
      expect(preview.code).not.toBe(0);
      expectQuiet(preview.output);
      expect(diagnostics(preview.output)).toContain(missing);
      expect(diagnostics(preview.output)).toMatch(/does not exist|not visible/);

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
      emulator().admin.deleteNetwork(id);
      const refresh = await run.cli(adopt, ["refresh", "--yes", "--non-interactive"], "refresh gone", env());
      expect(refresh.code).toBe(0);
      expect(refresh.output).toContain(`${id} no longer exists in the service; removed from the stack`);
      expect(occurrences(refresh.output, "no longer exists in the service")).toBeGreaterThanOrEqual(1);
    },
    STEP_TIMEOUT,
  );
});
