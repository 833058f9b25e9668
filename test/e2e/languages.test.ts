/**
 * The plugin (bin/) served to YAML and Python programs through their Pulumi.yaml `plugins:` path
 * entry: examples/yaml-quickstart's lifecycle and `pulumi import` of a network; Python programs on
 * sdk/python: examples/python-quickstart, examples/python-app (a StackReference to it) and the docs'
 * Python programs, on a network whose first node shows this key no endpoint and on an empty one. The docs' Go programs are compiled
 * against sdk/go (the engine here has no Go language host). Each engine step audited.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import type { Stack } from "@pulumi/pulumi/automation";
import { listAll, withEmulator } from "../helpers/emulator";
import {
  describeWithEngine,
  goOnPath,
  changes,
  emulatorConfig,
  EngineRun,
  resource,
  pythonEnv,
} from "../helpers/engine";
import { expectQuickstartUp, expectRenameRestored } from "../helpers/quickstart";
import { docBlock } from "../helpers/readme";

const ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_DIR = path.join(ROOT, "bin");
const STEP_TIMEOUT = 240_000;
const GO_TIMEOUT = 600_000;
const YAML_HOST = ["pulumi-language-yaml"];
const PYTHON_HOST = ["pulumi-language-python", "pulumi-language-python-exec", "pulumi-python"];
const GO_MODULE = "github.com/pulumi-blockchain-nodes/pulumi-blockchain-nodes/sdk/go";
/** The network id the docs' programs name, replaced by the emulator's where they run. */
const PLACEHOLDER = "NW-123-456-7";

const exec = promisify(execFile);

/**
 * The docs' Python programs that pick a node: their block (the one with `marker`), the filters they
 * list with, their outputs (`nodeCount`, `firstNodeId` readable; `endpoint`, the node's HTTPS endpoint, secret).
 */
const PYTHON_SNIPPETS = [
  {
    name: "readme",
    file: "README.md",
    marker: "def first_with_endpoint(",
    query: "order_by=name",
    endpoint: "firstNodeHttpsEndpoint",
    exports: ["firstNodeHttpsEndpoint"],
  },
  {
    name: "docs-other-languages",
    file: "docs/other-languages.md",
    marker: "def first_with_endpoint(",
    query: "order_by=name",
    endpoint: "firstNodeHttpsEndpoint",
    exports: ["nodeCount", "firstNodeId", "firstNodeHttpsEndpoint"],
  },
  {
    name: "docs-index",
    file: "docs/_index.md",
    marker: "def first_with_endpoint(",
    query: "status=running&order_by=name",
    endpoint: "rpcUrl",
    exports: ["nodeCount", "firstNodeId", "rpcUrl"],
  },
];

/** The docs' Go programs. */
const GO_SNIPPETS = [
  { name: "docs-other-languages", file: "docs/other-languages.md", marker: "blockchain.NewNetwork(" },
  { name: "docs-index", file: "docs/_index.md", marker: "blockchain.NewNetwork(" },
];

/** The lines of the engine's Diagnostics section, trimmed. */
function diagnosticLines(output: string): string[] {
  const start = output.indexOf("\nDiagnostics:\n");
  if (start < 0) throw new Error(`no Diagnostics section in:\n${output}`);
  const rest = output.slice(start + "\nDiagnostics:\n".length);
  const end = rest.search(/^\S/m);
  return rest
    .slice(0, end < 0 ? undefined : end)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

describeWithEngine(YAML_HOST)("examples/yaml-quickstart on the plugin (Pulumi.yaml path entry)", () => {
  const workDir = path.join(ROOT, "examples", "yaml-quickstart");
  const stackName = `e2e${process.pid}`;
  const declared = "e2e-yaml-quickstart";
  let run: EngineRun;
  let stack: Stack;

  const audit = () => run.audit(emulator().secrets(), [path.join(workDir, `Pulumi.${stackName}.yaml`)]);
  const network = () => emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!;

  afterAll(() => run?.close(), STEP_TIMEOUT);
  const emulator = withEmulator();
  beforeAll(async () => {
    // The example finds the plugin of this checkout through its Pulumi.yaml.
    const project = fs.readFileSync(path.join(workDir, "Pulumi.yaml"), "utf8");
    const entry = /^plugins:\n\s+providers:\n\s+- name: blockchain\n\s+path: (\S+)$/m.exec(project);
    expect(path.resolve(workDir, entry![1])).toBe(PLUGIN_DIR);
    expect(fs.existsSync(path.join(PLUGIN_DIR, "pulumi-resource-blockchain"))).toBe(true);

    run = await EngineRun.start();
    stack = await run.stack(
      { stackName, workDir },
      {
        ...emulatorConfig(emulator()),
        "yaml-quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
        "yaml-quickstart:networkName": { value: declared },
      },
    );
  }, STEP_TIMEOUT);

  test(
    "up adopts and names the network; node metadata is readable, the endpoint and key are secret",
    async () => {
      expectQuickstartUp(await stack.up(run.recorded("up")), emulator(), declared);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "preview right after up expects no changes",
    async () => {
      const preview = await stack.preview({ expectNoChanges: true, diff: true, ...run.recorded("preview") });
      expect(changes(preview.changeSummary)).toEqual([]);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "a rename through the service API: refresh puts the console's name in state, up restores the declared one",
    async () => {
      await expectRenameRestored(run, stack, emulator(), declared);
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

describeWithEngine(YAML_HOST)("pulumi import of a Network into a YAML project", () => {
  const stackName = "e2e-import";
  let run: EngineRun;
  let projectDir: string;
  let generated: string;
  const header = () =>
    `name: e2e-import\nruntime: yaml\nplugins:\n  providers:\n    - name: blockchain\n      path: ${PLUGIN_DIR}\n`;
  const audit = () => run.audit(emulator().secrets(), [path.join(projectDir, `Pulumi.${stackName}.yaml`)]);

  afterAll(() => run?.close(), STEP_TIMEOUT);
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

      // Unprotected: destroy forgets it and leaves it in the service (no forceDestroy).
      fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), header() + generated);
      await run.ok(projectDir, ["destroy", "--yes"], "destroy imported");
      expect(emulator().admin.getNetwork(id)).toBeDefined();
      audit();
    },
    STEP_TIMEOUT,
  );
});

describeWithEngine(PYTHON_HOST)(
  "Python programs on sdk/python: the docs', examples/python-quickstart, examples/python-app",
  () => {
    const infraStack = `e2e${process.pid}-infra`;
    const appStack = `e2e${process.pid}-app`;
    const declared = "e2e-python-quickstart";
    let siteDir: string;
    let run: EngineRun;
    const configFiles: string[] = [];
    const audit = () => run.audit(emulator().secrets(), configFiles);

    afterAll(async () => {
      await run?.close();
      if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
    }, STEP_TIMEOUT);
    const emulator = withEmulator();
    beforeAll(async () => {
      siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-python-sdk-"));
      run = await EngineRun.start((engineDir) => pythonEnv(siteDir, engineDir));
    }, STEP_TIMEOUT);

    /** A stack of a project in the sandbox whose __main__.py is `code`, on this checkout's plugin. */
    async function programStack(project: string, code: string): Promise<Stack> {
      const dir = path.join(run.sandbox.dir, project);
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `name: ${project}\nruntime: python\nplugins:\n  providers:\n    - name: blockchain\n      path: ${PLUGIN_DIR}\n`,
      );
      fs.writeFileSync(path.join(dir, "__main__.py"), code);
      configFiles.push(path.join(dir, "Pulumi.docs.yaml"));
      return run.stack({ stackName: "docs", workDir: dir }, emulatorConfig(emulator()));
    }

    test(
      "examples/python-quickstart: up adopts the network; the app's configuration it exports is secret",
      async () => {
        const workDir = path.join(ROOT, "examples", "python-quickstart");
        configFiles.push(path.join(workDir, `Pulumi.${infraStack}.yaml`));
        const stack = await run.stack(
          { stackName: infraStack, workDir },
          {
            ...emulatorConfig(emulator()),
            "python-quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
            "python-quickstart:networkName": { value: declared },
          },
        );
        const up = await stack.up(run.recorded("python-quickstart up"));
        expectQuickstartUp(up, emulator(), declared);
        const listed = await listAll(
          emulator(),
          `network=${emulator().fixtures.networkWithNodes}&order_by=name`,
        );
        expect(up.outputs.appConfig.secret).toBe(true);
        expect(JSON.parse(up.outputs.appConfig.value as string)).toEqual(
          listed.map((n) => ({
            name: n.name,
            rpc: n.details.https_endpoint ?? null,
            ws: n.details.wss_endpoint ?? null,
          })),
        );
        expect(up.stdout).toMatch(/appConfig\s*: \[secret\]/);
        audit();
      },
      STEP_TIMEOUT,
    );

    test(
      "examples/python-app, the docs' StackReference program, reads that stack: the app's environment is secret",
      async () => {
        const workDir = path.join(ROOT, "examples", "python-app");
        // The example is the program docs/other-languages.md shows, under its docstring.
        const shown = docBlock("docs/other-languages.md", "python", "pulumi.StackReference(");
        expect(fs.readFileSync(path.join(workDir, "__main__.py"), "utf8").endsWith(`"""\n${shown}`)).toBe(
          true,
        );
        configFiles.push(path.join(workDir, `Pulumi.${appStack}.yaml`));
        const stack = await run.stack(
          { stackName: appStack, workDir },
          { "python-app:infraStack": { value: `organization/python-quickstart/${infraStack}` } },
        );
        const up = await stack.up(run.recorded("python-app up"));
        const listed = await listAll(
          emulator(),
          `network=${emulator().fixtures.networkWithNodes}&order_by=name`,
        );
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
        audit();
      },
      STEP_TIMEOUT,
    );

    describe.each(PYTHON_SNIPPETS)(
      "$file, its Python program",
      ({ name, file, marker, query, endpoint, exports }) => {
        const program = (networkId: string) => {
          const code = docBlock(file, "python", marker);
          expect(code).toContain(PLACEHOLDER);
          return code.replaceAll(PLACEHOLDER, networkId);
        };

        test(
          "on a network whose first node is another organization's: exports the first that shows its endpoint, its id readable, the endpoint secret",
          async () => {
            const id = emulator().fixtures.consortiumNetwork;
            const stack = await programStack(`${name}-nodes`, program(id));
            const up = await stack.up(run.recorded(`${name} up`));
            const listed = await listAll(emulator(), `network=${id}&${query}`);
            // The service shows the endpoints of a node to its owner only: the first listed shows none.
            expect(listed[0].details.https_endpoint).toBeUndefined();
            const first = listed.find((n) => n.details.https_endpoint)!;
            expect(first).toBeDefined();
            const outputs: Record<string, { value: unknown; secret: boolean }> = {
              nodeCount: { value: listed.length, secret: false },
              firstNodeId: { value: first.id, secret: false },
              [endpoint]: { value: first.details.https_endpoint, secret: true },
            };
            expect(up.outputs).toEqual(Object.fromEntries(exports.map((key) => [key, outputs[key]])));
            expect(up.stdout).toMatch(new RegExp(`${endpoint}\\s*: \\[secret\\]`));
            audit();
          },
          STEP_TIMEOUT,
        );

        test(
          "on an empty network: up fails with the program's message on one line, no traceback",
          async () => {
            const id = emulator().fixtures.emptyNetwork;
            expect(await listAll(emulator(), `network=${id}`)).toEqual([]);
            const stack = await programStack(`${name}-empty`, program(id));
            const output = await run.failure(`${name} up empty`, (o) => stack.up(o));
            expect(diagnosticLines(output)).toEqual([
              `pulumi:pulumi:Stack (${name}-empty-docs):`,
              expect.stringMatching(
                new RegExp(`^error: No (running )?node of ${id} shows an HTTPS endpoint to this key: \\S.*$`),
              ),
              // The Python host's line after a pulumi.RunError (it exits 1, not "already reported").
              "error: an unhandled error occurred: program exited with non-zero exit code: 1",
            ]);
            expect(output).not.toMatch(/Traceback|IndexError|File "/);
            audit();
          },
          STEP_TIMEOUT,
        );
      },
    );
  },
);

describe("the docs' Go programs", () => {
  test(
    "compile against sdk/go (go vet) and are gofmt'd: compiled, not run (the engine here has no Go language host)",
    async () => {
      const go = goOnPath("the docs' Go programs");
      if (!go) return;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-docs-go-"));
      try {
        const sdkMod = fs.readFileSync(path.join(ROOT, "sdk", "go", "go.mod"), "utf8");
        const goVersion = /^go (\S+)$/m.exec(sdkMod)![1];
        const pulumiSdk = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(sdkMod)![1];
        fs.writeFileSync(
          path.join(dir, "go.mod"),
          `module example.com/docs-go\n\ngo ${goVersion}\n\nrequire (\n\t${GO_MODULE} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumiSdk}\n)\n\nreplace ${GO_MODULE} => ${path.join(ROOT, "sdk", "go")}\n`,
        );
        for (const { name, file, marker } of GO_SNIPPETS) {
          fs.mkdirSync(path.join(dir, name));
          fs.writeFileSync(path.join(dir, name, "main.go"), docBlock(file, "go", marker));
        }
        const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
        const gofmt = path.join(path.dirname(go), "gofmt");
        expect((await exec(gofmt, ["-l", "."], { cwd: dir })).stdout).toBe("");
        await exec(go, ["vet", "./..."], { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    GO_TIMEOUT,
  );
});
