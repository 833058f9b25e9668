/** Network scenarios as inline programs: update in place, replace, out-of-band delete, a key argument. */
import * as fs from "fs";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { Network } from "../../src";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { changes, emulatorConfig, EngineRun } from "../helpers/engine-run";

const STEP_TIMEOUT = 240_000;

describeWithEngine()("Network scenarios under the real engine (inline programs)", () => {
  let run: EngineRun;
  let stack: Stack;
  /** What the program declares on its next run: resource name → Network args. */
  let desired: Record<
    string,
    { networkId: string; name?: string; apiUrl?: string; apiKey?: string; forceDestroy?: boolean }
  > = {};
  const recorded = () => run.recorded("scenario");
  const audit = () => run.audit(emulator().secrets());

  async function networkUrns(): Promise<string[]> {
    const state = await stack.exportStack();
    return (state.deployment.resources ?? [])
      .filter((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/blockchain:Network")
      .map((r: { urn: string }) => r.urn);
  }

  afterAll(() => run?.close(), STEP_TIMEOUT);
  const emulator = withEmulator();
  beforeAll(async () => {
    run = await EngineRun.start();
    const workDir = path.join(run.sandbox.dir, "scenarios");
    fs.mkdirSync(workDir);
    const program = async () => {
      const out: Record<string, unknown> = {};
      for (const [name, args] of Object.entries(desired)) out[`${name}Name`] = new Network(name, args).name;
      return out;
    };
    stack = await run.stack(
      { stackName: "scenarios", projectName: "scenarios", program, workDir },
      emulatorConfig(emulator()),
    );
  }, STEP_TIMEOUT);

  test(
    "a name change is an update in place; a networkId change is a replace that releases the old network untouched",
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
      expect(emulator().admin.getNetwork(first)!.name).toBe("two");
      expect(emulator().admin.getNetwork(second)!.name).toBe("two");
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "a network deleted out of band is dropped from state by refresh, with a line that says why",
    async () => {
      expect(await networkUrns()).toHaveLength(1);
      const id = emulator().fixtures.secondEmptyNetwork;
      emulator().admin.deleteNetwork(id);
      const refresh = await stack.refresh(recorded());
      expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
      expect(refresh.stdout).toContain(`${id} no longer exists in the service; removed from the stack`);
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
          // The delete at the end is sent with the key stored in state.
          forceDestroy: true,
        },
      };
      await stack.setAllConfig({ "blockchain:apiKey": { value: "not-the-key-0000", secret: true } });
      const up = await stack.up(recorded());
      expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
      expect(emulator().admin.getNetwork(id)!.name).toBe("with-explicit-key");
      // exportStack decrypts secrets, so the key is there; the backend's files must not hold it in plaintext.
      expect(JSON.stringify((await stack.exportStack()).deployment)).toContain(emulator().apiKey);
      audit();
      const preview = await stack.preview(recorded());
      expect(changes(preview.changeSummary)).toEqual([]);
      // A refresh hands the engine the inputs that match the service: the key among them, still
      // stored only encrypted, and still no change to preview.
      await stack.refresh(recorded());
      audit();
      const afterRefresh = await stack.preview(recorded());
      expect(changes(afterRefresh.changeSummary)).toEqual([]);
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
    },
    STEP_TIMEOUT,
  );
});
