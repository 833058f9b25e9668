/**
 * The README's quick look run by the CLI: its outputs; its lookup `dependsOn` the network (nothing
 * read in the preview that creates it); no running node ends in one line. A `parent`'s wait line.
 */
import { NETWORK_WITH_NODES_NODE_IDS } from "../../src/emulator";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { EngineRun } from "../helpers/engine-run";
import { diagnostics, occurrences, programProject } from "../helpers/program-project";
import { readmeBlock } from "../helpers/readme";

const STEP_TIMEOUT = 180_000;

const PARENT_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { getNodesOutput } from "pulumi-blockchain-nodes";

class App extends pulumi.ComponentResource {
  constructor(name: string) {
    super("e2e:index:App", name);
    this.registerOutputs({});
  }
}
const app = new App("app");
const nodes = getNodesOutput({ network: "NW-100-000-1" }, { parent: app });
export const names = pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name)));
`;

describeWithEngine()("invoke options under the real engine", () => {
  let run: EngineRun;
  const emulator = withEmulator();
  const requests = () =>
    emulator()
      .requests()
      .map((r) => `${r.method} ${r.route}`);

  beforeAll(async () => {
    run = await EngineRun.start();
  }, STEP_TIMEOUT);
  afterAll(() => run?.sandbox.cleanup());

  test(
    "the README quick look: unknown in preview, read after the delayed update, its outputs, one line when no node runs, destroy keeps the network",
    async () => {
      const dir = programProject("invoke-quick-look", readmeBlock("export = async () =>"));
      await run.initStack(dir, "invoke", emulator());

      emulator().setRouteDelays({ networkUpdateMs: 1000 });
      emulator().resetRequests();
      try {
        await run.ok(dir, ["up", "--yes", "--non-interactive"]);
      } finally {
        emulator().setRouteDelays({});
      }
      // Its preview reads nothing (the network is to be created: the lookup is unknown), then the
      // update reads the node only once the network's delayed updates have been answered.
      const log = requests();
      const lastUpdate = log.lastIndexOf("PATCH /v1/networks/{id}/");
      expect(lastUpdate).toBeGreaterThanOrEqual(0);
      expect(log.indexOf("GET /v1/nodes/{id}/")).toBeGreaterThan(lastUpdate);
      expect(emulator().admin.getNetwork("NW-100-000-1")!.name).toBe("mainnet");
      // Its outputs: readable names, the endpoint secret, a masked twin for display.
      const out = await (await run.stack({ stackName: "invoke", workDir: dir })).outputs();
      const beacon = emulator().admin.getNode("ND-100-000-001")!.details.https_endpoint;
      expect(out.rpcUrl).toEqual({ secret: true, value: beacon });
      expect(out.nodeNames).toMatchObject({
        secret: false,
        value: expect.arrayContaining([expect.any(String)]),
      });
      expect(out.rpcUrlForDisplay).toMatchObject({ secret: false, value: expect.stringContaining("***") });

      for (const id of NETWORK_WITH_NODES_NODE_IDS) emulator().admin.setNodeStatus(id, "stopped");
      try {
        const result = await run.cli(dir, ["preview", "--non-interactive"]);
        expect(result.code).not.toBe(0);
        const line = "No running node of NW-100-000-1 shows an HTTPS endpoint to this key.";
        // Once among the diagnostics (the progress row of the stack echoes it as its status).
        expect(occurrences(diagnostics(result.output), `error: ${line}`)).toBe(1);
        expect(result.output).not.toMatch(/TypeError|unhandled exception|\n\s+at /);
      } finally {
        for (const id of NETWORK_WITH_NODES_NODE_IDS) emulator().admin.setNodeStatus(id, "running");
      }
      // destroy forgets the network: it stays in the service.
      await run.ok(dir, ["destroy", "--yes", "--non-interactive"]);
      expect(emulator().admin.getNetwork("NW-100-000-1")).toBeDefined();
      run.audit(emulator().secrets());
    },
    STEP_TIMEOUT,
  );

  test(
    "parent: the lookup's wait line is shown under that resource",
    async () => {
      const dir = programProject("invoke-parent", PARENT_PROGRAM);
      await run.initStack(dir, "invoke", emulator());
      emulator().enqueueFaults([
        { status: 429, retryAfter: "1", match: { method: "GET", path: "/v1/nodes/" } },
      ]);
      const output = await run.ok(dir, ["preview", "--non-interactive"]);
      expect(output).toMatch(/ {2}e2e:index:App \(app\):\n {4}\S+: the service answered 429; waiting 1 s/);
    },
    STEP_TIMEOUT,
  );
});
