/**
 * The functions in a CI pipeline under the real engine (programs on disk, the CLI with
 * `--non-interactive`, settings from the environment), against the emulator: the README's
 * Functions block gives the right values, secret; each expected failure is one message, printed
 * once, without a trace.
 */
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import { NodeServiceClient, type Node } from "../../src/api";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import {
  describeWithEngine,
  filesUnder,
  emulatorConfig,
  EngineRun,
  closedPort,
  pythonEnv,
} from "../helpers/engine";
import { diagnostics, occurrences, programProject } from "../helpers/program-project";
import { docBlock, readmeBlock, readmeFile } from "../helpers/readme";

const STEP_TIMEOUT = 240_000;
const ROOT = path.resolve(__dirname, "..", "..");

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

describeWithEngine()(
  "the CI guide's healthy set and the examples' ordered list, under the real engine",
  () => {
    let run: EngineRun;
    const emulator = withEmulator();
    const NETWORK = "NW-100-000-1";

    beforeAll(async () => {
      run = await EngineRun.start();
    }, STEP_TIMEOUT);

    afterAll(() => run?.close(), STEP_TIMEOUT);

    const env = () => ({ BLOCKCHAIN_API_URL: emulator().url, BLOCKCHAIN_API_KEY: emulator().apiKey });
    /** What the engine printed, but the outputs read in plaintext on purpose (labelled "revealed"). */
    const printed = () =>
      Object.fromEntries(Object.entries(run.transcript).filter(([label]) => !label.includes("revealed")));

    /** The running nodes of the network, by name, read with the client. */
    async function running(): Promise<Node[]> {
      const client = new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey });
      return client.listAllNodes({ network: NETWORK, status: "running", orderBy: "name" }, { limit: 100 });
    }

    /**
     * A day on which the network's third node serves another chain (it fails the check) and its
     * second one has a head 60 s old (it passes, after the fresh ones): `body` runs, then both are
     * live again. Returns what `body` returned, with those two nodes.
     */
    async function withTwoBadNodes<T>(
      body: (nodes: { wrongChain: Node; older: Node; listed: Node[] }) => Promise<T>,
    ) {
      const listed = await running();
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

    /** The one line of the warning a healthy set prints for a node left out on another chain. */
    const leftOut = (operation: string, passed: number, total: number, min: number, node: string) =>
      `warning: ${operation}: ${passed} of ${total} nodes passed the endpoint check (verify.minVerified ${min}); left out: ${node}: wrong chain: it serves 5, ethereum-mainnet is 1.`;

    test(
      "docs/ci.md's healthy set in the README's infra program: a node on another chain is left out with one warning, the app's RPC_URLS are the others, freshest first; too few passing fails the infra update",
      async () => {
        // The README's infra program with its `nodes` replaced by the guide's, and the guide's app.
        const guide = docBlock("docs/ci.md", "ts", "minVerified: 2");
        const readme = readmeFile("index.ts");
        const listing = /^const nodes = getNodesOutput\(.*\);\n/m;
        expect(readme).toMatch(listing);
        const infra = programProject("ci-healthy-infra", readme.replace(listing, guide), {
          project: "nodes-infra",
        });
        const app = programProject(
          "ci-healthy-app",
          docBlock("docs/ci.md", "ts", 'getOutput("rpcUrls")'),
          {
            project: "nodes-app",
          },
        );
        await run.ok(infra, ["stack", "init", "ci"]);
        await run.ok(infra, ["config", "set", "networkId", NETWORK]);
        await run.ok(app, ["stack", "init", "ci"]);
        await run.ok(app, ["config", "set", "infraStack", "organization/nodes-infra/ci"]);
        const up = (dir: string, label: string) =>
          run.cli(dir, ["up", "--yes", "--non-interactive", "--skip-preview"], label, env());

        await withTwoBadNodes(async ({ wrongChain, older, listed }) => {
          const infraUp = await up(infra, "healthy infra up");
          expect(infraUp.code).toBe(0);
          const warnings = infraUp.output
            .split("\n")
            .map((l) => l.trim())
            .filter((l) => l.startsWith("warning: getNodesOutput"));
          // Printed as it happens and again among the Diagnostics: the same line.
          expect(new Set(warnings)).toEqual(new Set([leftOut("getNodesOutput", 3, 4, 2, wrongChain.id)]));
          expect((await up(app, "healthy app up")).code).toBe(0);
          const outputs = JSON.parse(
            (
              await run.cli(
                app,
                ["stack", "output", "--json", "--show-secrets"],
                "revealed healthy app",
                env(),
              )
            ).output,
          ) as { appEnvironment: { RPC_URLS: string } };
          const urls = JSON.parse(outputs.appEnvironment.RPC_URLS) as string[];
          const fresh = listed.filter((n) => n.id !== wrongChain.id && n.id !== older.id);
          // The two fresh nodes first (one head: their order is their latency's), the older head last.
          expect(new Set(urls.slice(0, 2))).toEqual(new Set(fresh.map((n) => n.details.httpsEndpoint)));
          expect(urls.slice(2)).toEqual([older.details.httpsEndpoint]);
          // The infra stack's readable `proven` is in the same order.
          const proven = JSON.parse(
            (await run.ok(infra, ["stack", "output", "proven", "--json"])) as string,
          ) as {
            id: string;
            headAgeSeconds: number;
          }[];
          expect(proven.map((p) => p.id)).toEqual(
            urls.map((url) => listed.find((n) => n.details.httpsEndpoint === url)!.id),
          );
          expect(proven[2].headAgeSeconds).toBeGreaterThanOrEqual(60);
          expect(proven[0].headAgeSeconds).toBeLessThan(60);
          // The guide's warning is this one.
          expect(fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8")).toContain(
            leftOut("getNodesOutput", 3, 4, 2, "ND-100-000-003"),
          );
        });

        // Only one node passes: fewer than 2, the infra update fails naming the others; the app's stays.
        const listed = await running();
        for (const n of listed.slice(1)) emulator().admin.setNodeEndpoint(n.id, { chainId: "5" });
        try {
          const failed = await up(infra, "healthy infra up, one passing");
          expect(failed.code).not.toBe(0);
          expectQuiet(failed.output);
          const diag = diagnostics(failed.output);
          expect(
            occurrences(
              diag,
              "error: getNodesOutput: 1 of 4 nodes passed the endpoint check, verify.minVerified asks 2: ",
            ),
          ).toBe(1);
          for (const n of listed.slice(1)) expect(diag).toContain(n.id);
        } finally {
          for (const n of listed.slice(1)) emulator().admin.setNodeEndpoint(n.id, { chainId: null });
        }

        expect(
          findSecrets(emulator().secrets(), { files: filesUnder(run.sandbox.backendDir), texts: printed() }),
        ).toEqual([]);
      },
      STEP_TIMEOUT,
    );

    test(
      "examples/quickstart and examples/feed-app: the app's RPC_URLS are the running nodes that pass, freshest first, a node left out named in one warning",
      async () => {
        const examples = path.join(ROOT, "examples");
        const stackName = `e2e${process.pid}-ci`;
        const quickstart = await run.stack(
          { stackName, workDir: path.join(examples, "quickstart") },
          {
            ...emulatorConfig(emulator()),
            "quickstart:networkId": { value: NETWORK },
            "quickstart:minVerified": { value: "2" },
          },
        );
        const feedApp = await run.stack(
          { stackName, workDir: path.join(examples, "feed-app") },
          { "feed-app:quickstartStack": { value: `organization/quickstart/${stackName}` } },
        );
        await withTwoBadNodes(async ({ wrongChain, older, listed }) => {
          const up = await quickstart.up(run.recorded("quickstart up"));
          expect(up.stdout).toContain(leftOut("getNodesOutput", 3, 4, 2, wrongChain.id));
          expect(up.outputs.rpcUrls.secret).toBe(true);
          const healthy = up.outputs.healthyNodes as {
            value: { id: string; headAgeSeconds: number }[];
            secret: boolean;
          };
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
        });
        await feedApp.destroy(run.recorded("feed-app destroy"));
        await quickstart.destroy(run.recorded("quickstart destroy"));
        const config = ["quickstart", "feed-app"].map((ex) =>
          path.join(examples, ex, `Pulumi.${stackName}.yaml`),
        );
        expect(
          findSecrets(emulator().secrets(), {
            files: [...filesUnder(run.sandbox.backendDir), ...config],
            texts: printed(),
          }),
        ).toEqual([]);
      },
      STEP_TIMEOUT,
    );
  },
);

describeWithEngine(["pulumi-language-python", "pulumi-language-python-exec", "pulumi-python"])(
  "the README's Python program in a CI job, on the plugin",
  () => {
    let run: EngineRun;
    let siteDir: string;
    const emulator = withEmulator();

    beforeAll(async () => {
      siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-python-sdk-"));
      run = await EngineRun.start((engineDir) => pythonEnv(siteDir, engineDir));
    }, STEP_TIMEOUT);

    afterAll(async () => {
      await run?.close();
      if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
    }, STEP_TIMEOUT);

    test(
      "on a network without nodes: fails before it changes anything, naming that network in one line",
      async () => {
        const id = emulator().fixtures.emptyNetwork;
        const named = emulator().admin.getNetwork(id)!.name;
        const code = docBlock("README.md", "python", "def first_with_endpoint(");
        expect(code).toContain('network_id = "NW-123-456-7"');
        const dir = path.join(run.sandbox.dir, "readme-python");
        fs.mkdirSync(dir);
        fs.writeFileSync(
          path.join(dir, "Pulumi.yaml"),
          `name: readme-python\nruntime: python\nplugins:\n  providers:\n    - name: blockchain\n      path: ${path.join(ROOT, "bin")}\n`,
        );
        fs.writeFileSync(path.join(dir, "__main__.py"), code.replaceAll("NW-123-456-7", id));
        await run.ok(dir, ["stack", "init", "ci"]);
        emulator().resetRequests();
        const env = { BLOCKCHAIN_API_URL: emulator().url, BLOCKCHAIN_API_KEY: emulator().apiKey };
        const result = await run.cli(
          dir,
          ["up", "--yes", "--non-interactive", "--skip-preview"],
          "python up, no node",
          env,
        );
        expect(result.code).not.toBe(0);
        const diag = diagnostics(result.output);
        expect(
          occurrences(
            diag,
            `error: No node of ${id} shows an HTTPS endpoint to this key: add one, or use its owner's key.\n`,
          ),
        ).toBe(1);
        expect(result.output).not.toMatch(/Traceback|NW-123-456-7/);
        // Nothing changed: the service was only read, the network keeps its name, and the stack
        // holds no network.
        expect(
          emulator()
            .requests()
            .filter((r) => r.method !== "GET"),
        ).toEqual([]);
        expect(emulator().admin.getNetwork(id)!.name).toBe(named);
        expect(named).not.toBe("mainnet-rpc");
        expect((await run.state(dir)).map((r) => r.type)).not.toContain("blockchain:index:Network");
        run.audit(emulator().secrets(), [path.join(dir, "Pulumi.ci.yaml")]);
      },
      STEP_TIMEOUT,
    );
  },
);
