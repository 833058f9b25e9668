/**
 * The plugin (bin/) served to YAML and Python programs through their Pulumi.yaml `plugins:` path
 * entry, under the real engine; each engine step audited. The docs' Go programs are only compiled.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { NodeEndpointBehaviour } from "../../src/emulator";
import { NODE_STATUSES } from "../../src/model";
import { listAll, withEmulator } from "../helpers/emulator";
import {
  describeWithEngine,
  goOnPath,
  PYTHON_HOST,
  ROOT,
  changes,
  emulatorConfig,
  EngineRun,
  errorBlocks,
  resource,
  pythonEnv,
} from "../helpers/engine";
import { expectQuickstartUp, expectRenameRestored } from "../helpers/quickstart";
import { until } from "../helpers/plugin-client";
import { docBlock } from "../helpers/readme";
import { withTempDir } from "../helpers/env";
import { diagnosticLines, errorsWith, TRACE } from "../helpers/diagnostics";

// Each engine step (a test, a hook) may take minutes.
jest.setTimeout(240_000);
const PLUGIN_DIR = path.join(ROOT, "bin");
const YAML_HOST = ["pulumi-language-yaml"];
const GO_MODULE = "github.com/pulumi-blockchain-nodes/pulumi-blockchain-nodes/sdk/go";
/** The network id the docs' programs name, replaced by the emulator's where they run. */
const PLACEHOLDER = "NW-123-456-7";

const exec = promisify(execFile);

/**
 * The docs' Python programs that pick a node: their block (the one with `marker`), the filters they
 * list with, their outputs (`nodeCount`, `firstNodeId` readable; `endpoint`, the node's HTTPS
 * endpoint, secret); `guardFirst`: the program fails before it changes anything.
 */
const PYTHON_SNIPPETS = [
  { name: "readme", file: "README.md", exports: ["firstNodeHttpsEndpoint"], guardFirst: true },
  {
    name: "docs-other-languages",
    file: "docs/other-languages.md",
    exports: ["nodeCount", "firstNodeId", "firstNodeHttpsEndpoint"],
    guardFirst: false,
  },
  {
    name: "docs-index",
    file: "docs/_index.md",
    query: "status=running&order_by=name",
    endpoint: "rpcUrl",
    exports: ["nodeCount", "firstNodeId", "rpcUrl"],
    guardFirst: false,
  },
].map((s) => ({
  marker: "def first_with_endpoint(",
  query: "order_by=name",
  endpoint: "firstNodeHttpsEndpoint",
  ...s,
}));

/** The docs' Go programs, by the file that shows them. */
const GO_SNIPPETS = { "docs-other-languages": "docs/other-languages.md", "docs-index": "docs/_index.md" };

/** A Pulumi.yaml's head: the project on this checkout's plugin (its `plugins:` path entry). */
const header = (name: string, runtime: string) =>
  `name: ${name}\nruntime: ${runtime}\nplugins:\n  providers:\n    - name: blockchain\n      path: ${PLUGIN_DIR}\n`;

/**
 * A block of tests on one engine sandbox (`extraEnv` on top) and emulator: `project(name, runtime,
 * files)` writes a project on this checkout's plugin and gives its stack `docs`; `rehearse(node,
 * behaviour, step)` runs `step` with the node's endpoint so and resets it after; `audit()` checks
 * every step so far, and the stacks' config files, for secrets.
 */
function pluginBlock(extraEnv?: (dir: string, engineDir: string) => Record<string, string>) {
  const emulator = withEmulator();
  const scratch = withTempDir("pulumi-blockchain-languages-");
  const state = { run: undefined as EngineRun | undefined, configFiles: [] as string[] };
  beforeAll(async () => {
    state.run = await EngineRun.start((engineDir) => extraEnv?.(scratch(), engineDir) ?? {});
  });
  afterAll(() => state.run?.close());
  const run = () => state.run!;

  async function project(name: string, runtime: string, files: Record<string, string>): Promise<Stack> {
    const dir = path.join(run().sandbox.dir, name);
    fs.mkdirSync(dir);
    for (const [file, text] of Object.entries({
      ...files,
      "Pulumi.yaml": header(name, runtime) + (files["Pulumi.yaml"] ?? ""),
    }))
      fs.writeFileSync(path.join(dir, file), text);
    state.configFiles.push(path.join(dir, "Pulumi.docs.yaml"));
    return run().stack({ stackName: "docs", workDir: dir }, emulatorConfig(emulator()));
  }

  async function rehearse<T>(
    node: string,
    behaviour: Partial<NodeEndpointBehaviour>,
    step: () => Promise<T>,
  ): Promise<T> {
    const before = emulator().admin.nodeEndpoint(node)!;
    expect(before).toMatchObject({ chainId: null, stalledSeconds: null });
    expect(emulator().admin.setNodeEndpoint(node, behaviour)).toBeDefined();
    try {
      return await step();
    } finally {
      emulator().admin.setNodeEndpoint(node, { ...before, stalledSeconds: null });
    }
  }

  /** The stack `stackName` of the example in `workDir`, with `config`; its config file is audited. */
  const example = (workDir: string, stackName: string, config: Record<string, { value: string }>) => {
    state.configFiles.push(path.join(workDir, `Pulumi.${stackName}.yaml`));
    return run().stack({ stackName, workDir }, config);
  };
  const audit = () => run().audit(emulator().secrets(), state.configFiles);
  return { emulator, run, project, rehearse, example, audit, configFiles: state.configFiles };
}

/** `verified` of a healthy node, exported: its chain id 1 and a head age within 120 s, readable. */
function expectVerified(up: { outputs: Record<string, { value: unknown; secret: boolean }> }, prefix = "") {
  const key = (name: string) => (prefix ? `${prefix}${name[0].toUpperCase()}${name.slice(1)}` : name);
  expect(up.outputs[key("chainId")]).toEqual({ value: "1", secret: false });
  expect(up.outputs[key("headAgeSeconds")]).toEqual({ value: expect.any(Number), secret: false });
  expect(up.outputs[key("headAgeSeconds")].value).toBeLessThanOrEqual(120);
  expect(up.outputs[key("headAgeSeconds")].value).toBeGreaterThanOrEqual(0);
}

describeWithEngine(YAML_HOST)("YAML programs on the plugin (Pulumi.yaml path entry)", () => {
  const block = pluginBlock();
  const { emulator, run } = block;

  describe("examples/yaml-quickstart", () => {
    const workDir = path.join(ROOT, "examples", "yaml-quickstart");
    const declared = "e2e-yaml-quickstart";
    let stack: Stack;

    beforeAll(async () => {
      // The example finds the plugin of this checkout through its Pulumi.yaml.
      const project = fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8");
      const entry = /^plugins:\n\s+providers:\n\s+- name: blockchain\n\s+path: (\S+)$/m.exec(project);
      expect(path.resolve(workDir, entry![1])).toBe(PLUGIN_DIR);
      expect(fs.existsSync(path.join(PLUGIN_DIR, "pulumi-resource-blockchain"))).toBe(true);
      stack = await block.example(workDir, `e2e${process.pid}`, {
        ...emulatorConfig(emulator()),
        "yaml-quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
        "yaml-quickstart:networkName": { value: declared },
      });
    });

    test("up adopts and names the network; node metadata is readable, the endpoint and key are secret; a preview right after expects no changes", async () => {
      expectQuickstartUp(await stack.up(run().recorded("up")), emulator(), declared);
      const preview = await stack.preview({
        expectNoChanges: true,
        diff: true,
        ...run().recorded("preview"),
      });
      expect(changes(preview.changeSummary)).toEqual([]);
      block.audit();
    });

    test("a rename through the service API: refresh puts the console's name in state, up restores the declared one", async () => {
      await expectRenameRestored(run(), stack, emulator(), declared);
      block.audit();
    });

    test("destroy empties the stack and leaves the retained network in place", async () => {
      const destroyed = await stack.destroy(run().recorded("destroy"));
      expect(destroyed.summary.result).toBe("succeeded");
      expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
      expect((await stack.exportStack()).deployment.resources ?? []).toEqual([]);
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe(declared);
      block.audit();
    });
  });

  describe("pulumi import of a Network", () => {
    let projectDir: string;
    let generated: string;
    const writeProgram = (resources = "") =>
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header("e2e-import", "yaml") + resources);
    /** `preview --expect-no-changes` of the program `resources`. */
    const previewOf = (resources: string, label: string) => {
      writeProgram(resources);
      return run().cli(projectDir, ["preview", "--expect-no-changes", "--diff"], label);
    };

    beforeAll(async () => {
      projectDir = path.join(run().sandbox.dir, "import-project");
      fs.mkdirSync(projectDir);
      writeProgram();
      block.configFiles.push(path.join(projectDir, "Pulumi.e2e-import.yaml"));
      await run().initStack(projectDir, "e2e-import", emulator());
    });

    test("import --protect=false adopts the network unprotected and the YAML host writes its program", async () => {
      const id = emulator().fixtures.emptyNetwork;
      const out = path.join(projectDir, "imported.yaml");
      const output = await run().ok(projectDir, [
        "import",
        "blockchain:index:Network",
        "adopted",
        id,
        "--yes",
        "--protect=false",
        "--out",
        out,
      ]);
      expect(output).toMatch(/^\s*= .*\badopted\b.*\bimported\b/m);

      const network = resource(await run().state(projectDir), "blockchain:index:Network", "adopted");
      expect(network.id).toBe(id);
      expect(network.protect ?? false).toBe(false);
      expect(network.inputs).toEqual({ networkId: id });
      expect(network.outputs?.name).toBe(emulator().admin.getNetwork(id)!.name);

      generated = fs.readFileSync(out, "utf8");
      expect(generated).toMatch(/^resources:\n {2}adopted:\n {4}type: blockchain(:index)?:Network\n/);
      expect(generated).toContain(`networkId: ${id}`);
      block.audit();
    });

    test("the generated program previews with no changes; declaring another name would be an update", async () => {
      const id = emulator().fixtures.emptyNetwork;
      const same = await previewOf(generated, "preview imported");
      expect(same.code).toBe(0);
      expect(same.output).toMatch(/2 unchanged/);

      // --expect-no-changes has teeth: the same program with another name fails it.
      const renamed = generated.replace(`networkId: ${id}`, `networkId: ${id}\n      name: e2e-other-name`);
      const changed = await previewOf(renamed, "preview renamed");
      expect(changed.code).not.toBe(0);
      expect(changed.output).toMatch(/~ name\s*: "[^"]+" => "e2e-other-name"/);
      expect(emulator().admin.getNetwork(id)!.name).not.toBe("e2e-other-name");

      // Unprotected: destroy forgets it and leaves it in the service (no forceDestroy).
      writeProgram(generated);
      await run().ok(projectDir, ["destroy", "--yes"], "destroy imported");
      expect(emulator().admin.getNetwork(id)).toBeDefined();
      block.audit();
    });
  });

  test("verify: getNode's verify: {} exports the chain id 1 and a fresh head age; getNodes with minVerified 3, a node stalled, exports the three that pass and names it in one warning; a node on another chain fails getNode, no trace", async () => {
    const [stalled, checked] = ["ND-100-000-001", "ND-100-000-002"];
    const network = emulator().admin.getNode(checked)!.network;
    expect(emulator().admin.getNetwork(network)!.configuration.network).toBe("ethereum-mainnet");
    const stack = await block.project("verify-yaml", "yaml", {
      "Pulumi.yaml": `variables:
  node:
    fn::invoke:
      function: blockchain:index:getNode
      arguments:
        id: ${checked}
        verify: {}
  set:
    fn::invoke:
      function: blockchain:index:getNodes
      arguments:
        network: ${network}
        verify:
          minVerified: 3
outputs:
  chainId: \${node.verified.chainId}
  headAgeSeconds: \${node.verified.headAgeSeconds}
  first: \${set.nodes[0].id}
  second: \${set.nodes[1].id}
  third: \${set.nodes[2].id}
`,
    });
    const up = await block.rehearse(stalled, { stalledSeconds: 900 }, () =>
      stack.up(run().recorded("yaml up, a node stalled")),
    );
    expectVerified(up);
    const ids = ["first", "second", "third"].map((k) => up.outputs[k].value as string);
    expect(ids).not.toContain(stalled);
    expect(new Set(ids).size).toBe(3);
    // One warning: the engine prints it as it comes, then once more under Diagnostics.
    expect(up.stdout).toMatch(/created \(\d+s\) 1 warning\n/);
    const warnings = diagnosticLines(up.stdout, "warning: getNodes:");
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`\\b3 of 4\\b.*\\bminVerified 3\\b.*${stalled}\\b.*\\b9\\d\\d s\\b`)),
    ]);

    const output = await block.rehearse(checked, { chainId: "5" }, () =>
      run().failure("yaml up, a node on another chain", (o) => stack.up(o)),
    );
    const errors = errorsWith(output, checked);
    expect(errors).toEqual([expect.stringMatching(/getNode\b.*\b5\b.*ethereum-mainnet/)]);
    expect(output).not.toMatch(TRACE);
    block.audit();
  });

  test("Ctrl-C while getNode waits for a status: the run fails, its error naming the engine's Cancel, no trace", async () => {
    const node = emulator().fixtures.beaconNode;
    const status = NODE_STATUSES.find((s) => s !== emulator().admin.getNode(node)!.status)!;
    const stack = await block.project("cancel-yaml", "yaml", {
      "Pulumi.yaml": `variables:
  node:
    fn::invoke:
      function: blockchain:index:getNode
      arguments:
        id: ${node}
        waitFor: { status: ${status}, timeoutSeconds: 600, intervalSeconds: 0.2 }
outputs:
  status: \${node.status}
`,
    });
    const polls = () =>
      emulator()
        .requests()
        .filter((r) => r.path.includes(node)).length;
    const [before, ctrlC] = [polls(), new AbortController()];
    const up = run().failure("yaml up, Ctrl-C during a wait", (o) =>
      stack.up({ ...o, signal: ctrlC.signal }),
    );
    await until("two polls of the node", () => (polls() >= before + 2 ? true : undefined), 120_000);
    ctrlC.abort();
    const output = await up;
    expect(errorBlocks(output).filter((b) => b.includes("(Cancel)"))).toEqual([
      expect.stringMatching(/getNode/),
    ]);
    expect(output).not.toMatch(TRACE);
    block.audit();
  });
});

describeWithEngine(PYTHON_HOST)(
  "Python programs on sdk/python: the docs', examples/python-quickstart, examples/python-app, verify",
  () => {
    const block = pluginBlock(pythonEnv);
    const { emulator, run } = block;
    const infraStack = `e2e${process.pid}-infra`;
    const appStack = `e2e${process.pid}-app`;
    const declared = "e2e-python-quickstart";
    const listedByName = () =>
      listAll(emulator(), `network=${emulator().fixtures.networkWithNodes}&order_by=name`);

    test("examples/python-quickstart: up adopts the network; the app's configuration it exports is secret", async () => {
      const workDir = path.join(ROOT, "examples", "python-quickstart");
      const stack = await block.example(workDir, infraStack, {
        ...emulatorConfig(emulator()),
        "python-quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
        "python-quickstart:networkName": { value: declared },
      });
      const up = await stack.up(run().recorded("python-quickstart up"));
      expectQuickstartUp(up, emulator(), declared);
      const listed = await listedByName();
      expect(up.outputs.appConfig.secret).toBe(true);
      expect(JSON.parse(up.outputs.appConfig.value as string)).toEqual(
        listed.map((n) => ({
          name: n.name,
          rpc: n.details.https_endpoint ?? null,
          ws: n.details.wss_endpoint ?? null,
        })),
      );
      expect(up.stdout).toMatch(/appConfig\s*: \[secret\]/);
      block.audit();
    });
    test("examples/python-app, the docs' StackReference program, reads that stack: the app's environment is secret", async () => {
      const workDir = path.join(ROOT, "examples", "python-app");
      // The example is the program docs/other-languages.md shows, under its docstring.
      const shown = docBlock("docs/other-languages.md", "python", "pulumi.StackReference(");
      expect(fs.readFileSync(path.join(workDir, "__main__.py"), "utf8").endsWith(`"""\n${shown}`)).toBe(true);
      const stack = await block.example(workDir, appStack, {
        "python-app:infraStack": { value: `organization/python-quickstart/${infraStack}` },
      });
      const up = await stack.up(run().recorded("python-app up"));
      const listed = await listedByName();
      const out = up.outputs;
      expect(out.appEnvironment.secret).toBe(true);
      const env = out.appEnvironment.value as { RPC_URL: string; NODES_JSON: string };
      expect(env.RPC_URL).toBe(listed[0].details.https_endpoint);
      expect(emulator().secrets()).toContain(env.RPC_URL);
      expect((JSON.parse(env.NODES_JSON) as { name: string }[]).map((n) => n.name)).toEqual(
        listed.map((n) => n.name),
      );
      expect(out.nodeCount).toEqual({ value: listed.length, secret: true });
      expect(out.networkName).toEqual({ value: declared, secret: false });
      expect(up.stdout).toMatch(/appEnvironment\s*: \[secret\]/);
      expect(up.stdout).toMatch(/nodeCount\s*: \[secret\]/);

      // An infra stack without the outputs the app reads (here the app's own): one error block
      // naming the stack and the output, no Python traceback.
      const wrongStack = `${appStack}-wrong`;
      const wrong = await block.example(workDir, wrongStack, {
        "python-app:infraStack": { value: `organization/python-app/${appStack}` },
      });
      const missing = await run().failure("python-app preview, infra output missing", (o) =>
        wrong.preview(o),
      );
      const [first, ...rest] = errorBlocks(missing);
      expect(first).toBe(
        `error: organization/python-app/${appStack} has no output appConfig: run \`pulumi up\` there first.`,
      );
      expect(rest.every((b) => !b.includes("appConfig"))).toBe(true);
      expect(missing).not.toMatch(TRACE);
      block.audit();
    });

    describe.each(PYTHON_SNIPPETS)(
      "$file, its Python program",
      ({ name, file, marker, query, endpoint, exports, guardFirst }) => {
        const program = (networkId: string) => {
          const code = docBlock(file, "python", marker);
          expect(code).toContain(PLACEHOLDER);
          return { "__main__.py": code.replaceAll(PLACEHOLDER, networkId) };
        };

        test("on a network whose first node is another organization's: exports the first that shows its endpoint, its id readable, the endpoint secret", async () => {
          const id = emulator().fixtures.consortiumNetwork;
          const stack = await block.project(`${name}-nodes`, "python", program(id));
          const up = await stack.up(run().recorded(`${name} up`));
          const listed = await listAll(emulator(), `network=${id}&${query}`);
          // The service shows the endpoints of a node to its owner only: the first listed shows none.
          expect(listed[0].details.https_endpoint).toBeUndefined();
          const first = listed.find((n) => n.details.https_endpoint)!;
          const outputs: Record<string, { value: unknown; secret: boolean }> = {
            nodeCount: { value: listed.length, secret: false },
            firstNodeId: { value: first.id, secret: false },
            [endpoint]: { value: first.details.https_endpoint, secret: true },
          };
          expect(up.outputs).toEqual(Object.fromEntries(exports.map((key) => [key, outputs[key]])));
          expect(up.stdout).toMatch(new RegExp(`${endpoint}\\s*: \\[secret\\]`));
          block.audit();
        });

        test(`on an empty network: up fails with the program's one line naming that network, no traceback${guardFirst ? ", before it changes anything" : ""}`, async () => {
          const id = emulator().fixtures.emptyNetwork;
          expect(await listAll(emulator(), `network=${id}`)).toEqual([]);
          const named = emulator().admin.getNetwork(id)!.name;
          const stack = await block.project(`${name}-empty`, "python", program(id));
          emulator().resetRequests();
          const output = await run().failure(`${name} up empty`, (o) => stack.up(o));
          expect(diagnosticLines(output)).toEqual([
            `pulumi:pulumi:Stack (${name}-empty-docs):`,
            expect.stringMatching(new RegExp(`^error: .*\\b${id}\\b`)),
            // The Python host's line after a pulumi.RunError (it exits 1, not "already reported").
            expect.stringMatching(/^error: .*exit code: 1$/),
          ]);
          expect(output).not.toMatch(TRACE);
          expect(output).not.toContain(PLACEHOLDER);
          if (guardFirst) {
            // The guard failed before anything changed: the service was only read, the network keeps
            // its name, and the stack holds no network.
            expect(
              emulator()
                .requests()
                .filter((r) => r.method !== "GET"),
            ).toEqual([]);
            expect(emulator().admin.getNetwork(id)!.name).toBe(named);
            const state = (await stack.exportStack()).deployment.resources as { type: string }[];
            expect(state.map((r) => r.type)).not.toContain("blockchain:index:Network");
          }
          block.audit();
        });
      },
    );

    test("verify as a dict and as the SDK's class: each exports the chain id 1 and a fresh head age; the node's head stalled 900 s fails the run naming it", async () => {
      const node = "ND-100-000-001";
      const stack = await block.project("verify-python", "python", {
        "__main__.py": `import pulumi
import pulumi_blockchain as blockchain

as_dict = blockchain.get_node(id="${node}", verify={"max_head_age_seconds": 120})
as_class = blockchain.get_node(id="${node}", verify=blockchain.Verify(max_head_age_seconds=120))
for form, got in [("dict", as_dict), ("class", as_class)]:
    pulumi.export(f"{form}ChainId", got.verified.chain_id)
    pulumi.export(f"{form}HeadAgeSeconds", got.verified.head_age_seconds)
`,
      });
      const up = await stack.up(run().recorded("python verify up"));
      expectVerified(up, "dict");
      expectVerified(up, "class");
      const output = await block.rehearse(node, { stalledSeconds: 900 }, () =>
        run().failure("python verify up, stalled", (o) => stack.up(o)),
      );
      const named = diagnosticLines(output, "", node);
      expect(named).toEqual(expect.arrayContaining([expect.stringMatching(/\b9\d\d s\b.*\b120 s\b/)]));
      block.audit();
    });

    test('get_nodes with verify={"min_verified": 5} of four nodes: up fails with one message in Python\'s spelling', async () => {
      const network = emulator().admin.getNode("ND-100-000-001")!.network;
      const stack = await block.project("verify-python-set", "python", {
        "__main__.py": `import pulumi
import pulumi_blockchain as blockchain

nodes = blockchain.get_nodes(network="${network}", verify={"min_verified": 5}).nodes
pulumi.export("count", len(nodes))
`,
      });
      const output = await run().failure("python up healthy set", (o) => stack.up(o));
      const named = diagnosticLines(output, "", "min_verified");
      expect(named).toEqual(
        expect.arrayContaining([expect.stringMatching(/\b4 of 4\b.*\bmin_verified\b.*\b5\b/)]),
      );
      expect(output).not.toContain("minVerified");
      block.audit();
    });
  },
);

describe("the docs' Go programs", () => {
  const dir = withTempDir("pulumi-blockchain-docs-go-");
  test("compile against sdk/go (go vet) and are gofmt'd: compiled, not run (the engine here has no Go language host)", async () => {
    const go = goOnPath("the docs' Go programs");
    if (!go) return;
    const sdkMod = fs.readFileSync(path.join(ROOT, "sdk", "go", "go.mod"), "utf8");
    const goVersion = /^go (\S+)$/m.exec(sdkMod)![1];
    const pulumiSdk = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(sdkMod)![1];
    fs.writeFileSync(
      path.join(dir(), "go.mod"),
      `module example.com/docs-go\n\ngo ${goVersion}\n\nrequire (\n\t${GO_MODULE} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumiSdk}\n)\n\nreplace ${GO_MODULE} => ${path.join(ROOT, "sdk", "go")}\n`,
    );
    for (const [name, file] of Object.entries(GO_SNIPPETS)) {
      fs.mkdirSync(path.join(dir(), name));
      fs.writeFileSync(path.join(dir(), name, "main.go"), docBlock(file, "go", "blockchain.NewNetwork("));
    }
    const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
    const gofmt = path.join(path.dirname(go), "gofmt");
    expect((await exec(gofmt, ["-l", "."], { cwd: dir() })).stdout).toBe("");
    await exec(go, ["vet", "./..."], { cwd: dir(), env, maxBuffer: 16 * 1024 * 1024 });
  }, 600_000);
});
