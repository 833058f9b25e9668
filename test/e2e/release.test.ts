/**
 * The release (`npm run release`, release/) installed as users install it, under the real engine,
 * against the emulator. release/ is used when it holds this version's files matching SHA256SUMS
 * (`.ci/run` builds it before `npm test`); else one is built into a temp folder. The Python
 * quickstart's drift on the plugin: languages.test.ts. A secrets audit follows each step.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import { promisify } from "util";
import * as tar from "tar";
import type { Stack } from "@pulumi/pulumi/automation";
import { listAll, withEmulator } from "../helpers/emulator";
import {
  describeWithEngine,
  goOnPath,
  changes,
  emulatorConfig,
  expectPluginListed,
  PYTHON_HOST,
  EngineRun,
  resource,
} from "../helpers/engine";
import { withTempDir } from "../helpers/env";
import { npmInstall } from "../helpers/program-project";
import { expectQuickstartUp } from "../helpers/quickstart";
import { docBlock, readmeFile } from "../helpers/readme";

const ROOT = path.resolve(__dirname, "..", "..");
const VERSION = (require(path.join(ROOT, "package.json")) as { version: string }).version;
// A release built here, the Go SDK's module downloads: minutes each.
jest.setTimeout(900_000);
/** The download path of a GitHub release, which the README's install command names. */
const DOWNLOAD_PATH = `/pulumi-blockchain-nodes/pulumi-blockchain-nodes/releases/download/v${VERSION}/`;
const GO_MODULE = "github.com/pulumi-blockchain-nodes/pulumi-blockchain-nodes/sdk/go";

const exec = promisify(execFile);

/** Pulumi's name of this machine's platform, as in the plugin tarballs' names. */
const PLATFORM = `${{ darwin: "darwin", win32: "windows" }[process.platform as string] ?? "linux"}-${
  process.arch === "arm64" ? "arm64" : "amd64"
}`;
/** This platform's plugin tarball. */
const PLUGIN_TARBALL = `pulumi-resource-blockchain-v${VERSION}-${PLATFORM}.tar.gz`;

/** Every file a release holds. */
const EXPECTED_FILES = [
  `pulumi-blockchain-nodes-${VERSION}.tgz`,
  ...["linux", "darwin", "windows"].flatMap((o) =>
    ["amd64", "arm64"].map((a) => `pulumi-resource-blockchain-v${VERSION}-${o}-${a}.tar.gz`),
  ),
  `pulumi_blockchain-${VERSION}.tar.gz`,
  `pulumi_blockchain-${VERSION}-py3-none-any.whl`,
  `pulumi-blockchain-${VERSION}.tgz`,
  `blockchain-sdk-go-v${VERSION}.zip`,
  "SHA256SUMS",
].sort();

/** What is wrong with a release folder: missing files, or files that `sha256sum -c SHA256SUMS` fails. */
function releaseProblems(dir: string): string[] {
  const problems = EXPECTED_FILES.filter((f) => !fs.existsSync(path.join(dir, f))).map((f) => `no ${f}`);
  if (problems.length > 0) return problems;
  try {
    execFileSync("sha256sum", ["-c", "--quiet", "SHA256SUMS"], { cwd: dir, stdio: "pipe" });
  } catch (error) {
    problems.push(`SHA256SUMS: ${String((error as { stdout?: Buffer }).stdout).trim()}`);
  }
  return problems;
}

/** Serves the files of `dir` under {@link DOWNLOAD_PATH} on 127.0.0.1, as a GitHub release serves its assets. */
async function serveRelease(dir: string) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? "";
    requests.push(`${req.method} ${url}`);
    const name = url.startsWith(DOWNLOAD_PATH) ? decodeURIComponent(url.slice(DOWNLOAD_PATH.length)) : "";
    if (req.method !== "GET" || !fs.readdirSync(dir).includes(name)) return void res.writeHead(404).end();
    const file = path.join(dir, name);
    res.writeHead(200, {
      "Content-Type": "application/octet-stream",
      "Content-Length": fs.statSync(file).size,
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${DOWNLOAD_PATH}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The engine's Python with the release's wheel installed by pip, offline, into `<dir>/wheel-site` on
 * its PYTHONPATH; the wheel's dependencies are those of the engine's Python. (The wheel into a
 * fresh virtualenv as the README says: "the README's install commands" below.)
 */
function pythonWithWheel(dir: string, engineDir: string, wheel: string): Record<string, string> {
  const python = path.join(engineDir, "pulumi-python");
  const site = path.join(dir, "wheel-site");
  const pip = ["-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-index", "--no-deps"];
  execFileSync(python, [...pip, "--target", site, wheel], { stdio: ["ignore", "ignore", "pipe"] });
  return { PULUMI_PYTHON_CMD: python, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" };
}

/** The TypeScript program on the Node.js SDK, type-checked by the engine against the SDK's types. */
const TS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as blockchain from "pulumi-blockchain";
import * as connectionsModule from "pulumi-blockchain/getNodeConnections";

const config = new pulumi.Config();
const net = new blockchain.Network(
  "net",
  { networkId: config.require("networkId"), name: config.require("networkName") },
  { retainOnDelete: true },
);
const nodes = blockchain.getNodesOutput({ network: net.networkId, orderBy: "name" }).nodes;
const connections = blockchain.getNodeConnectionsOutput({ network: net.networkId, orderBy: "name" }).connections;
const other = new blockchain.Provider("other", {
  apiUrl: config.require("otherApiUrl"),
  apiKey: config.requireSecret("otherKey"),
});
const listed = (ns: blockchain.types.output.NodeResult[]) =>
  ns.map((n) => ({ id: n.id, masked: n.httpsEndpointMasked }));

export const networkName = net.name;
export const nodeIds = nodes.apply((ns) => ns.map((n) => n.id));
export const firstConnectionId = connections.apply((cs) => cs[0].id);
export const firstHttpsEndpoint = connections.apply((cs) => cs[0].httpsEndpoint);
export const myNodes = blockchain.getNodesOutput({}).nodes.apply(listed);
export const theirNodes = blockchain.getNodesOutput({}, { provider: other }).nodes.apply(listed);
// @ts-expect-error only the Output form of getNodeConnections exists
export const plainGetNodeConnections = typeof blockchain.getNodeConnections;
// Nor in its own module; the other functions keep both forms.
export const forms = [
  typeof (connectionsModule as Record<string, unknown>).getNodeConnections,
  typeof connectionsModule.getNodeConnectionsOutput,
  typeof blockchain.getNodes,
];
`;

const TS_PROJECT = "release-nodejs-sdk";

/** A node as the TypeScript program lists it. */
type Listed = { id: string; masked?: string };

describeWithEngine(PYTHON_HOST)(`the release ${VERSION}, installed as users install it`, () => {
  const work = withTempDir("pulumi-blockchain-release-");
  let release: string;
  let served: Awaited<ReturnType<typeof serveRelease>>;
  let run: EngineRun;
  let pluginDir: string;

  afterAll(async () => {
    await run?.close();
    await served?.close();
  });

  const emulator = withEmulator();
  const network = () => emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!;
  /** The secrets audit, with the stack's config file. */
  const audit = (stack: Stack) =>
    run.audit(emulator().secrets(), [path.join(stack.workspace.workDir, "Pulumi.release.yaml")]);

  /** A stack of `dir` (project `project`) adopting the network under the name `declared`. */
  function stackOf(dir: string, project: string, declared: string, more = {}): Promise<Stack> {
    return run.stack(
      { stackName: "release", workDir: dir },
      {
        ...emulatorConfig(emulator()),
        [`${project}:networkId`]: { value: emulator().fixtures.networkWithNodes },
        [`${project}:networkName`]: { value: declared },
        ...more,
      },
    );
  }

  /** A preview that expects no changes, then a destroy that leaves the retained network named `declared`. */
  function previewThenDestroy(label: string, declared: string, deleted: number, stackOf: () => Stack): void {
    test("preview expects no changes; destroy empties the stack and leaves the retained network", async () => {
      const stack = stackOf();
      const preview = await stack.preview({
        expectNoChanges: true,
        diff: true,
        ...run.recorded(`${label} preview`),
      });
      expect(changes(preview.changeSummary)).toEqual([]);
      expect(preview.changeSummary.same).toBe(deleted);
      const destroyed = await stack.destroy(run.recorded(`${label} destroy`));
      expect(destroyed.summary.resourceChanges).toMatchObject({ delete: deleted });
      expect((await stack.exportStack()).deployment.resources ?? []).toEqual([]);
      expect(network().name).toBe(declared);
      audit(stack);
    });
  }

  beforeAll(async () => {
    release = path.join(ROOT, "release");
    const problems = releaseProblems(release);
    if (problems.length > 0) {
      console.log(
        `release/ is not this version's release (${problems.slice(0, 3).join("; ")}): building one`,
      );
      release = path.join(work(), "release");
      await exec("bash", [path.join(ROOT, "scripts", "release.sh"), "--out", release], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      });
    }
    served = await serveRelease(release);
    const wheel = path.join(release, `pulumi_blockchain-${VERSION}-py3-none-any.whl`);
    run = await EngineRun.start((engineDir) => pythonWithWheel(work(), engineDir, wheel));
    pluginDir = path.join(run.sandbox.homeDir, "plugins", `resource-blockchain-v${VERSION}`);
  });

  test("the release folder holds every artifact, each matching SHA256SUMS", () => {
    expect(releaseProblems(release)).toEqual([]);
    expect(fs.readdirSync(release).sort()).toEqual(EXPECTED_FILES);
  });

  test("npm run plugin:pack is reproducible: at the release's timestamp, this platform's tarball byte for byte the release's", async () => {
    const released = path.join(release, PLUGIN_TARBALL);
    let epoch = 0;
    tar.t({ file: released, sync: true, onReadEntry: (e) => void (epoch = e.mtime!.getTime() / 1000) });
    const { stdout } = await exec(process.execPath, [path.join(ROOT, "scripts", "plugin-pack.js")], {
      cwd: ROOT,
      env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
    });
    const printed = stdout.trim().split("\n").pop()!;
    expect(path.basename(printed)).toBe(PLUGIN_TARBALL);
    expect(fs.readFileSync(printed).equals(fs.readFileSync(released))).toBe(true);
  });

  test("pulumi plugin install resource blockchain <version> --server <release URL> downloads this platform's tarball", async () => {
    const listed = () => run.ok(run.sandbox.dir, ["plugin", "ls", "--json"]);
    expect(await listed()).not.toContain('"blockchain"');
    const install = ["plugin", "install", "resource", "blockchain", VERSION, "--server", served.url];
    await run.ok(run.sandbox.dir, install);
    expect(served.requests).toContain(`GET ${DOWNLOAD_PATH}${PLUGIN_TARBALL}`);
    expect(fs.statSync(path.join(pluginDir, "pulumi-resource-blockchain")).mode & 0o111).not.toBe(0);
    expect(fs.readdirSync(pluginDir).sort()).toEqual(
      expect.arrayContaining(["pulumi-resource-blockchain", "pulumi-resource-blockchain.js"]),
    );
    await expectPluginListed(run, VERSION);
  });

  test("the README's install commands from a release's files, run as written in a fresh folder", async () => {
    const lines = docBlock("README.md", "bash", "--file ./").trim().split("\n");
    expect(lines.map((l) => l.split(" ")[0])).toEqual(["npm", "pulumi", "pip"]);
    const dir = fs.mkdtempSync(path.join(work(), "readme-install-"));
    for (const file of fs.readdirSync(release))
      fs.symlinkSync(path.join(release, file), path.join(dir, file));
    // The README names linux-amd64; a user picks their own platform's archive.
    const [npm, plugin, pip] = lines.map((l) => l.replaceAll("linux-amd64", PLATFORM).split(/\s+/).slice(1));
    expect(npm).toEqual([`install`, `./pulumi-blockchain-nodes-${VERSION}.tgz`, "@pulumi/pulumi"]);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "readme-install", main: "index.js" }),
    );
    await exec("npm", [...npm, "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir });
    const home = path.join(dir, "pulumi-home");
    await run.ok(dir, plugin, "README plugin install", { PULUMI_HOME: home });
    expect(fs.readdirSync(path.join(home, "plugins"))).toContain(`resource-blockchain-v${VERSION}`);
    const venv = path.join(dir, "venv");
    await exec("python3", ["-m", "venv", venv]);
    await exec(path.join(venv, "bin", "pip"), [...pip, "--disable-pip-version-check", "--quiet"], {
      cwd: dir,
    });
    const { stdout } = await exec(path.join(venv, "bin", "python"), [
      "-c",
      "import importlib.metadata as m, pulumi_blockchain; print(m.version('pulumi_blockchain'))",
    ]);
    expect(stdout.trim()).toBe(VERSION);
  });

  describe("Python: the wheel in a fresh virtualenv, examples/python-quickstart without a plugins path", () => {
    const project = "python-quickstart";
    const declared = "release-python-network";
    let stack: Stack;

    beforeAll(async () => {
      const example = path.join(ROOT, "examples", project);
      const yaml = fs
        .readFileSync(path.join(example, "Pulumi.yaml"), "utf8")
        .replace(/^#.*\n|^plugins:\n(?:[ #].*\n)*/gm, "");
      expect(yaml).not.toMatch(/plugins:|path:/);
      const dir = path.join(run.sandbox.dir, project);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);
      fs.copyFileSync(path.join(example, "__main__.py"), path.join(dir, "__main__.py"));
      stack = await stackOf(dir, project, declared);
    });

    test("up on the installed plugin: readable metadata, secret endpoint and key", async () => {
      const up = await stack.up(run.recorded("python up"));
      expectQuickstartUp(up, emulator(), declared);
      expect(up.outputs.nodeCount).toEqual({ value: network().nodes.length, secret: false });
      // The plugin that ran is the installed one: its launcher wrote its code cache beside it.
      expect(fs.readdirSync(pluginDir).some((f) => f.endsWith(".cache"))).toBe(true);
      audit(stack);
    });

    previewThenDestroy("python", declared, 2, () => stack);
  });

  describe("TypeScript: the Node.js SDK tarball in a fresh project", () => {
    const declared = "release-nodejs-network";
    const otherKey = () => emulator().keys[emulator().fixtures.otherOrganization];
    let dir: string;
    let stack: Stack;

    beforeAll(async () => {
      dir = path.join(run.sandbox.dir, TS_PROJECT);
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `name: ${TS_PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
      );
      fs.writeFileSync(path.join(dir, "index.ts"), TS_PROGRAM);
      fs.writeFileSync(path.join(dir, "tsconfig.json"), readmeFile("tsconfig.json")); // Pulumi's default
      // The project's own @pulumi/pulumi: this repository's, so npm needs no download.
      const sdk = `file:${path.join(ROOT, "node_modules", "@pulumi", "pulumi")}`;
      const pkg = {
        name: TS_PROJECT,
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": sdk },
      };
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
      await npmInstall(dir, path.join(release, `pulumi-blockchain-${VERSION}.tgz`), "--loglevel", "error");
      stack = await stackOf(dir, TS_PROJECT, declared, {
        [`${TS_PROJECT}:otherApiUrl`]: { value: emulator().url },
        [`${TS_PROJECT}:otherKey`]: { value: otherKey(), secret: true },
      });
    });

    test("the SDK of the tarball, at this version, has no plain getNodeConnections; up on the installed plugin: readable node ids, the first endpoint secret, the other organization's nodes only through its provider", async () => {
      const installed = path.join(dir, "node_modules", "pulumi-blockchain", "package.json");
      expect(require(installed)).toMatchObject({
        version: VERSION,
        pulumi: { name: "blockchain", version: VERSION },
      });
      const fixtures = emulator().fixtures;
      // Its key is another (its own nodes, below) and one the audit knows (test/emulator/seed.test.ts).
      expect(fixtures.otherOrganization).toBe("RG-265-917");

      const up = await stack.up(run.recorded("nodejs up"));
      // The network and the explicit provider (the default provider is not counted), and the stack.
      expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
      expect(network().name).toBe(declared);
      const out = up.outputs;
      expect(out.networkName).toEqual({ value: declared, secret: false });
      expect(out.plainGetNodeConnections).toEqual({ value: "undefined", secret: false });
      expect(out.forms.value).toEqual(["undefined", "function", "function"]);
      const byName = await listAll(emulator(), `network=${fixtures.networkWithNodes}&order_by=name`);
      expect(byName.length).toBeGreaterThan(1);
      expect(out.nodeIds).toEqual({ value: byName.map((n) => n.id), secret: false });
      const endpoint = emulator().admin.getNode(byName[0].id)!.details.https_endpoint;
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);
      expect(out.firstConnectionId).toEqual({ value: byName[0].id, secret: true });
      expect(out.firstHttpsEndpoint).toEqual({ value: endpoint, secret: true });
      expect(up.stdout).toMatch(/firstHttpsEndpoint\s*: \[secret\]/);

      // The default provider lists this organization's nodes; the explicit one exactly the other's.
      const ids = (list: { id: string }[]) => list.map((n) => n.id).sort();
      const mine = out.myNodes.value as Listed[];
      const theirs = out.theirNodes.value as Listed[];
      expect([out.myNodes.secret, out.theirNodes.secret]).toEqual([false, false]);
      expect(ids(mine)).toEqual(ids(await listAll(emulator())));
      expect(ids(theirs)).toEqual(ids(await listAll(emulator(), "", otherKey())));
      expect(theirs.length).toBeGreaterThan(0);
      for (const node of theirs) expect(node.masked ?? "***").toContain("***");

      // The explicit provider's key is stored encrypted.
      const provider = resource(await run.state(dir), "pulumi:providers:blockchain", "other");
      expect(provider.inputs?.apiUrl).toBe(emulator().url);
      expect(provider.inputs?.apiKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));
      audit(stack);
    });

    previewThenDestroy("nodejs", declared, 3, () => stack);
  });

  test("Go: the docs' program builds against the Go SDK module of the zip", async () => {
    const go = goOnPath("the Go SDK build");
    if (!go) return;
    const goDir = path.join(work(), "go");
    const zip = path.join(release, `blockchain-sdk-go-v${VERSION}.zip`);
    execFileSync(path.join(run.engineDir, "pulumi-python"), ["-m", "zipfile", "-e", zip, goDir]);
    const sdk = path.join(goDir, `blockchain-sdk-go-v${VERSION}`);
    const sdkMod = fs.readFileSync(path.join(sdk, "go.mod"), "utf8");
    expect(sdkMod).toMatch(new RegExp(`^module ${GO_MODULE.replace(/\./g, "\\.")}$`, "m"));
    const goVersion = /^go (\S+)$/m.exec(sdkMod)![1];
    const pulumiSdk = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(sdkMod)![1];
    const program = path.join(goDir, "program");
    fs.mkdirSync(program);
    fs.writeFileSync(
      path.join(program, "go.mod"),
      `module example.com/blockchain-release-check\n\ngo ${goVersion}\n\nrequire (\n\t${GO_MODULE} v${VERSION}\n\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumiSdk}\n)\n\nreplace ${GO_MODULE} => ../blockchain-sdk-go-v${VERSION}\n`,
    );
    // The docs' Go program (languages.test.ts vets it against sdk/go).
    fs.writeFileSync(
      path.join(program, "main.go"),
      docBlock("docs/other-languages.md", "go", "blockchain.NewNetwork("),
    );
    await exec(go, ["build", "-o", path.join(goDir, "release-check"), "."], {
      cwd: program,
      env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" },
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(fs.statSync(path.join(goDir, "release-check")).mode & 0o111).not.toBe(0);
  });
});
