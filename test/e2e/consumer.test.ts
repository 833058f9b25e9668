/**
 * The package as a user gets it: packed with `npm pack` (built afresh in a staging copy), installed
 * from the tarball into a fresh folder, and used there as the README's "Use it in your project"
 * shows, under the real engine too, at the pinned `@pulumi/pulumi` and at its peer range's floor.
 * The package's dependencies are copies of this repository's (npm runs offline); `@pulumi/pulumi`,
 * `typescript` and `@types/node` are links to them: `@pulumi/pulumi` to the pinned devDependency,
 * or to the floor's, the devDependency `@pulumi/pulumi-floor` (an npm alias).
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import type { OutputMap, Stack } from "@pulumi/pulumi/automation";
import * as ts from "typescript";
import { enginePath } from "../../scripts/engine-sandbox";
import type { RunningEmulator } from "../../src/emulator";
import { PluginClient } from "../helpers/plugin-client";
import { describeWithEngine, changes, emulatorConfig, EngineRun } from "../helpers/engine";
import { withTempDir } from "../helpers/env";
import { npmInstall } from "../helpers/program-project";
import { readmeBlock, readmeFile } from "../helpers/readme";

const ROOT = path.resolve(__dirname, "..", "..");
const NAME = "pulumi-blockchain-nodes";
const run = promisify(execFile);
/** This repository's package.json. */
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  files: string[];
  peerDependencies: Record<string, string>;
};

/** A `@pulumi/pulumi` of this repository's `node_modules`, by the name it is installed under. */
function sdkAt(name: string): { dir: string; version: string } {
  const dir = path.join(ROOT, "node_modules", ...name.split("/"));
  return { dir, version: (require(path.join(dir, "package.json")) as { version: string }).version };
}
/** The SDK the tests run with (the devDependency `@pulumi/pulumi`). */
const PINNED = sdkAt("@pulumi/pulumi");
/** The lowest SDK the package promises: the devDependency `@pulumi/pulumi-floor`, an alias of it. */
const FLOOR = sdkAt("@pulumi/pulumi-floor");

/** `fs.cpSync`'s options to copy a folder (files and folders; links as links). */
const TREE = { recursive: true, verbatimSymlinks: true };

interface Packed {
  tarball: string;
  /** Bytes of the tarball, and of its files unpacked. */
  size: number;
  unpackedSize: number;
  files: string[];
  version: string;
}

/**
 * `npm pack` after its `prepack` (a build) in a staging copy of the package's sources, so that
 * this checkout's `dist/` stays as it is.
 */
async function pack(work: string): Promise<Packed> {
  const staging = path.join(work, "staging");
  for (const entry of [
    ...PKG.files.filter((f) => f !== "dist"),
    "package.json",
    "tsconfig.json",
    "tsconfig.build.json",
    "scripts/bundle-plugin.js",
  ])
    fs.cpSync(path.join(ROOT, entry), path.join(staging, entry), TREE);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(staging, "node_modules"), "dir");
  const dest = path.join(work, "pack");
  fs.mkdirSync(dest);
  await run("npm", ["run", "build"], { cwd: staging });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dest], {
    cwd: staging,
  });
  const [info] = JSON.parse(stdout) as Array<
    Omit<Packed, "tarball" | "files"> & { filename: string; files: Array<{ path: string }> }
  >;
  return { ...info, tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path) };
}

/** This repository's folders of the package's runtime dependencies and theirs, as `npm ls` lists them. */
function dependencyFolders(): string[] {
  const ls = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: ROOT });
  return ls.toString().trim().split("\n").slice(1); // the first is the package itself
}

/**
 * Installs the tarball into `project` with npm, offline: its dependencies copied from this
 * repository's first, then `@pulumi/pulumi` (`sdk`), `typescript` and `@types/node` linked to its copies.
 */
async function install(project: string, tarball: string, sdk = PINNED.dir): Promise<void> {
  fs.mkdirSync(path.join(project, "node_modules"), { recursive: true });
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  for (const dir of dependencyFolders()) fs.cpSync(dir, path.join(project, path.relative(ROOT, dir)), TREE);
  await npmInstall(project, tarball, "--legacy-peer-deps");
  for (const [linked, target] of [
    ["@pulumi/pulumi", sdk],
    ["typescript", path.join(ROOT, "node_modules", "typescript")],
    ["@types/node", path.join(ROOT, "node_modules", "@types", "node")],
  ]) {
    const at = path.join(project, "node_modules", linked);
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.symlinkSync(target, at, "dir");
  }
}

/** Declaration files parsed once for all the type-checks below. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * The errors of type-checking `files` ("" when none). `libraries`: `"all"` checks every
 * declaration file too (no `skipLibCheck`); `"package"` only this package's.
 */
function typeCheck(files: string[], options: ts.CompilerOptions, libraries: "all" | "package"): string {
  // The automatic `@types` are the project's, not this repository's.
  const host = ts.createCompilerHost(options);
  host.getCurrentDirectory = () => path.dirname(files[0]);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, mode, ...rest) => {
    if (!fileName.includes(`${path.sep}node_modules${path.sep}`))
      return getSourceFile(fileName, mode, ...rest);
    const key = `${fileName}\0${JSON.stringify(mode)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, mode, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram(files, { ...options, noEmit: true }, host);
  const ours = (f: ts.SourceFile) =>
    !f.fileName.includes("/node_modules/") || f.fileName.includes(`/node_modules/${NAME}/`);
  const diagnostics =
    libraries === "all"
      ? ts.getPreEmitDiagnostics(program)
      : [
          ...program.getOptionsDiagnostics(),
          ...program.getGlobalDiagnostics(),
          ...program
            .getSourceFiles()
            .filter(ours)
            .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
        ];
  return ts.formatDiagnostics(diagnostics, host);
}

/** Type-checks the project in `dir` as `tsc -p <dir>` would, with its own `tsconfig.json`: no error. */
function tsc(dir: string): void {
  const { config } = ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile);
  const { options, fileNames } = ts.parseJsonConfigFileContent(config, ts.sys, dir);
  expect(typeCheck(fileNames, options, "all")).toBe("");
}

/** What one `require` of an entry costs in a fresh process, and how many `@pulumi/*` files it loaded. */
async function loadCost(project: string, specifier: string) {
  const script = `
    const started = process.hrtime.bigint();
    require(${JSON.stringify(specifier)});
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const pulumiModules = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]@pulumi[\\\\/]/.test(f)).length;
    console.log(JSON.stringify({ ms, rssMb: process.memoryUsage().rss / 2 ** 20, pulumiModules }));
  `;
  const { stdout } = await run(process.execPath, ["-e", script], { cwd: project });
  return JSON.parse(stdout) as { ms: number; rssMb: number; pulumiModules: number };
}

// ---------------------------------------------------------------------------------------------

const workDir = withTempDir("pbn-consumer-");
let work: string;
let project: string;
let packed: Packed;

beforeAll(async () => {
  work = workDir();
  project = path.join(work, "project");
  packed = await pack(work);
  await install(project, packed.tarball);
}, 180_000);

describe("the packed package, installed from its tarball", () => {
  test("holds dist/, the sources its maps point at, the docs and examples, and no test or build file", () => {
    console.log(
      `npm pack: ${packed.files.length} files, ${(packed.size / 1024).toFixed(0)} KiB packed, ` +
        `${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
    );
    const files = new Set(packed.files);
    for (const file of [
      "package.json",
      "README.md",
      "dist/index.js",
      "dist/client.js",
      "dist/emulator/cli.js",
      "dist/plugin/main.js",
      "dist/plugin/pulumi-resource-blockchain.js",
      "bin/pulumi-resource-blockchain",
      "bin/pulumi-resource-blockchain.cmd",
      "schema.json",
      // What the README links to travels with it.
      "docs/functions.md",
      "examples/quickstart/index.ts",
      "CONTRIBUTING.md",
    ])
      expect(files).toContain(file);
    expect(packed.files.filter((f) => /^(test|scripts|tools|build|node_modules)\//.test(f))).toEqual([]);
    // Every map (JavaScript and declaration) names sources that travel with it, so a stack trace
    // or a "go to definition" lands in a file of the package.
    const maps = packed.files.filter((f) => f.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(50);
    expect(maps).toContain("dist/settings.js.map");
    expect(maps).toContain("dist/index.d.ts.map");
    const installed = path.join(project, "node_modules", NAME);
    const missing = maps.flatMap((map) =>
      (JSON.parse(fs.readFileSync(path.join(installed, map), "utf8")) as { sources: string[] }).sources
        .map((source) => path.posix.join(path.posix.dirname(map), source))
        .filter((file) => !files.has(file))
        .map((file) => `${map} -> ${file}`),
    );
    expect(missing).toEqual([]);
    // and only sources of files that are in the package (but the bundled plugin, made of many)
    const stale = packed.files
      .filter((f) => f.startsWith("dist/") && f.endsWith(".js"))
      .filter((f) => f !== "dist/plugin/pulumi-resource-blockchain.js")
      .filter((f) => !files.has(f.replace(/^dist\//, "src/").replace(/\.js$/, ".ts")));
    expect(stale).toEqual([]);
  });

  test("every entry type-checks under moduleResolution node (Pulumi's default tsconfig, every declaration file checked), node16, nodenext and bundler; the Output-form snippets compile, the Promise-form one does not", () => {
    const dir = path.join(project, "resolution");
    fs.mkdirSync(dir, { recursive: true });
    const imports = `
      import { getNodeConnectionsOutput, getNodesOutput, Network, NodeServiceClient as MainClient } from "${NAME}";
      import { isApiError, NodeServiceClient, PROTOCOLS, UnauthorizedError, type Node, type NodeServiceClientOptions } from "${NAME}/client";
      import { startEmulator, WELL_KNOWN_IDS, type RunningEmulator } from "${NAME}/emulator";
      import { configure, network } from "${NAME}/provider-runtime";
      export const used = [getNodeConnectionsOutput, getNodesOutput, Network, MainClient, isApiError, NodeServiceClient, PROTOCOLS, UnauthorizedError, startEmulator, WELL_KNOWN_IDS, configure, network];
      export type Used = [Node, NodeServiceClientOptions, RunningEmulator];
      // one copy of the client: the main entry's class is the client entry's
      export const same: typeof MainClient = NodeServiceClient;
    `;
    const cts = path.join(dir, "consumer.ts");
    const mts = path.join(dir, "consumer.mts");
    fs.writeFileSync(cts, imports);
    fs.writeFileSync(mts, imports);
    // The first code a user writes for an app's configuration: the Output forms compile (the
    // endpoints are there, secret as a whole); the Promise form, which cannot carry secretness,
    // does not.
    const snippets = path.join(dir, "snippets.ts");
    fs.writeFileSync(
      snippets,
      `import * as pulumi from "@pulumi/pulumi";
       import { getNode, getNodeOutput, getNodesOutput } from "${NAME}";
       const nodes = getNodesOutput({ network: "NW-100-000-1" });
       export const a = nodes.apply((ns) => JSON.stringify(ns.map((n) => ({ rpc: n.httpsEndpoint }))));
       export const b = nodes.apply((ns) => \`RPC_URL=\${ns[0].httpsEndpoint}\`);
       export const d: pulumi.Output<string> = getNodeOutput({ id: "ND-100-000-001" }).httpsEndpoint;
       export const e: pulumi.Output<string> = getNodeOutput({ id: "ND-100-000-001" }).authPassword;
       export const f = pulumi.interpolate\`RPC_URL=\${getNodeOutput({ id: "ND-100-000-001" }).httpsEndpoint}\`;
       export async function c() {
         return \`RPC_URL=\${(await getNode({ id: "ND-100-000-001" })).httpsEndpoint}\`;
       }
      `,
    );
    // moduleResolution node: the README's tsconfig, which is Pulumi's default.
    const readmeTsconfig = JSON.parse(readmeFile("tsconfig.json")) as { compilerOptions: object };
    const pulumiDefault = ts.convertCompilerOptionsFromJson(readmeTsconfig.compilerOptions, dir).options;
    expect(pulumiDefault).toMatchObject({
      strict: true,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    });
    const common: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2020, types: ["node"] };
    const mode = (module: ts.ModuleKind, moduleResolution: ts.ModuleResolutionKind) => ({
      ...common,
      module,
      moduleResolution,
    });
    const modes: Array<[string, ts.CompilerOptions, string[]]> = [
      ["node", pulumiDefault, [cts, snippets]],
      ["node16", mode(ts.ModuleKind.Node16, ts.ModuleResolutionKind.Node16), [cts, mts]],
      ["nodenext", mode(ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext), [cts, mts]],
      ["bundler", mode(ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler), [cts]],
    ];
    // Every declaration file is checked under Pulumi's default (it has no skipLibCheck); under the
    // others, the package's own declaration files are, and the SDK's as far as they are used.
    const reports: Record<string, string[]> = {};
    for (const [name, options, files] of modes)
      reports[name] = typeCheck(files, options, name === "node" ? "all" : "package")
        .split("\n")
        .filter((line) => / error TS\d+/.test(line));
    // Under node, only the Promise-form snippet fails, on the field that is not there.
    const promiseForm = expect.stringMatching(/snippets\.ts.*TS2339: .*'httpsEndpoint'.*'NodeResult'/);
    expect(reports).toEqual({ node: [promiseForm], node16: [], nodenext: [], bundler: [] });
    // the control: a path that is no entry is refused where exports apply
    fs.writeFileSync(
      cts,
      `import { NodeServiceClient } from "${NAME}/dist/api/client";\nexport const c = NodeServiceClient;\n`,
    );
    expect(typeCheck([cts], modes[1][1], "package")).toMatch(/TS2307/);
  }, 120_000);

  test("requiring the client entry loads no @pulumi module; the main entry loads the SDK (times printed, not judged)", async () => {
    const costs = { client: await loadCost(project, `${NAME}/client`), main: await loadCost(project, NAME) };
    for (const [entry, c] of Object.entries(costs))
      console.log(
        `require ${entry}: ${c.ms.toFixed(0)} ms, RSS ${c.rssMb.toFixed(0)} MB, ${c.pulumiModules} @pulumi files`,
      );
    expect(costs.client.pulumiModules).toBe(0);
    expect(costs.main.pulumiModules).toBeGreaterThan(0); // the check can see them
    // The client entry's names are the main entry's very classes.
    const { stdout } = await run(
      process.execPath,
      [
        "-e",
        `const c = require("${NAME}/client"), m = require("${NAME}");
         console.log(c.NodeServiceClient === m.NodeServiceClient && c.ApiError === m.ApiError && c.PROTOCOLS === m.PROTOCOLS);`,
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe("true");
  }, 120_000);

  test("the installed provider plugin (bin/pulumi-resource-blockchain, the Pulumi.yaml path entry of other languages) serves its version and schema", async () => {
    const installed = path.join(project, "node_modules", "pulumi-blockchain-nodes");
    const plugin = await PluginClient.start({}, path.join(installed, "bin", "pulumi-resource-blockchain"));
    try {
      expect(await plugin.getPluginInfo()).toEqual({ version: packed.version });
      const schema = await plugin.getSchema();
      expect(schema).toBe(fs.readFileSync(path.join(installed, "schema.json"), "utf8"));
      expect(JSON.parse(schema)).toMatchObject({ name: "blockchain", version: packed.version });
    } finally {
      await plugin.stop();
    }
  });

  // The README's project starting at the floor too: test/pure/docs-versions.test.ts.
  test("the lowest @pulumi/pulumi it promises is the one tested: package.json's peer range starts at @pulumi/pulumi-floor", () => {
    expect(PKG.peerDependencies["@pulumi/pulumi"]).toBe(`>=${FLOOR.version} <4.0.0`);
  });

  // What --json prints and serves: test/emulator/cli.test.ts; the installed emulator serves the engine tests below.
  test("the installed emulator command (its bin link, loading its whole server) prints its version", async () => {
    const bin = path.join(project, "node_modules", ".bin", "blockchain-nodes-emulator");
    expect((await run(bin, ["--version"])).stdout).toBe(`${packed.version}\n`);
  });
});

// ---------------------------------------------------------------------------------------------

describeWithEngine()("the README's project, installed from the tarball, under the real engine", () => {
  let emulator: RunningEmulator;
  const engines: EngineRun[] = [];

  beforeAll(async () => {
    // The emulator of the installed package, through its subpath.
    const installed = require.resolve(`${NAME}/emulator`, { paths: [project] });
    emulator = await (require(installed) as typeof import("../../src/emulator")).startEmulator({ port: 0 });
  });

  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await emulator?.close();
  }, 240_000);

  /** An engine sandbox, closed after the tests; `extraEnv` as {@link EngineRun.start} takes it. */
  const startEngine = async (extraEnv?: Parameters<typeof EngineRun.start>[0]) =>
    engines[engines.push(await EngineRun.start(extraEnv)) - 1];

  /** Writes a Pulumi project of the README into `dir`: its Pulumi.yaml, package.json, tsconfig.json and index.ts. */
  function writeProject(dir: string, name: string, program: string): void {
    fs.mkdirSync(dir, { recursive: true });
    const named = (file: string) => readmeFile(file).replace(/nodes-infra/, name);
    for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json"])
      fs.writeFileSync(path.join(dir, file), named(file));
    fs.writeFileSync(path.join(dir, "index.ts"), program);
  }

  /**
   * The README's infra project in `infraDir` (compiled with `tsc` beforehand) on `engine`: `up`
   * gives the right values, secret where they must be; a preview right after shows no changes and
   * a refresh finds none. Returns the stack, its outputs, the nodes and the first one's RPC URL.
   */
  async function infraUpPreviewRefresh(engine: EngineRun, infraDir: string) {
    // What the values must be: the running nodes of the network, by name, read with the client entry.
    const { NodeServiceClient } = require(
      require.resolve(`${NAME}/client`, { paths: [infraDir] }),
    ) as typeof import("../../src/client");
    const client = new NodeServiceClient({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    const network = emulator.fixtures.networkWithNodes;
    const expected = await client.listAllNodes(
      { network, status: "running", orderBy: "name" },
      { limit: 100 },
    );
    expect(expected.length).toBeGreaterThan(1);
    const rpc0 = expected[0].details.httpsEndpoint!;

    const infra = await engine.stack(
      { stackName: "dev", workDir: infraDir },
      {
        ...emulatorConfig(emulator),
        "nodes-infra:networkId": { value: network },
        "nodes-infra:networkName": { value: "consumer-mainnet" },
      },
    );
    const up = await infra.up(engine.recorded("infra up"));
    expect(up.summary.result).toBe("succeeded");
    const out: OutputMap = await infra.outputs();
    /** An output's value, once its secretness is checked. */
    const value = (name: string, secret: boolean) => {
      expect({ name, secret: out[name].secret }).toEqual({ name, secret });
      return out[name].value as unknown;
    };
    expect(value("networkName", false)).toBe("consumer-mainnet");
    expect(value("nodeNames", false)).toEqual(expected.map((n) => n.name));
    expect(value("rpcUrlForDisplay", false)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-.*\*\*\*/);
    expect(JSON.parse(value("appConfig", true) as string)).toEqual(
      expected.map((n) =>
        JSON.parse(JSON.stringify({ name: n.name, rpc: n.details.httpsEndpoint, ws: n.details.wssEndpoint })),
      ),
    );
    expect(value("rpcEnv", true)).toBe(`RPC_URL=${rpc0}`);
    expect(value("rpcUrl", true)).toBe(rpc0);
    expect(value("dotEnv", true)).toBe(`RPC_URL=${rpc0}\nNETWORK_NAME=consumer-mainnet\n`);
    expect(JSON.stringify(out)).not.toMatch(/Calling \[toJSON\]|\[Output<T>\]/);

    const preview = await infra.preview({
      expectNoChanges: true,
      diff: true,
      ...engine.recorded("infra preview"),
    });
    expect(changes(preview.changeSummary)).toEqual([]);
    expect(preview.stdout).not.toContain("__provider");
    const refresh = await infra.refresh({ expectNoChanges: true, ...engine.recorded("infra refresh") });
    expect(changes(refresh.summary.resourceChanges ?? {})).toEqual([]);
    return { infra, out, expected, rpc0 };
  }

  /**
   * Destroys the stacks, in order; the adopted network stays in the service (retainOnDelete). Then
   * the secrets audit of the engine's output, its backend and the stacks' config files.
   */
  async function destroyAndAudit(engine: EngineRun, stacks: Array<[string, Stack]>): Promise<void> {
    for (const [label, stack] of stacks) {
      const destroyed = await stack.destroy(engine.recorded(label));
      expect(destroyed.summary.result).toBe("succeeded");
    }
    expect(emulator.admin.getNetwork(emulator.fixtures.networkWithNodes)).toBeDefined();
    const configs = stacks.map(([, stack]) => path.join(stack.workspace.workDir, "Pulumi.dev.yaml"));
    engine.audit(emulator.secrets(), configs);
  }

  // docs/client.md's script as written: test/client/readme.test.ts; the client entry installed: above.
  test(`at @pulumi/pulumi ${PINNED.version} (pinned): compiles under Pulumi's default tsconfig; up gives the right values, secret; preview and refresh find no change; a StackReference keeps them secret; destroy; nothing leaks`, async () => {
    const engine = await startEngine();
    const infraDir = path.join(project, "nodes-infra");
    const appDir = path.join(project, "nodes-app");
    writeProject(infraDir, "nodes-infra", readmeFile("index.ts"));
    writeProject(appDir, "nodes-app", readmeBlock("new pulumi.StackReference("));
    tsc(infraDir);
    tsc(appDir);

    const { infra, out, expected, rpc0 } = await infraUpPreviewRefresh(engine, infraDir);

    const app = await engine.stack(
      { stackName: "dev", workDir: appDir },
      { "nodes-app:infraStack": { value: "organization/nodes-infra/dev" } },
    );
    const appUp = await app.up(engine.recorded("app up"));
    expect(appUp.summary.result).toBe("succeeded");
    const appOut = await app.outputs();
    expect(appOut.appEnvironment).toEqual({
      secret: true,
      value: { RPC_URL: rpc0, NODES_JSON: out.appConfig.value },
    });
    expect(appOut.nodeCount).toEqual({ secret: true, value: expected.length });
    expect(appOut.networkName).toEqual({ secret: false, value: "consumer-mainnet" });

    // An infra stack without the outputs the app reads (here the app's own): one line naming the
    // stack and the output, no Node trace, nothing changed.
    const wrong = await engine.stack(
      { stackName: "wrong-infra", workDir: appDir },
      { "nodes-app:infraStack": { value: "organization/nodes-app/dev" } },
    );
    const missing = await engine.failure("app preview, infra output missing", (o) => wrong.preview(o));
    const errors = missing.split("\n").filter((line) => /^\s*error: /.test(line));
    expect(errors[0]).toMatch(/^\s*error: organization\/nodes-app\/dev has no output appConfig: /);
    expect(missing).not.toMatch(/\n\s+at [\w.<>]+ \(|\.js:\d+:\d+/);

    await destroyAndAudit(engine, [
      ["app destroy", app],
      ["infra destroy", infra],
    ]);
  }, 300_000);

  test(`at @pulumi/pulumi ${FLOOR.version} (the floor of the peer range), its own dynamic-provider host: compiles; up gives the right values, secret; preview and refresh find no change; destroy; nothing leaks`, async () => {
    // A second install of the tarball, whose @pulumi/pulumi is the floor's, that SDK's folder on
    // PATH. The engine starts pulumi-resource-pulumi-nodejs (the wrapper beside it, else that
    // SDK's) in the project, and it runs the dynamic-provider host that node resolves there: the
    // floor's, as for a user of that version.
    const floorProject = path.join(work, "floor-project");
    await install(floorProject, packed.tarball, FLOOR.dir);
    const engine = await startEngine((engineDir) => ({
      PATH: enginePath(engineDir, path.join(floorProject, "node_modules")),
    }));
    const infraDir = path.join(floorProject, "nodes-infra");
    writeProject(infraDir, "nodes-infra", readmeFile("index.ts"));
    // The program, the package and the dynamic-provider host all load the floor's SDK.
    const resolved = (specifier: string, from = infraDir) =>
      fs.realpathSync(require.resolve(specifier, { paths: [from] }));
    for (const specifier of ["@pulumi/pulumi", "@pulumi/pulumi/cmd/dynamic-provider"])
      expect(resolved(specifier).startsWith(FLOOR.dir + path.sep)).toBe(true);
    const fromPackage = resolved("@pulumi/pulumi", path.join(floorProject, "node_modules", NAME));
    expect(fromPackage).toBe(resolved("@pulumi/pulumi"));
    tsc(infraDir);

    const { infra } = await infraUpPreviewRefresh(engine, infraDir);
    await destroyAndAudit(engine, [["infra destroy", infra]]);
  }, 300_000);
});
