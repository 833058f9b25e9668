/**
 * A Network in a program on disk: its outputs, drift you can read, what destroy and a new networkId
 * send, a key passed as an argument, a network deleted out of band.
 */
import * as fs from "fs";
import * as path from "path";
import type { OutputMap, Stack } from "@pulumi/pulumi/automation";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, filesUnder, emulatorConfig, EngineRun } from "../helpers/engine";
import { diagnosed, diagnosticLines, errorsWith, TRACE } from "../helpers/diagnostics";
import { programProject } from "../helpers/program-project";
import { SECRET_SIG, SIG_KEY } from "../helpers/plugin-client";

// Each engine step (a test, a hook) may take minutes.
jest.setTimeout(240_000);
const STACK = "drift";
const NETWORK_TYPE = "pulumi-nodejs:dynamic/blockchain:Network";

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Network } from "pulumi-blockchain-nodes";

export = async () => {
  const config = new pulumi.Config("drift");
  const network = new Network(
    "main",
    {
      networkId: config.require("networkId"),
      name: config.require("name"),
      apiKey: config.getSecret("explicitKey"),
      forceDestroy: config.getBoolean("forceDestroy"),
    },
  );
  return {
    name: network.name,
    nodeNames: network.nodes.apply((ns) => ns.map((n) => n.name)),
    nodeStatuses: network.nodes.apply((ns) => ns.map((n) => \`\${n.id}: \${n.status} in \${n.region}\`)),
    firstMasked: network.nodes.apply((ns) => ns[0]?.httpsEndpointMasked ?? ""),
    rpcUrls: network.connections.apply((cs) => JSON.stringify(cs.map((c) => ({ id: c.id, rpc: c.httpsEndpoint })))),
    firstRpc: pulumi.interpolate\`RPC_URL=\${network.connections[0].httpsEndpoint}\`,
  };
};
`;

describeWithEngine()("a Network's outputs and drift under the real engine", () => {
  let run: EngineRun;
  let stack: Stack;
  const audit = () => run.audit(emulator().secrets());

  afterAll(() => run?.close());
  const emulator = withEmulator();
  const requests = () => emulator().requests();
  const deletes = () => requests().filter((r) => r.method === "DELETE");
  /** A stack of PROGRAM: the network with nodes named "declared-name", unless `config` says otherwise. */
  const driftStack = (name: string, config: Record<string, { value: string; secret?: boolean }>) =>
    run.stack(
      { stackName: name, workDir: programProject(name === STACK ? "drift" : `drift-${name}`, PROGRAM) },
      {
        ...emulatorConfig(emulator()),
        "drift:networkId": { value: emulator().fixtures.networkWithNodes },
        "drift:name": { value: "declared-name" },
        ...config,
      },
    );
  beforeAll(async () => {
    run = await EngineRun.start();
    stack = await driftStack(STACK, {});
  });

  test("nodes are readable (the functions' shape), connections are secret as a whole, state holds no secret", async () => {
    const up = await stack.up(run.recorded("up"));
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    const out = up.outputs;
    const wire = emulator()
      .admin.getNetwork(emulator().fixtures.networkWithNodes)!
      .nodes.map((n) => emulator().admin.getNode(n.id)!);
    expect(out.name).toEqual({ value: "declared-name", secret: false });
    expect(out.nodeNames.secret).toBe(false);
    expect([...(out.nodeNames.value as string[])].sort()).toEqual(wire.map((n) => n.name).sort());
    expect(out.nodeStatuses.secret).toBe(false);
    expect(out.nodeStatuses.value[0]).toMatch(/^ND-[\d-]+: running in [a-z0-9-]+$/);
    expect(out.firstMasked.secret).toBe(false);
    expect(out.firstMasked.value).toContain("***");
    for (const key of ["rpcUrls", "firstRpc"]) expect(out[key].secret).toBe(true);
    const rpcUrls = JSON.parse(out.rpcUrls.value as string) as Array<{ id: string; rpc: string }>;
    for (const { id, rpc } of rpcUrls) expect(rpc).toBe(emulator().admin.getNode(id)!.details.https_endpoint);
    expect(out.firstRpc.value).toBe(`RPC_URL=${rpcUrls[0].rpc}`);
    audit();
  });

  test("a node's credentials rotated: connections is a snapshot a plain up keeps; after an out-of-band rename, refresh reads both, preview --diff shows the name as old => new", async () => {
    const node = emulator().fixtures.beaconNode;
    const endpointOf = (outputs: OutputMap) =>
      (JSON.parse(outputs.rpcUrls.value as string) as { id: string; rpc: string }[]).find(
        (c) => c.id === node,
      )!.rpc;
    const old = emulator().admin.getNode(node)!.details.https_endpoint;
    const rotated = emulator().admin.rotateCredentials(node)!.details.https_endpoint;
    expect(rotated).not.toBe(old);
    expect(endpointOf((await stack.up(run.recorded("up after a rotation"))).outputs)).toBe(old);

    emulator().admin.renameNetwork(emulator().fixtures.networkWithNodes, "renamed-in-console");
    const refresh = await stack.refresh(run.recorded("refresh"));
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });

    const preview = await stack.preview({ diff: true, ...run.recorded("preview --diff") });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.changeSummary.replace).toBeUndefined();
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/blockchain:Network: \(update\)/);
    expect(preview.stdout).toMatch(/~ name\s*: "renamed-in-console" => "declared-name"/);
    // Only the name changes: the id is shown as it is, without an arrow.
    expect(preview.stdout).toMatch(/^\s+networkId\s*: "NW-100-000-1"$/m);
    expect(preview.stdout).not.toContain("__provider");

    const up = await stack.up(run.recorded("up restore"));
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(endpointOf(up.outputs)).toBe(rotated);
    expect(emulator().admin.getNetwork(emulator().fixtures.networkWithNodes)!.name).toBe("declared-name");
    const again = await stack.preview({ diff: true, ...run.recorded("preview after up") });
    expect(Object.keys(again.changeSummary).filter((k) => k !== "same")).toEqual([]);
    audit();
  });

  test("a key argument shows as [secret] in the diff; a networkId change (old => new, a replacement) adopts the new network and releases the old one untouched: no DELETE by default, one with forceDestroy, sent with the key in state; a key argument is stored only encrypted; a network deleted out of band leaves the stack at refresh, named in one warning", async () => {
    const [first, second] = [emulator().fixtures.emptyNetwork, emulator().fixtures.secondEmptyNetwork];
    // The key as an argument; the stack config's is wrong, so every call of this stack uses the
    // argument's, and a delete the one in state.
    const adopt = await driftStack("adopt", {
      "blockchain:apiKey": { value: "not-the-key-0000", secret: true },
      "drift:explicitKey": { value: emulator().apiKey, secret: true },
      "drift:networkId": { value: first },
      "drift:name": { value: "adopted" },
    });
    const network = async () =>
      (
        (await adopt.exportStack()).deployment.resources as { type: string; inputs: { apiKey?: object } }[]
      ).filter((r) => r.type === NETWORK_TYPE);
    const create = await adopt.preview({ diff: true, ...run.recorded("preview adopt") });
    expect(create.stdout).toMatch(/^\s*\+? *apiKey\s*: \[secret\]$/m);
    await adopt.up(run.recorded("up adopt"));
    // A Pulumi secret in state (the backend's files are audited below), and no change to
    // preview, before and after a refresh.
    expect((await network())[0].inputs.apiKey).toMatchObject({ [SIG_KEY]: SECRET_SIG });
    const noChange = async (label: string) =>
      expect(Object.keys((await adopt.preview(run.recorded(label))).changeSummary)).toEqual(["same"]);
    await noChange("preview adopted");
    await adopt.refresh(run.recorded("refresh adopt"));
    await noChange("preview refreshed");

    emulator().resetRequests();
    await adopt.setConfig("drift:networkId", { value: second });
    const replace = await adopt.preview({ diff: true, ...run.recorded("preview re-point") });
    expect(replace.changeSummary).toMatchObject({ replace: 1 });
    expect(replace.stdout).toMatch(new RegExp(`networkId\\s*: "${first}" => "${second}"`));
    const replaced = await adopt.up(run.recorded("up re-point"));
    expect(replaced.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(deletes()).toEqual([]);
    expect(emulator().admin.getNetwork(first)!.name).toBe("adopted");

    // The opt-in shows in the preview and is stored by an update in place; then a re-point deletes the old one.
    await adopt.setConfig("drift:forceDestroy", { value: "true" });
    const optIn = await adopt.preview({ diff: true, ...run.recorded("preview forceDestroy") });
    expect(optIn.changeSummary).toMatchObject({ update: 1 });
    expect(optIn.stdout).toMatch(/\+ forceDestroy\s*: true/);
    await adopt.up(run.recorded("up forceDestroy"));
    await adopt.setConfig("drift:networkId", { value: first });
    await adopt.up(run.recorded("up re-point forced"));
    expect(deletes().map((r) => r.path)).toEqual([`/v1/networks/${second}/`]);
    expect(emulator().admin.getNetwork(second)).toBeUndefined();

    // Deleted out of band: refresh drops it from state, with one warning naming it.
    emulator().admin.deleteNetwork(first);
    const refresh = await adopt.refresh(run.recorded("refresh deleted"));
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    expect(diagnosticLines(refresh.stdout, "warning:", first)).toHaveLength(1);
    expect(await network()).toEqual([]);
    audit();
  });

  test("a refused delete (forceDestroy) says what works, once, without a trace; without it, destroy forgets the network", async () => {
    const id = emulator().fixtures.networkWithNodes;
    await stack.setConfig("drift:forceDestroy", { value: "true" });
    await stack.up(run.recorded("up forceDestroy"));
    emulator().resetRequests();
    const text = await run.failure("destroy refused", (options) => stack.destroy(options));
    expect(deletes()).toHaveLength(1);
    // One error naming the network (409), then the way out: forceDestroy removed, then destroy.
    expect(errorsWith(text, id)).toEqual([expect.stringContaining("409")]);
    expect(diagnosed(text)).toMatch(/forceDestroy[\s\S]*pulumi destroy/);
    expect(text).not.toMatch(TRACE);
    const state = (await stack.exportStack()).deployment.resources as { type: string; id?: string }[];
    expect(state.filter((r) => r.id === id)).toHaveLength(1);
    expect(emulator().admin.getNetwork(id)).toBeDefined();

    // As the hint says: the opt-in removed and stored by `up`, a plain destroy forgets the network.
    await stack.removeConfig("drift:forceDestroy");
    await stack.up(run.recorded("up without forceDestroy"));
    const plain = await stack.destroy(run.recorded("destroy"));
    expect(plain.summary.result).toBe("succeeded");
    expect(deletes()).toHaveLength(1);
    expect(emulator().admin.getNetwork(id)).toBeDefined();
    audit();
  });

  test("a plain-text API key refuses the run before anything is registered: only the engine's record of the update's config holds it", async () => {
    const plain = await driftStack("plain", { "blockchain:apiKey": { value: emulator().apiKey } });
    const text = await run.failure("up plain-text key", (options) => plain.up(options));
    // One line naming the setting, the command that stores it encrypted, and a rotation.
    expect(errorsWith(text, "blockchain:apiKey")).toEqual([
      expect.stringMatching(/--secret blockchain:apiKey.*rotate/),
    ]);
    expect(text).not.toMatch(TRACE);
    // The engine writes each update's stack config into its history record, whatever the program
    // does (hence "rotate" in the message); nothing else of the backend holds the key.
    const holds = (f: string) => fs.readFileSync(f, "utf8").includes(emulator().apiKey);
    const holding = filesUnder(run.sandbox.backendDir).filter(holds);
    expect(holding.map((f) => path.basename(f))).toEqual([
      expect.stringMatching(/^plain-\d+\.history\.json$/),
    ]);
    const { config, ...rest } = JSON.parse(fs.readFileSync(holding[0], "utf8")) as { config: object };
    expect(JSON.stringify(config)).toContain(emulator().apiKey);
    expect(JSON.stringify(rest)).not.toContain(emulator().apiKey);
    await plain.setConfig("blockchain:apiKey", { value: emulator().apiKey, secret: true });
    expect((await plain.up(run.recorded("up encrypted key"))).summary.result).toBe("succeeded");
    const after = filesUnder(run.sandbox.backendDir).filter((f) => !holding.includes(f));
    expect(after.filter(holds)).toEqual([]);
  });
});
