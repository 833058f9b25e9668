/**
 * Results that compose, under the real engine against the emulator: the three snippets of
 * getNodeConnectionsOutput use, the README's Functions block and its "Quick look" program.
 */
import * as fs from "fs";
import * as path from "path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { NodeServiceClient } from "../../src/api";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { emulatorConfig, EngineRun } from "../helpers/engine-run";
import { programProject } from "../helpers/program-project";
import { compileReadmeBlock, readmeBlock } from "../helpers/readme";

const STEP_TIMEOUT = 240_000;
const TO_JSON_TEXT = "Calling [toJSON] on an [Output<T>]";
const NETWORK = "NW-100-000-1";
const BEACON = "ND-100-000-001";

const SNIPPETS_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { getNodeConnectionsOutput, getNodes, getNodesOutput } from "pulumi-blockchain-nodes";

export = async () => {
  const conns = getNodeConnectionsOutput({ network: "${NETWORK}", orderBy: "name" });
  const nodes = getNodesOutput({ network: "${NETWORK}", orderBy: "name" });
  const firstName = (await getNodes({ network: "${NETWORK}", orderBy: "name" }))[0].name;
  return {
    rpcJson: conns.apply((cs) => JSON.stringify(cs.map((c) => ({ rpc: c.httpsEndpoint })))),
    rpcEnv: conns.apply((cs) => \`RPC_URL=\${cs[0].httpsEndpoint}\`),
    rpcInterpolated: pulumi.interpolate\`RPC_URL=\${conns[0].httpsEndpoint}\`,
    names: pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name))),
    masked: pulumi.unsecret(nodes.apply((ns) => JSON.stringify(ns.map((n) => ({ rpc: n.httpsEndpointMasked }))))),
    nodesRpc: nodes.apply((ns) => ns[0].httpsEndpoint),
    firstName: \`first: \${firstName}\`,
  };
};
`;

/** The README's Functions block as a program returning its exports. */
function readmeFunctionsProgram(): string {
  const lines = readmeBlock("export const dotenv =").split("\n");
  const body = lines
    .filter((l) => !l.startsWith("import "))
    .map((l) => `  ${l.replace(/^export const (\w+) =/, "out.$1 =")}`);
  return [
    ...lines.filter((l) => l.startsWith("import ")),
    "export = async () => {",
    "  const out: Record<string, unknown> = {};",
    ...body,
    "  return out;",
    "};",
  ].join("\n");
}

describeWithEngine()("results that compose, under the real engine", () => {
  let run: EngineRun;
  const configFiles: string[] = [];
  const audit = () => run.audit(emulator().secrets(), configFiles);
  const beacon = () => emulator().admin.getNode(BEACON)!.details.https_endpoint;

  afterAll(() => run?.close(), STEP_TIMEOUT);
  const emulator = withEmulator();
  beforeAll(async () => {
    run = await EngineRun.start();
  }, STEP_TIMEOUT);

  test(
    "the three snippets and the README's Functions block: correct values, secret, no toJSON text, no leak",
    async () => {
      const stacks = [];
      for (const [name, code] of [
        ["compose-snippets", SNIPPETS_PROGRAM],
        ["compose-readme", readmeFunctionsProgram()],
      ]) {
        const workDir = programProject(name, code);
        configFiles.push(path.join(workDir, "Pulumi.compose.yaml"));
        const stack = await run.stack({ stackName: "compose", workDir }, emulatorConfig(emulator()));
        expect((await stack.up(run.recorded(`${name} up`))).summary.result).toBe("succeeded");
        stacks.push(await stack.outputs());
      }
      const [out, readmeOut] = stacks;

      // The truth, read with the client itself, in the same order.
      const client = new NodeServiceClient({ apiUrl: emulator().url, apiKey: emulator().apiKey });
      const details = (await client.listAllNodes({ network: NETWORK, orderBy: "name" }, { limit: 100 })).map(
        (n) => n.details,
      );
      const runningNodes = await client.listAllNodes(
        { network: NETWORK, status: "running", orderBy: "name" },
        { limit: 100 },
      );
      const running = runningNodes.map((n) => n.details);
      expect(details.length).toBeGreaterThan(1);

      for (const [outputs, keys] of [
        [out, ["rpcJson", "rpcEnv", "rpcInterpolated"]],
        [readmeOut, ["rpcUrls", "dotenv", "rpcEnv"]],
      ] as const) {
        for (const key of keys) {
          expect(outputs[key].secret).toBe(true);
          expect(outputs[key].value).not.toContain(TO_JSON_TEXT);
        }
      }
      expect(JSON.parse(out.rpcJson.value)).toEqual(details.map((d) => ({ rpc: d.httpsEndpoint })));
      expect(out.rpcEnv.value).toBe(`RPC_URL=${details[0].httpsEndpoint}`);
      expect(out.rpcInterpolated.value).toBe(`RPC_URL=${details[0].httpsEndpoint}`);
      expect(out.nodesRpc).toEqual({ secret: true, value: details[0].httpsEndpoint });
      expect(out.names.secret).toBe(false);
      expect(out.masked.secret).toBe(false);
      expect(out.masked.value).toContain("***");
      expect(out.firstName).toEqual({ value: `first: ${(out.names.value as string[])[0]}`, secret: false });

      expect(JSON.parse(readmeOut.rpcUrls.value)).toEqual(running.map((d) => ({ rpc: d.httpsEndpoint })));
      expect(readmeOut.dotenv.value).toBe(
        `RPC_URL=${running[0].httpsEndpoint}\nWS_URL=${running[0].wssEndpoint}`,
      );
      expect(readmeOut.rpcEnv.value).toBe(`RPC_URL=${beacon()}`);
      expect(readmeOut.rpcUrl).toEqual({ secret: true, value: beacon() });
      expect(readmeOut.names).toEqual({ secret: false, value: runningNodes.map((n) => n.name) });

      expect(Object.values(run.transcript).join("")).not.toContain(TO_JSON_TEXT);
      audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "the README's quick look: readable names, a secret endpoint and a masked twin; destroy leaves the network",
    async () => {
      const program: PulumiFn = require(
        compileReadmeBlock("quick-look", readmeBlock("export = async () =>")),
      );
      const workDir = path.join(run.sandbox.dir, "quick-look");
      fs.mkdirSync(workDir);
      const stack = await run.stack(
        { stackName: "readme", projectName: "readme", program, workDir },
        emulatorConfig(emulator()),
      );
      const up = await stack.up(run.recorded("quick look up"));
      expect(up.outputs.nodeNames.secret).toBe(false);
      expect((up.outputs.nodeNames.value as string[]).length).toBeGreaterThan(0);
      expect(up.outputs.rpcUrl).toEqual({ secret: true, value: beacon() });
      expect(up.outputs.rpcUrlForDisplay).toMatchObject({ secret: false });
      expect(up.outputs.rpcUrlForDisplay.value).toContain("***");
      const destroy = await stack.destroy(run.recorded("quick look destroy"));
      expect(destroy.summary.result).toBe("succeeded");
      expect(emulator().admin.getNetwork(NETWORK)).toBeDefined();
      audit();
    },
    STEP_TIMEOUT,
  );
});
