/** The README's "Quick look" program, type-checked and run as written under the real engine, against the emulator. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, PulumiFn } from "@pulumi/pulumi/automation";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineSandbox, engineSandbox, filesUnder } from "../helpers/engine";
import { compileReadmeBlock, readmeBlock } from "../helpers/readme";

describeWithEngine()("README quick look under the real engine", () => {
  const emulator = withEmulator();
  let sandbox: EngineSandbox;
  let workDir: string;

  beforeAll(async () => {
    sandbox = await engineSandbox();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-readme-"));
  });
  afterAll(async () => {
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
    sandbox?.cleanup();
  });

  test("up gives readable names, a secret endpoint and a masked twin; destroy succeeds", async () => {
    const file = compileReadmeBlock("quick-look", readmeBlock("export = async () =>"));
    const program: PulumiFn = require(file);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "readme", projectName: "readme", program },
      { pulumiCommand: sandbox.command, envVars: sandbox.envVars, workDir },
    );
    await stack.setAllConfig({
      "blockchain:apiUrl": { value: emulator().url },
      "blockchain:apiKey": { value: emulator().apiKey, secret: true },
    });
    let output = "";
    const up = await stack.up({ onOutput: (o) => (output += o) });
    expect(up.outputs.nodeNames.secret).toBe(false);
    expect((up.outputs.nodeNames.value as string[]).length).toBeGreaterThan(0);
    expect(up.outputs.rpcUrl).toEqual({
      secret: true,
      value: emulator().admin.getNode("ND-100-000-001")!.details.https_endpoint,
    });
    expect(up.outputs.rpcUrlForDisplay).toMatchObject({ secret: false });
    expect(up.outputs.rpcUrlForDisplay.value).toContain("***");
    const destroy = await stack.destroy({ onOutput: (o) => (output += o) });
    expect(destroy.summary.result).toBe("succeeded");
    expect(emulator().admin.getNetwork("NW-100-000-1")).toBeDefined();
    expect(
      findSecrets(emulator().secrets(), { files: filesUnder(sandbox.backendDir), texts: { output } }),
    ).toEqual([]);
  }, 240_000);
});
