/**
 * End to end: scenario variations as inline Automation API programs under the real engine,
 * against the emulator: update in place, replace, out-of-band delete, delete refused, destroy.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { Network } from "../../src";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineSandbox, engineSandbox, filesUnder } from "../helpers/engine";

const STEP_TIMEOUT = 240_000;

describeWithEngine()("Network scenarios under the real engine (inline programs)", () => {
  let sandbox: EngineSandbox;
  let stack: Stack;
  let workDir: string;
  /** What the program declares on its next run: resource name → Network args. */
  let desired: Record<string, { networkId: string; name?: string; apiUrl?: string; apiKey?: string }> = {};
  let output = "";
  const recorded = () => ({ onOutput: (o: string) => (output += o), onError: (e: string) => (output += e) });

  async function networkUrns(): Promise<string[]> {
    const state = await stack.exportStack();
    return (state.deployment.resources ?? [])
      .filter((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/blockchain:Network")
      .map((r: { urn: string }) => r.urn);
  }

  function audit(): void {
    const files = filesUnder(sandbox.backendDir);
    expect(findSecrets(emulator().secrets(), { files, texts: { output } })).toEqual([]);
  }

  // Registered before withEmulator(): afterAll hooks run in the order they are registered, so the
  // stacks are destroyed while the emulator still answers.
  afterAll(async () => {
    if (stack) {
      emulator().admin.removeNodes(emulator().fixtures.networkWithNodes);
      desired = {};
      await stack.destroy().catch(() => undefined);
    }
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
    sandbox?.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    sandbox = await engineSandbox();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-inline-"));
    stack = await LocalWorkspace.createOrSelectStack(
      {
        stackName: "scenarios",
        projectName: "scenarios",
        program: async () => {
          const out: Record<string, unknown> = {};
          for (const [name, args] of Object.entries(desired)) {
            const net = new Network(name, args);
            out[`${name}Name`] = net.name;
          }
          return out;
        },
      },
      { pulumiCommand: sandbox.command, envVars: sandbox.envVars, workDir },
    );
    await stack.setAllConfig({
      "blockchain:apiUrl": { value: emulator().url },
      "blockchain:apiKey": { value: emulator().apiKey, secret: true },
    });
  }, STEP_TIMEOUT);

  test(
    "a name change is an update in place; a networkId change is a replace that deletes the old network",
    async () => {
      const first = emulator().fixtures.emptyNetwork;
      const second = emulator().fixtures.secondEmptyNetwork;
      desired = { net: { networkId: first, name: "one" } };
      await stack.up(recorded());
      expect(emulator().admin.getNetwork(first)!.name).toBe("one");

      desired = { net: { networkId: first, name: "two" } };
      const renamePreview = await stack.preview(recorded());
      expect(renamePreview.changeSummary).toMatchObject({ update: 1 });
      expect(renamePreview.changeSummary.replace).toBeUndefined();
      await stack.up(recorded());
      expect(emulator().admin.getNetwork(first)!.name).toBe("two");

      desired = { net: { networkId: second, name: "two" } };
      const replacePreview = await stack.preview(recorded());
      expect(replacePreview.changeSummary).toMatchObject({ replace: 1 });
      const up = await stack.up(recorded());
      expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
      expect(emulator().admin.getNetwork(first)).toBeUndefined();
      expect(emulator().admin.getNetwork(second)!.name).toBe("two");
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "a network deleted out of band is dropped from state by refresh",
    async () => {
      expect(await networkUrns()).toHaveLength(1);
      emulator().admin.deleteNetwork(emulator().fixtures.secondEmptyNetwork);
      const refresh = await stack.refresh(recorded());
      expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
      expect(await networkUrns()).toHaveLength(0);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "deleting a network that still has nodes fails clearly and the state keeps the network",
    async () => {
      const id = emulator().fixtures.networkWithNodes;
      desired = { busy: { networkId: id } };
      await stack.up(recorded());
      expect(await networkUrns()).toHaveLength(1);

      desired = {};
      const err = await stack.up(recorded()).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err).toBeDefined();
      expect(String(err)).toMatch(/still has \d+ nodes/);
      expect(String(err)).toContain(id);
      // What works, since a destroy uses the options stored in state: up then destroy, or --run-program.
      expect(String(err)).toMatch(/`retainOnDelete: true`.*`pulumi up`.*then `pulumi destroy`/);
      expect(String(err)).toContain("`pulumi destroy --run-program`");
      expect(String(err)).toContain("`pulumi state delete '<urn>'`");
      expect(String(err)).not.toMatch(/^\s+at /m);
      expect(await networkUrns()).toHaveLength(1);
      expect(emulator().admin.getNetwork(id)).toBeDefined();

      // Once the nodes are gone (in the console), destroy deletes the adopted network.
      emulator().admin.removeNodes(id);
      const destroy = await stack.destroy(recorded());
      // The Network and the stack resource itself.
      expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
      expect(emulator().admin.getNetwork(id)).toBeUndefined();
      expect(await networkUrns()).toHaveLength(0);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "an API key passed as a plain argument is stored only encrypted, and an unchanged program previews no changes",
    async () => {
      const id = emulator().fixtures.consortiumNetwork;
      desired = {
        explicit: {
          networkId: id,
          name: "with-explicit-key",
          apiUrl: emulator().url,
          apiKey: emulator().apiKey,
        },
      };
      await stack.setAllConfig({ "blockchain:apiKey": { value: "not-the-key-0000", secret: true } });
      const up = await stack.up(recorded());
      // The Network and the stack resource (the previous test destroyed the stack).
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
      expect(emulator().admin.getNetwork(id)!.name).toBe("with-explicit-key");
      // exportStack decrypts secrets, so the key is there; the backend's files must not hold it in plaintext.
      expect(JSON.stringify((await stack.exportStack()).deployment)).toContain(emulator().apiKey);
      audit();
      const preview = await stack.preview(recorded());
      expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
      // A refresh hands the engine the inputs that match the service: the key among them, still
      // stored only encrypted, and still no change to preview.
      await stack.refresh(recorded());
      audit();
      const afterRefresh = await stack.preview(recorded());
      expect(Object.keys(afterRefresh.changeSummary).filter((k) => k !== "same")).toEqual([]);
      const explicit = (await stack.exportStack()).deployment.resources.find((r: { urn: string }) =>
        r.urn.endsWith("::explicit"),
      );
      expect(explicit.inputs.apiKey).toMatchObject({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      });

      emulator().admin.removeNodes(id);
      desired = {};
      const removed = await stack.up(recorded());
      expect(removed.summary.resourceChanges).toMatchObject({ delete: 1 });
      expect(emulator().admin.getNetwork(id)).toBeUndefined();
      audit();
      await stack.setAllConfig({ "blockchain:apiKey": { value: emulator().apiKey, secret: true } });
    },
    STEP_TIMEOUT,
  );
});
