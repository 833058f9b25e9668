/**
 * End to end: the provider plugin `blockchain` (bin/pulumi-resource-blockchain) served to other
 * Pulumi languages by the real engine, against the emulator:
 * - examples/yaml-quickstart and examples/python-quickstart, the plugin found through the
 *   `plugins:` path entry of their Pulumi.yaml: up (readable node metadata, secret endpoint and
 *   key), preview with no changes, an out-of-band rename through the service API that refresh
 *   catches and up undoes, destroy (the network is retained);
 * - `pulumi import` of a network into a YAML project, unprotected, then the program the YAML host
 *   generates for it previews with no changes;
 * - an explicit provider (`pulumi:providers:blockchain`) with another organization's key: what it
 *   lists is that organization's, and its key never shows;
 * - the tarball of `npm run plugin:pack` (this machine's OS and architecture) installed with
 *   `pulumi plugin install --file`: a copy of
 *   yaml-quickstart without the path entry runs on it.
 * A secrets audit of the backend's files, the stack's config file and everything the engine
 * printed follows each step.
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../src/emulator";
import { call, listAll, withEmulator } from "../helpers/emulator";
import { findSecrets } from "../helpers/audit";
import { describeWithEngine } from "../helpers/engine";
import { changes, expectPluginListed, CliResult, EngineRun, resource } from "../helpers/engine-run";

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLES = path.join(ROOT, "examples");
const PLUGIN_DIR = path.join(ROOT, "bin");
/** The package's version: the plugin's. */
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
  .version;
const STEP_TIMEOUT = 240_000;
const PACK_TIMEOUT = 420_000;
const YAML_HOST = ["pulumi-language-yaml"];
const PYTHON_HOST = ["pulumi-language-python", "pulumi-language-python-exec", "pulumi-python"];

/** A node as the plugin's functions return it (readable fields only). */
interface ListedNode {
  id: string;
  organization: string;
  network: string;
  httpsEndpointMasked?: string;
}

/** Renames a network through the service API, as someone using the console would. */
async function renameThroughApi(emulator: RunningEmulator, id: string, name: string): Promise<void> {
  const answer = await call(emulator, `/v1/networks/${id}/`, { method: "PATCH", body: { name } });
  expect(answer.status).toBe(200);
  expect(answer.json.name).toBe(name);
}

/** A Pulumi.yaml's plugins block: the path entry of the blockchain plugin. */
function pluginEntry(pluginDir: string): string {
  return `plugins:\n  providers:\n    - name: blockchain\n      path: ${pluginDir}\n`;
}

/**
 * Installs the generated Python SDK as a user would (`pip install ./sdk/python`), into a folder
 * of its own, and returns that folder for PYTHONPATH. Importing it needs its installed metadata
 * (its version comes from there), so sdk/python itself on PYTHONPATH would not do. pip builds
 * from a copy, so that no build/ or egg-info is left in sdk/python.
 */
const pythonSdkDirs: string[] = [];
afterAll(() => pythonSdkDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function installPythonSdk(engineDir: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-py-"));
  pythonSdkDirs.push(dir);
  const source = path.join(dir, "source");
  fs.cpSync(path.join(ROOT, "sdk", "python"), source, { recursive: true });
  const target = path.join(dir, "site");
  execFileSync(
    path.join(engineDir, "pulumi-python"),
    [
      "-m",
      "pip",
      "install",
      "--disable-pip-version-check",
      "--no-input",
      "-q",
      "--no-deps",
      "--target",
      target,
      source,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return target;
}

interface Quickstart {
  name: string;
  needs: string[];
  env: (engineDir: string) => Record<string, string>;
  /** Outputs only this example has. */
  more?: (outputs: Record<string, { value: unknown; secret: boolean }>, emulator: RunningEmulator) => void;
}

const QUICKSTARTS: Quickstart[] = [
  { name: "yaml-quickstart", needs: YAML_HOST, env: () => ({}) },
  {
    name: "python-quickstart",
    needs: PYTHON_HOST,
    env: (engineDir) => ({
      PULUMI_PYTHON_CMD: path.join(engineDir, "pulumi-python"),
      PYTHONPATH: installPythonSdk(engineDir),
      // No __pycache__ left in the example.
      PYTHONDONTWRITEBYTECODE: "1",
    }),
    more: (outputs, emulator) => {
      const nodes = emulator.admin.getNetwork(emulator.fixtures.networkWithNodes)!.nodes;
      expect(outputs.nodeCount).toEqual({ value: nodes.length, secret: false });
    },
  },
];

for (const example of QUICKSTARTS) {
  describeWithEngine(example.needs)(`examples/${example.name} on the plugin (Pulumi.yaml path entry)`, () => {
    const workDir = path.join(EXAMPLES, example.name);
    const stackName = `e2e${process.pid}`;
    const configFile = path.join(workDir, `Pulumi.${stackName}.yaml`);
    const declared = `e2e-${example.name}`;
    let run: EngineRun;
    let stack: Stack;

    const audit = () => run.audit(emulator().secrets(), [configFile]);
    const network = () => emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!;
    const stateNetwork = async () =>
      resource((await stack.exportStack()).deployment.resources, "blockchain:index:Network", "network");

    // Registered before withEmulator(): the stack is destroyed while the emulator still answers.
    afterAll(async () => {
      if (stack) {
        await stack.destroy(run.recorded("cleanup")).catch(() => undefined);
        await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
      }
      fs.rmSync(configFile, { force: true });
      run?.sandbox.cleanup();
    }, STEP_TIMEOUT);

    const emulator = withEmulator();

    beforeAll(async () => {
      // The example finds the plugin of this checkout through its Pulumi.yaml.
      const project = fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8");
      const entry = /^plugins:\n\s+providers:\n\s+- name: blockchain\n\s+path: (\S+)$/m.exec(project);
      expect(entry).not.toBeNull();
      expect(path.resolve(workDir, entry![1])).toBe(PLUGIN_DIR);
      expect(fs.existsSync(path.join(PLUGIN_DIR, "pulumi-resource-blockchain"))).toBe(true);

      run = await EngineRun.start(example.env);
      stack = await LocalWorkspace.createOrSelectStack({ stackName, workDir }, run.workspaceOptions);
      await stack.setAllConfig({
        "blockchain:apiUrl": { value: emulator().url },
        "blockchain:apiKey": { value: emulator().apiKey, secret: true },
        [`${example.name}:networkId`]: { value: emulator().fixtures.networkWithNodes },
        [`${example.name}:networkName`]: { value: declared },
      });
    }, STEP_TIMEOUT);

    test(
      "up adopts and names the network; node metadata is readable, the endpoint and key are secret",
      async () => {
        const up = await stack.up(run.recorded("up"));
        expect(up.summary.result).toBe("succeeded");
        expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
        expect(network().name).toBe(declared);

        const out = up.outputs;
        const first = emulator().admin.getNode(emulator().fixtures.beaconNode)!;
        expect(out.networkName).toEqual({ value: declared, secret: false });
        expect(out.protocol).toEqual({ value: network().protocol, secret: false });
        // orderBy name: "Ethereum Mainnet archive node" is the first one.
        expect(out.firstNodeId).toEqual({ value: first.id, secret: false });
        expect(out.firstNodeStatus).toEqual({ value: first.status, secret: false });
        expect(out.firstNodeHttpsEndpointMasked.secret).toBe(false);
        expect(out.firstNodeHttpsEndpointMasked.value).toMatch(/^https:\/\/[^/]+\/\*\*\*$/);
        expect(out.firstNodeHttpsEndpoint).toEqual({ value: first.details.https_endpoint, secret: true });
        expect(out.firstNodeAuthKey).toEqual({ value: first.details.auth_key, secret: true });
        example.more?.(out, emulator());
        // The engine shows them masked.
        expect(up.stdout).toMatch(/firstNodeAuthKey\s*: \[secret\]/);
        expect(up.stdout).toMatch(/firstNodeHttpsEndpoint\s*: \[secret\]/);
        audit();
      },
      STEP_TIMEOUT,
    );

    test(
      "preview right after up expects no changes",
      async () => {
        const preview = await stack.preview({
          expectNoChanges: true,
          diff: true,
          ...run.recorded("preview"),
        });
        expect(changes(preview.changeSummary)).toEqual([]);
        audit();
      },
      STEP_TIMEOUT,
    );

    test(
      "a rename through the service API: refresh puts the console's name in state, up restores the declared one",
      async () => {
        await renameThroughApi(emulator(), network().id, "renamed-in-console");
        const refresh = await stack.refresh(run.recorded("refresh"));
        expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
        expect((await stateNetwork()).outputs?.name).toBe("renamed-in-console");

        const preview = await stack.preview({ diff: true, ...run.recorded("preview drift") });
        expect(preview.changeSummary).toMatchObject({ update: 1 });
        expect(preview.stdout).toMatch(new RegExp(`~ name\\s*: "renamed-in-console" => "${declared}"`));

        const up = await stack.up(run.recorded("up restore"));
        expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
        expect(network().name).toBe(declared);
        expect((await stateNetwork()).outputs?.name).toBe(declared);
        audit();
      },
      STEP_TIMEOUT,
    );

    test(
      "destroy empties the stack and leaves the retained network in place",
      async () => {
        const destroyed = await stack.destroy(run.recorded("destroy"));
        expect(destroyed.summary.result).toBe("succeeded");
        expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
        expect((await stack.exportStack()).deployment.resources ?? []).toEqual([]);
        expect(network().name).toBe(declared);
        audit();
      },
      STEP_TIMEOUT,
    );
  });
}

describeWithEngine(YAML_HOST)("pulumi import of a Network into a YAML project", () => {
  const stackName = "e2e-import";
  let run: EngineRun;
  let projectDir: string;
  let generated: string;
  const header = () => `name: e2e-import\nruntime: yaml\n${pluginEntry(PLUGIN_DIR)}`;
  const audit = () => run.audit(emulator().secrets(), [path.join(projectDir, `Pulumi.${stackName}.yaml`)]);

  afterAll(async () => {
    if (run) {
      await run.cli(projectDir, ["destroy", "--yes"], "cleanup").catch(() => undefined);
      run.sandbox.cleanup();
    }
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    run = await EngineRun.start();
    projectDir = path.join(run.sandbox.dir, "import-project");
    fs.mkdirSync(projectDir);
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header());
    await run.initStack(projectDir, stackName, emulator());
  }, STEP_TIMEOUT);

  test(
    "import --protect=false adopts the network unprotected and the YAML host writes its program",
    async () => {
      const id = emulator().fixtures.emptyNetwork;
      const out = path.join(projectDir, "imported.yaml");
      const output = await run.ok(projectDir, [
        "import",
        "blockchain:index:Network",
        "adopted",
        id,
        "--yes",
        "--protect=false",
        "--out",
        out,
      ]);
      expect(output).toMatch(/= +blockchain:index:Network +adopted +imported/);

      const network = resource(await run.state(projectDir), "blockchain:index:Network", "adopted");
      expect(network.id).toBe(id);
      expect(network.protect ?? false).toBe(false);
      expect(network.inputs).toEqual({ networkId: id });
      expect(network.outputs?.name).toBe(emulator().admin.getNetwork(id)!.name);

      generated = fs.readFileSync(out, "utf8");
      expect(generated).toMatch(/^resources:\n {2}adopted:\n {4}type: blockchain(:index)?:Network\n/);
      expect(generated).toContain(`networkId: ${id}`);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "the generated program previews with no changes; declaring another name would be an update",
    async () => {
      const id = emulator().fixtures.emptyNetwork;
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header() + generated);
      const same = await run.cli(
        projectDir,
        ["preview", "--expect-no-changes", "--diff"],
        "preview imported",
      );
      expect(same.code).toBe(0);
      expect(same.output).toMatch(/2 unchanged/);

      // --expect-no-changes has teeth: the same program with another name fails it.
      const renamed = generated.replace(`networkId: ${id}`, `networkId: ${id}\n      name: e2e-other-name`);
      expect(renamed).not.toBe(generated);
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header() + renamed);
      const changed = await run.cli(
        projectDir,
        ["preview", "--expect-no-changes", "--diff"],
        "preview renamed",
      );
      expect(changed.code).not.toBe(0);
      expect(changed.output).toMatch(/~ name\s*: "[^"]+" => "e2e-other-name"/);
      expect(emulator().admin.getNetwork(id)!.name).not.toBe("e2e-other-name");

      // Unprotected: destroy deletes it (the network has no nodes, so the service allows it).
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header() + generated);
      await run.ok(projectDir, ["destroy", "--yes"], "destroy imported");
      expect(emulator().admin.getNetwork(id)).toBeUndefined();
      audit();
    },
    STEP_TIMEOUT,
  );
});

describeWithEngine(YAML_HOST)("an explicit provider with another organization's key (YAML)", () => {
  const stackName = "e2e-other-org";
  let run: EngineRun;
  let projectDir: string;
  let otherKey: string;
  const PROGRAM = `name: e2e-other-org
runtime: yaml
${pluginEntry(PLUGIN_DIR)}configuration:
  otherApiUrl:
    type: string
  otherKey:
    type: string
    secret: true
resources:
  other:
    type: pulumi:providers:blockchain
    properties:
      apiUrl: \${otherApiUrl}
      apiKey: \${otherKey}
variables:
  mine:
    fn::invoke:
      function: blockchain:index:getNodes
      arguments: {}
      return: nodes
  theirs:
    fn::invoke:
      function: blockchain:index:getNodes
      arguments: {}
      options:
        provider: \${other}
      return: nodes
outputs:
  mine: \${mine}
  theirs: \${theirs}
`;
  const configFile = () => path.join(projectDir, `Pulumi.${stackName}.yaml`);

  afterAll(async () => {
    if (run) {
      await run.cli(projectDir, ["destroy", "--yes"], "cleanup").catch(() => undefined);
      run.sandbox.cleanup();
    }
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    otherKey = emulator().keys[emulator().fixtures.otherOrganization];
    run = await EngineRun.start();
    projectDir = path.join(run.sandbox.dir, "other-org-project");
    fs.mkdirSync(projectDir);
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), PROGRAM);
    await run.initStack(projectDir, stackName, emulator());
    await run.ok(projectDir, ["config", "set", "otherApiUrl", emulator().url]);
    await run.ok(projectDir, ["config", "set", "--secret", "otherKey", otherKey]);
  }, STEP_TIMEOUT);

  test(
    "getNodes through the explicit provider lists the other organization's nodes only, and its key never shows",
    async () => {
      const fixtures = emulator().fixtures;
      expect(fixtures.otherOrganization).toBe("RG-265-917");
      expect(otherKey).toMatch(/^[0-9a-f]{20,}$/);
      expect(otherKey).not.toBe(emulator().apiKey);
      // The audit knows both keys (and every organization's)...
      expect(emulator().secrets()).toEqual(expect.arrayContaining(Object.values(emulator().keys)));
      // ...and finds a key that shows.
      expect(findSecrets(emulator().secrets(), { texts: { probe: `key=${otherKey}` } })).toHaveLength(1);

      await run.ok(projectDir, ["up", "--yes"], "up");
      const outputs = JSON.parse(await run.ok(projectDir, ["stack", "output", "--json"], "stack output")) as {
        mine: ListedNode[];
        theirs: ListedNode[];
      };
      const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id).sort();

      expect(outputs.theirs.length).toBeGreaterThan(0);
      for (const node of outputs.theirs) expect(node.organization).toBe(fixtures.otherOrganization);
      expect(outputs.theirs.some((n) => n.network === fixtures.foreignNetwork)).toBe(true);
      expect(ids(outputs.theirs)).toEqual(ids(await listAll(emulator(), "", otherKey)));

      expect(ids(outputs.mine)).toEqual(ids(await listAll(emulator())));
      for (const node of outputs.mine) expect(node.organization).not.toBe(fixtures.otherOrganization);
      const mine = new Set(ids(outputs.mine));
      expect(outputs.theirs.filter((n) => mine.has(n.id))).toEqual([]);
      for (const node of outputs.theirs) expect(node.httpsEndpointMasked ?? "***").toContain("***");

      // The explicit provider's key is stored encrypted.
      const provider = resource(await run.state(projectDir), "pulumi:providers:blockchain", "other");
      expect(provider.inputs?.apiUrl).toBe(emulator().url);
      expect(provider.inputs?.apiKey).toEqual(expect.objectContaining({ ciphertext: expect.any(String) }));

      run.audit([otherKey, emulator().apiKey], [configFile()]);
      run.audit(emulator().secrets(), [configFile()]);

      await run.ok(projectDir, ["destroy", "--yes"], "destroy");
      run.audit(emulator().secrets(), [configFile()]);
    },
    STEP_TIMEOUT,
  );
});

describeWithEngine(YAML_HOST)("the plugin:pack tarball installed with pulumi plugin install --file", () => {
  const stackName = "e2e-installed";
  let run: EngineRun;
  let projectDir: string;
  let tarball: string;
  let stack: Stack | undefined;
  const declared = "e2e-installed-plugin";
  const audit = () => run.audit(emulator().secrets(), [path.join(projectDir, `Pulumi.${stackName}.yaml`)]);

  afterAll(async () => {
    if (stack) await stack.destroy(run.recorded("cleanup")).catch(() => undefined);
    run?.sandbox.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    run = await EngineRun.start();
    // yaml-quickstart without its plugins block, away from the checkout.
    const original = fs.readFileSync(path.join(EXAMPLES, "yaml-quickstart", "Pulumi.yaml"), "utf8");
    const withoutPlugins = original.replace(/^plugins:\n(?:[ #].*\n)*/m, "");
    expect(withoutPlugins).not.toMatch(/^plugins:|pulumi-resource-blockchain|path:/m);
    expect(withoutPlugins).toMatch(/^resources:\n {2}network:\n {4}type: blockchain:index:Network$/m);
    projectDir = path.join(run.sandbox.dir, "yaml-quickstart");
    fs.mkdirSync(projectDir);
    fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), withoutPlugins);
    await run.initStack(projectDir, stackName, emulator());
    await run.ok(projectDir, ["config", "set", "networkId", emulator().fixtures.networkWithNodes]);
    await run.ok(projectDir, ["config", "set", "networkName", declared]);
  }, STEP_TIMEOUT);

  test(
    "without the plugin installed, the program cannot find it",
    async () => {
      const preview = await run.cli(projectDir, ["preview"], "preview without plugin");
      expect(preview.code).not.toBe(0);
      expect(preview.output).toMatch(/no resource plugin 'pulumi-resource-blockchain' found/);
    },
    STEP_TIMEOUT,
  );

  test(
    "npm run plugin:pack's tarball installs into PULUMI_HOME",
    async () => {
      const packed = await new Promise<CliResult>((resolve, reject) => {
        const child = spawn(process.execPath, [path.join(ROOT, "scripts", "plugin-pack.js")], {
          cwd: ROOT,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, output: code === 0 ? stdout : stderr }));
      });
      expect(packed).toMatchObject({ code: 0 });
      const printed = packed.output.trim().split("\n").pop()!;
      const platform = `${{ darwin: "darwin", win32: "windows" }[process.platform as string] ?? "linux"}-${process.arch === "arm64" ? "arm64" : "amd64"}`;
      expect(path.basename(printed)).toBe(`pulumi-resource-blockchain-v${VERSION}-${platform}.tar.gz`);
      // A copy of its own: another run may pack again meanwhile.
      tarball = path.join(run.sandbox.dir, path.basename(printed));
      fs.copyFileSync(printed, tarball);

      await run.ok(run.sandbox.dir, [
        "plugin",
        "install",
        "resource",
        "blockchain",
        VERSION,
        "--file",
        tarball,
      ]);
      const installed = path.join(run.sandbox.homeDir, "plugins", `resource-blockchain-v${VERSION}`);
      expect(fs.statSync(path.join(installed, "pulumi-resource-blockchain")).mode & 0o111).not.toBe(0);
      await expectPluginListed(run, VERSION);
    },
    PACK_TIMEOUT,
  );

  test(
    "the program without the path entry runs up and destroy on the installed plugin",
    async () => {
      expect(tarball).toBeDefined();
      stack = await LocalWorkspace.selectStack({ stackName, workDir: projectDir }, run.workspaceOptions);
      const up = await stack.up(run.recorded("up"));
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
      const first = emulator().admin.getNode(emulator().fixtures.beaconNode)!;
      expect(up.outputs.networkName).toEqual({ value: declared, secret: false });
      expect(up.outputs.firstNodeId).toEqual({ value: first.id, secret: false });
      expect(up.outputs.firstNodeHttpsEndpoint).toEqual({
        value: first.details.https_endpoint,
        secret: true,
      });
      expect(up.outputs.firstNodeAuthKey).toEqual({ value: first.details.auth_key, secret: true });
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe(declared);
      audit();

      const destroyed = await stack.destroy(run.recorded("destroy"));
      expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)).toBeDefined();
      stack = undefined;
      audit();
    },
    STEP_TIMEOUT,
  );
});
