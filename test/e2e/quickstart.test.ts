/** The quickstart and feed-app examples run from their folders by the real engine, with a secrets audit. */
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { changes, emulatorConfig, EngineRun } from "../helpers/engine-run";

const examples = path.resolve(__dirname, "..", "..", "examples");
const STEP_TIMEOUT = 240_000;

describeWithEngine()("quickstart and feed-app under the real engine", () => {
  let run: EngineRun;
  let quickstart: Stack;
  let feedApp: Stack;
  const stackName = `e2e${process.pid}`;
  const audit = () =>
    run.audit(
      emulator().secrets(),
      ["quickstart", "feed-app"].map((ex) => path.join(examples, ex, `Pulumi.${stackName}.yaml`)),
    );

  afterAll(() => run?.close(), STEP_TIMEOUT);
  const emulator = withEmulator();
  beforeAll(async () => {
    run = await EngineRun.start();
    quickstart = await run.stack(
      { stackName, workDir: path.join(examples, "quickstart") },
      {
        ...emulatorConfig(emulator()),
        "quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
        "quickstart:networkName": { value: "e2e-mainnet" },
        "quickstart:faucetAddress": { value: emulator().fixtures.faucetAddress },
      },
    );
    feedApp = await run.stack(
      { stackName, workDir: path.join(examples, "feed-app") },
      { "feed-app:quickstartStack": { value: `organization/quickstart/${stackName}` } },
    );
  }, STEP_TIMEOUT);

  test(
    "up adopts and renames the network, looks up its nodes and requests tokens; secrets stay secret",
    async () => {
      const result = await quickstart.up(run.recorded("up"));
      expect(result.summary.result).toBe("succeeded");
      expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe("e2e-mainnet");

      const outputs = result.outputs;
      expect(outputs.networkName).toEqual({ value: "e2e-mainnet", secret: false });
      expect(outputs.protocol.secret).toBe(false);
      expect(outputs.nodeCount.value).toBeGreaterThan(1);
      expect(outputs.nodes.secret).toBe(false);
      for (const node of outputs.nodes.value as { id: string }[]) expect(node.id).toMatch(/^ND-/);
      for (const key of ["firstNodeHttpsEndpoint", "firstNodeWssEndpoint", "firstNodeAuthKey"]) {
        expect(outputs[key].secret).toBe(true);
      }
      expect(outputs.firstNodeHttpsEndpointMasked.secret).toBe(false);
      expect(outputs.firstNodeHttpsEndpointMasked.value).toContain("***");
      expect(outputs.faucetAmountSentWei).toEqual({ value: "500000000000000000", secret: false });
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "preview right after up shows no changes at all, and refresh expects none",
    async () => {
      const preview = await quickstart.preview({
        expectNoChanges: true,
        diff: true,
        ...run.recorded("preview"),
      });
      expect(changes(preview.changeSummary)).toEqual([]);
      expect(preview.stdout).not.toContain("__provider");
      const refresh = await quickstart.refresh({ expectNoChanges: true, ...run.recorded("refresh") });
      expect(refresh.summary.result).toBe("succeeded");
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "feed-app reads the endpoints through a StackReference and they stay secret",
    async () => {
      const result = await feedApp.up(run.recorded("feed-app up"));
      expect(result.outputs.appEnvironment.secret).toBe(true);
      const env = JSON.parse(result.outputs.appEnvironment.value as string);
      expect(env.RPC_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);
      expect(emulator().secrets()).toContain(env.RPC_URL);
      expect(result.outputs.rpcUrlForDisplay).toMatchObject({ secret: false });
      expect(result.outputs.rpcUrlForDisplay.value).toContain("***");
      expect(result.outputs.network).toEqual({ value: "e2e-mainnet", secret: false });
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "destroy leaves the retained network in place and the faucet sent exactly once",
    async () => {
      await feedApp.destroy(run.recorded("feed-app destroy"));
      const result = await quickstart.destroy(run.recorded("destroy"));
      expect(result.summary.result).toBe("succeeded");
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)).toBeDefined();
      const sends = emulator()
        .faucetSends()
        .filter((s) => s.address === emulator().fixtures.faucetAddress);
      expect(sends).toHaveLength(1);
      audit();
    },
    STEP_TIMEOUT,
  );
});
