/**
 * The plugin (bin/) served to YAML programs through their Pulumi.yaml `plugins:` path entry:
 * examples/yaml-quickstart's lifecycle and `pulumi import` of a network, each step audited.
 */
import * as fs from "fs";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { changes, emulatorConfig, EngineRun, resource } from "../helpers/engine-run";
import { expectQuickstartUp, expectRenameRestored } from "../helpers/quickstart";

const ROOT = path.resolve(__dirname, "..", "..");
const PLUGIN_DIR = path.join(ROOT, "bin");
const STEP_TIMEOUT = 240_000;
const YAML_HOST = ["pulumi-language-yaml"];

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
