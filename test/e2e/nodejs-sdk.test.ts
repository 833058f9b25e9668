/**
 * End to end: a TypeScript program on the generated Node.js SDK (`sdk/nodejs`, package
 * `pulumi-blockchain`) under the real engine, the provider plugin `blockchain` (bin/) found through
 * the `plugins:` path entry of its Pulumi.yaml, against the emulator.
 *
 * The SDK is built as it is published: a copy of sdk/nodejs compiled with this repository's
 * TypeScript into its `bin/`, its package.json copied there, and `bin/` linked into the program's
 * node_modules as `pulumi-blockchain`. The program and the SDK share one `@pulumi/pulumi` (this
 * repository's). Everything lives in the engine sandbox's temp folder; nothing is written into the
 * repository.
 *
 * The program adopts a network (retained on delete), lists its nodes (readable ids), takes the
 * first node's HTTPS endpoint from `getNodeConnectionsOutput` (secret) and lists, through an
 * explicit provider with another organization's key, that organization's nodes. Steps: up,
 * `preview --expect-no-changes`, destroy; a secrets audit of the backend's files, the stack's
 * config file and everything the engine printed follows each step.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { listAll, withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { changes, EngineRun, resource } from "../helpers/engine-run";

const ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_DIR = path.join(ROOT, "bin");
const SDK_SOURCE = path.join(ROOT, "sdk", "nodejs");
const TSC = path.join(ROOT, "node_modules", ".bin", "tsc");
const STEP_TIMEOUT = 120_000;
const PROJECT = "e2e-nodejs-sdk";
const DECLARED_NAME = "e2e-nodejs-sdk-network";

const run = promisify(execFile);

/** The program: TypeScript, type-checked by the engine's ts-node against the built SDK's types. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as blockchain from "pulumi-blockchain";

const config = new pulumi.Config();

// destroy stops managing the network and leaves it in place.
const net = new blockchain.Network(
  "net",
  { networkId: config.require("networkId"), name: config.require("networkName") },
  { retainOnDelete: true },
);

// Readable metadata.
const nodes = blockchain.getNodesOutput({ network: net.networkId, orderBy: "name" }).nodes;
// Endpoints and credentials: one Output, secret as a whole.
const connections = blockchain.getNodeConnectionsOutput({ network: net.networkId }).connections;

// Another organization's key, from secret config.
const other = new blockchain.Provider("other", {
  apiUrl: config.require("otherApiUrl"),
  apiKey: config.requireSecret("otherKey"),
});
const theirs = blockchain.getNodesOutput({}, { provider: other }).nodes;

export const networkName = net.name;
export const nodeIds = nodes.apply((ns) => ns.map((n) => n.id));
export const firstConnectionId = connections.apply((cs) => cs[0].id);
export const firstHttpsEndpoint = connections.apply((cs) => cs[0].httpsEndpoint);
export const theirNodes = theirs.apply((ns) =>
  ns.map((n) => ({ id: n.id, organization: n.organization, network: n.network })),
);
// @ts-expect-error only the Output form of getNodeConnections exists
export const plainGetNodeConnections = typeof blockchain.getNodeConnections;
`;

const PROGRAM_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2020",
    module: "commonjs",
    moduleResolution: "node",
    skipLibCheck: true,
  },
  files: ["index.ts"],
};

/** The Pulumi.yaml of the program: nodejs (TypeScript), the plugin found by its path entry. */
const PROJECT_YAML = `name: ${PROJECT}
runtime:
  name: nodejs
  options:
    typescript: true
plugins:
  providers:
    - name: blockchain
      path: ${PLUGIN_DIR}
`;

/** A stack output as the Automation API gives it. */
type Outputs = Record<string, { value: unknown; secret: boolean }>;

/**
 * Copies sdk/nodejs to `<dir>/sdk`, compiles it with this repository's TypeScript into its `bin/`
 * (the outDir of its tsconfig), copies its package.json there (the SDK reads its version from
 * it) and returns that folder: the package as published.
 */
async function buildSdk(dir: string): Promise<string> {
  const sdk = path.join(dir, "sdk");
  fs.cpSync(SDK_SOURCE, sdk, { recursive: true, filter: (src) => !/[/\\](node_modules|bin)$/.test(src) });
  const tsconfig = JSON.parse(
    // The generated tsconfig has comments: strip the line comments before parsing.
    fs.readFileSync(path.join(sdk, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  ) as { compilerOptions: { outDir: string } };
  expect(tsconfig.compilerOptions.outDir).toBe("bin");
  // What the SDK compiles against: this repository's @pulumi/pulumi and @types/node.
  link(
    path.join(ROOT, "node_modules", "@pulumi", "pulumi"),
    path.join(sdk, "node_modules", "@pulumi", "pulumi"),
  );
  link(path.join(ROOT, "node_modules", "@types", "node"), path.join(sdk, "node_modules", "@types", "node"));
  await run(TSC, ["-p", sdk], { cwd: dir });
  const out = path.join(sdk, tsconfig.compilerOptions.outDir);
  fs.copyFileSync(path.join(sdk, "package.json"), path.join(out, "package.json"));
  return out;
}

/** A symbolic link `at` → `target`, its parent folders created. */
function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, "dir");
}

/** Writes the program and links the built SDK and this repository's @pulumi/pulumi into its node_modules. */
function writeProgram(dir: string, sdkPackage: string): string {
  const program = path.join(dir, "program");
  fs.mkdirSync(program);
  fs.writeFileSync(path.join(program, "Pulumi.yaml"), PROJECT_YAML);
  fs.writeFileSync(path.join(program, "index.ts"), PROGRAM);
  fs.writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify(PROGRAM_TSCONFIG, null, 2));
  fs.writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify(
      {
        name: PROJECT,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": "*", "pulumi-blockchain": "*" },
      },
      null,
      2,
    ),
  );
  link(sdkPackage, path.join(program, "node_modules", "pulumi-blockchain"));
  link(
    path.join(ROOT, "node_modules", "@pulumi", "pulumi"),
    path.join(program, "node_modules", "@pulumi", "pulumi"),
  );
  return program;
}

/** What `require("pulumi-blockchain")` gives a node process in the program's folder. */
async function sdkSurface(program: string): Promise<Record<string, string>> {
  const script = `
    const sdk = require("pulumi-blockchain");
    const module = require("pulumi-blockchain/getNodeConnections");
    console.log(JSON.stringify({
      resolved: require.resolve("pulumi-blockchain"),
      getNodeConnections: typeof sdk.getNodeConnections,
      getNodeConnectionsOutput: typeof sdk.getNodeConnectionsOutput,
      moduleGetNodeConnections: typeof module.getNodeConnections,
      moduleGetNodeConnectionsOutput: typeof module.getNodeConnectionsOutput,
      getNodes: typeof sdk.getNodes,
      getNodesOutput: typeof sdk.getNodesOutput,
      Network: typeof sdk.Network,
      Provider: typeof sdk.Provider,
    }));`;
  const { stdout } = await run(process.execPath, ["-e", script], { cwd: program });
  return JSON.parse(stdout) as Record<string, string>;
}

describeWithEngine()("a TypeScript program on the generated Node.js SDK (pulumi-blockchain)", () => {
  const stackName = `e2e${process.pid}`;
  let run: EngineRun;
  let program: string;
  let stack: Stack | undefined;

  /** No secret in the backend's files, the stack's config file, or anything the engine printed. */
  const audit = () => run.audit(emulator().secrets(), [path.join(program, `Pulumi.${stackName}.yaml`)]);

  const network = () => emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!;
  const otherKey = () => emulator().keys[emulator().fixtures.otherOrganization];

  // Registered before withEmulator(): the stack is destroyed while the emulator still answers.
  afterAll(async () => {
    if (stack) await stack.destroy(run.recorded("cleanup")).catch(() => undefined);
    run?.sandbox.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    expect(fs.existsSync(path.join(PLUGIN_DIR, "pulumi-resource-blockchain"))).toBe(true);
    run = await EngineRun.start();
    program = writeProgram(run.sandbox.dir, await buildSdk(run.sandbox.dir));
    stack = await LocalWorkspace.createStack({ stackName, workDir: program }, run.workspaceOptions);
    await stack.setAllConfig({
      "blockchain:apiUrl": { value: emulator().url },
      "blockchain:apiKey": { value: emulator().apiKey, secret: true },
      [`${PROJECT}:networkId`]: { value: emulator().fixtures.networkWithNodes },
      [`${PROJECT}:networkName`]: { value: DECLARED_NAME },
      [`${PROJECT}:otherApiUrl`]: { value: emulator().url },
      [`${PROJECT}:otherKey`]: { value: otherKey(), secret: true },
    });
  }, STEP_TIMEOUT);

  test("the built SDK resolves from the program and has getNodeConnectionsOutput but no plain getNodeConnections", async () => {
    const surface = await sdkSurface(program);
    expect(surface.resolved).toBe(path.join(fs.realpathSync(run.sandbox.dir), "sdk", "bin", "index.js"));
    expect(surface).toMatchObject({
      getNodeConnections: "undefined",
      getNodeConnectionsOutput: "function",
      moduleGetNodeConnections: "undefined",
      moduleGetNodeConnectionsOutput: "function",
      // The other functions keep both forms.
      getNodes: "function",
      getNodesOutput: "function",
      Network: "function",
      Provider: "function",
    });
  });

  test(
    "up: readable node ids, the first endpoint secret and the service's own, the other organization's nodes only",
    async () => {
      const fixtures = emulator().fixtures;
      expect(fixtures.otherOrganization).toBe("RG-265-917");
      expect(otherKey()).toMatch(/^[0-9a-f]{20,}$/);
      expect(otherKey()).not.toBe(emulator().apiKey);

      const up = await stack!.up(run.recorded("up"));
      expect(up.summary.result).toBe("succeeded");
      // The stack, the network and the explicit provider (the default provider is not counted).
      expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
      expect(network().name).toBe(DECLARED_NAME);
      const out: Outputs = up.outputs;

      expect(out.networkName).toEqual({ value: DECLARED_NAME, secret: false });
      expect(out.plainGetNodeConnections).toEqual({ value: "undefined", secret: false });

      // Node ids: readable, in name order, those of the network.
      const byName = await listAll(emulator(), `network=${fixtures.networkWithNodes}&order_by=name`);
      expect(byName.length).toBeGreaterThan(1);
      expect(out.nodeIds).toEqual({ value: byName.map((n) => n.id), secret: false });

      // The first connection (the service's order): secret, and the node's real endpoint.
      const inServiceOrder = await listAll(emulator(), `network=${fixtures.networkWithNodes}`);
      const first = emulator().admin.getNode(inServiceOrder[0].id)!;
      const endpoint = first.details.https_endpoint;
      expect(endpoint).toMatch(/^https:\/\//);
      expect(out.firstConnectionId).toEqual({ value: first.id, secret: true });
      expect(out.firstHttpsEndpoint).toEqual({ value: endpoint, secret: true });
      // The audit looks for that very value.
      expect(emulator().secrets()).toContain(endpoint);
      expect(up.stdout).toMatch(/firstHttpsEndpoint\s*: \[secret\]/);

      // Through the explicit provider: exactly the other organization's nodes.
      const theirs = out.theirNodes;
      expect(theirs.secret).toBe(false);
      const nodes = theirs.value as { id: string; organization: string; network: string }[];
      expect(nodes.length).toBeGreaterThan(0);
      for (const node of nodes) expect(node.organization).toBe(fixtures.otherOrganization);
      expect(nodes.some((n) => n.network === fixtures.foreignNetwork)).toBe(true);
      const ids = (list: { id: string }[]) => list.map((n) => n.id).sort();
      expect(ids(nodes)).toEqual(ids(await listAll(emulator(), "", otherKey())));
      const mine = new Set(ids(await listAll(emulator())));
      expect(nodes.filter((n) => mine.has(n.id))).toEqual([]);

      // What the CLI shows without --show-secrets: the endpoint masked.
      const shown = JSON.parse(await run.ok(program, ["stack", "output", "--json"])) as Record<
        string,
        unknown
      >;
      expect(shown.firstHttpsEndpoint).toBe("[secret]");
      expect(shown.nodeIds).toEqual(byName.map((n) => n.id));

      // The explicit provider's key is stored encrypted (`stack export` without --show-secrets).
      const provider = resource(await run.state(program), "pulumi:providers:blockchain", "other");
      expect(provider.inputs?.apiUrl).toBe(emulator().url);
      expect(provider.inputs?.apiKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "preview --expect-no-changes right after up",
    async () => {
      const preview = await stack!.preview({ expectNoChanges: true, diff: true, ...run.recorded("preview") });
      expect(changes(preview.changeSummary)).toEqual([]);
      // The stack, the network and the explicit provider.
      expect(preview.changeSummary.same).toBe(3);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "destroy empties the stack and leaves the retained network in place",
    async () => {
      const destroyed = await stack!.destroy(run.recorded("destroy"));
      expect(destroyed.summary.result).toBe("succeeded");
      expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 3 });
      expect((await stack!.exportStack()).deployment.resources ?? []).toEqual([]);
      expect(network().name).toBe(DECLARED_NAME);
      stack = undefined;
      audit();
    },
    STEP_TIMEOUT,
  );
});
