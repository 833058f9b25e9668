/**
 * End to end: the quickstart and feed-app examples run from their folders by the real Pulumi
 * engine (Automation API, through the nodejs language host, as `pulumi up` would), against the
 * emulator, with a secrets audit of the backend's files and of all engine output after each step.
 */
import * as fs from "fs";
import * as path from "path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineSandbox, engineSandbox, filesUnder } from "../helpers/engine";

const examples = path.resolve(__dirname, "..", "..", "examples");
const STEP_TIMEOUT = 240_000;

describeWithEngine()("quickstart and feed-app under the real engine", () => {
  let sandbox: EngineSandbox;
  let quickstart: Stack;
  let feedApp: Stack;
  const stackName = `e2e${process.pid}`;
  const transcript: Record<string, string> = {};
  let step = 0;

  /** Options that record everything the engine prints for the audit. */
  function recorded(label: string) {
    const key = `${++step}-${label}`;
    transcript[key] = "";
    return {
      onOutput: (out: string) => (transcript[key] += out),
      onError: (err: string) => (transcript[key] += err),
    };
  }

  function audit(): void {
    const files = [
      ...filesUnder(sandbox.backendDir),
      ...["quickstart", "feed-app"]
        .map((ex) => path.join(examples, ex, `Pulumi.${stackName}.yaml`))
        .filter((f) => fs.existsSync(f)),
    ];
    expect(files.some((f) => f.endsWith(`${stackName}.json`))).toBe(true);
    expect(findSecrets(emulator().secrets(), { files, texts: transcript })).toEqual([]);
  }

  // Registered before withEmulator(): afterAll hooks run in the order they are registered, so the
  // stacks are destroyed while the emulator still answers.
  afterAll(async () => {
    for (const stack of [feedApp, quickstart]) {
      if (!stack) continue;
      await stack.destroy({ ...recorded("cleanup") }).catch(() => undefined);
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    }
    for (const ex of ["quickstart", "feed-app"])
      fs.rmSync(path.join(examples, ex, `Pulumi.${stackName}.yaml`), { force: true });
    sandbox?.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    sandbox = await engineSandbox();
    const opts = { pulumiCommand: sandbox.command, envVars: sandbox.envVars };
    quickstart = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: path.join(examples, "quickstart") },
      opts,
    );
    await quickstart.setAllConfig({
      "blockchain:apiUrl": { value: emulator().url },
      "blockchain:apiKey": { value: emulator().apiKey, secret: true },
      "quickstart:networkId": { value: emulator().fixtures.networkWithNodes },
      "quickstart:networkName": { value: "e2e-mainnet" },
      "quickstart:faucetAddress": { value: emulator().fixtures.faucetAddress },
    });
    feedApp = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: path.join(examples, "feed-app") },
      opts,
    );
    await feedApp.setConfig("feed-app:quickstartStack", { value: `organization/quickstart/${stackName}` });
  }, STEP_TIMEOUT);

  test(
    "up adopts and renames the network, looks up its nodes and requests tokens; secrets stay secret",
    async () => {
      const result = await quickstart.up({ ...recorded("up") });
      expect(result.summary.result).toBe("succeeded");
      expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe("e2e-mainnet");

      const outputs = result.outputs;
      expect(outputs.networkName).toEqual({ value: "e2e-mainnet", secret: false });
      expect(outputs.protocol.secret).toBe(false);
      expect(outputs.nodeCount.value).toBeGreaterThan(1);
      expect(outputs.nodes.secret).toBe(false);
      for (const node of outputs.nodes.value as { id: string; httpsEndpoint: string }[]) {
        expect(node.id).toMatch(/^ND-/);
      }
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
      const preview = await quickstart.preview({ expectNoChanges: true, diff: true, ...recorded("preview") });
      expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
      expect(preview.stdout).not.toContain("__provider");
      const refresh = await quickstart.refresh({ expectNoChanges: true, ...recorded("refresh") });
      expect(refresh.summary.result).toBe("succeeded");
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "feed-app reads the endpoints through a StackReference and they stay secret",
    async () => {
      const result = await feedApp.up({ ...recorded("feed-app up") });
      expect(result.outputs.appEnvironment.secret).toBe(true);
      const env = JSON.parse(result.outputs.appEnvironment.value as string);
      expect(env.RPC_URL).toMatch(/^https:\/\//);
      expect(emulator().secrets()).toContain(env.RPC_URL);
      expect(result.outputs.rpcUrlForDisplay).toMatchObject({ secret: false });
      expect(result.outputs.rpcUrlForDisplay.value).toContain("***");
      expect(result.outputs.network).toEqual({ value: "e2e-mainnet", secret: false });
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "an out-of-band rename shows as drift on refresh, and up restores the name",
    async () => {
      emulator().admin.renameNetwork(emulator().fixtures.networkWithNodes, "renamed-in-console");
      const refresh = await quickstart.refresh({ ...recorded("refresh drift") });
      expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
      const up = await quickstart.up({ ...recorded("up restore") });
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe("e2e-mainnet");
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "destroy leaves the retained network in place and the faucet sent exactly once",
    async () => {
      await feedApp.destroy({ ...recorded("feed-app destroy") });
      const result = await quickstart.destroy({ ...recorded("destroy") });
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
