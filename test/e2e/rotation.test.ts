/**
 * The CI guide's pipeline (docs/ci.md) when the service rotates credentials: an infra stack's
 * functions deliver a node's new endpoint, proven (`verify`), to an app stack (StackReference) in
 * one run, and stop the pipeline before the app job when the node serves another chain or stalls; while
 * `Network.connections` follows on `up --refresh`; a rotated organization key is refused at
 * preview, naming its source; no credential, old or new, leaks.
 */
import { spawn } from "child_process";
import type { ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { secretValues } from "../../src/model";
import type { WireNode } from "../../src/model";
import type { StartInfo } from "../../src/emulator/cli";
import { findSecrets } from "../helpers/audit";
import { describeWithEngine, filesUnder, EngineRun } from "../helpers/engine";
import { programProject } from "../helpers/program-project";

const STEP_TIMEOUT = 300_000;
const ROOT = path.resolve(__dirname, "..", "..");
const NETWORK = "NW-100-000-1";
const NODE = "ND-100-000-001";

/** `blockchain-nodes-emulator --json --port 0` in a child process: what it printed on start. */
async function emulatorProcess(): Promise<{ info: StartInfo; child: ChildProcess }> {
  const cli = path.join(ROOT, "dist", "emulator", "cli.js");
  const child = spawn(process.execPath, [cli, "--json", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.on("exit", (code) => reject(new Error(`${cli} exited with ${code} (npm run build first)`)));
  });
  return { info: JSON.parse(line) as StartInfo, child };
}

const INFRA = `
import { getNodeOutput, getNodesOutput, Network } from "pulumi-blockchain-nodes";

const network = new Network("main", { networkId: "${NETWORK}" }, { retainOnDelete: true });

// Read from the service on every run, and proven: it answers on its network's chain, head fresh.
export const rpcUrl = getNodeOutput({ id: "${NODE}", verify: true }).httpsEndpoint;
export const wsUrls = getNodesOutput({ network: network.networkId, orderBy: "name" }).apply((ns) =>
  JSON.stringify(ns.map((n) => n.wssEndpoint)),
);
// A resource output: a snapshot of the last create or refresh.
export const snapshotRpcUrl = network.connections.apply(
  (cs) => cs.find((c) => c.id === "${NODE}")?.httpsEndpoint ?? "",
);
`;

const APP = (deployedFile: string) => `
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";

const infra = new pulumi.StackReference(new pulumi.Config().require("infraStack"));

type Deployed = { environment: string };

// A stand-in for a deploy step: writes the app's environment where the app reads it.
const deployer: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Deployed) {
    fs.writeFileSync(${JSON.stringify(deployedFile)}, inputs.environment);
    return { id: "app", outs: inputs };
  },
  async diff(_id: string, olds: Deployed, news: Deployed) {
    return { changes: olds.environment !== news.environment };
  },
  async update(_id: string, _olds: Deployed, news: Deployed) {
    fs.writeFileSync(${JSON.stringify(deployedFile)}, news.environment);
    return { outs: news };
  },
};

class Deployment extends pulumi.dynamic.Resource {
  constructor(name: string, args: { environment: pulumi.Input<string> }) {
    super(deployer, name, args, { additionalSecretOutputs: ["environment"] });
  }
}

new Deployment("app", {
  environment: pulumi.interpolate\`RPC_URL=\${infra.requireOutput("rpcUrl")}\\nWS_URLS=\${infra.requireOutput("wsUrls")}\\n\`,
});
`;

describeWithEngine()("a rotated credential through the infra -> app pipeline, under the real engine", () => {
  let run: EngineRun;
  let emulator: { info: StartInfo; child: ChildProcess } | undefined;

  beforeAll(async () => {
    emulator = await emulatorProcess();
    run = await EngineRun.start();
  }, STEP_TIMEOUT);

  afterAll(() => {
    emulator?.child.kill("SIGTERM");
    run?.sandbox.cleanup();
  });

  async function http(url: string, key: string, method = "GET", body?: unknown): Promise<unknown> {
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  }
  /** Every node of the network, following the pages' `next` links. */
  async function networkNodes(): Promise<WireNode[]> {
    const nodes: WireNode[] = [];
    for (let next: string | null = `${emulator!.info.url}/v1/nodes/?network=${NETWORK}`; next;) {
      const page = (await http(next, emulator!.info.apiKey)) as {
        results: WireNode[];
        next: string | null;
      };
      nodes.push(...page.results);
      next = page.next;
    }
    return nodes;
  }

  test(
    "one pipeline run delivers the rotated endpoint to the app; Network.connections follows on up --refresh; no credential leaks",
    async () => {
      // The CI job's environment: the settings of the node service come from its secrets.
      const env = { BLOCKCHAIN_API_URL: emulator!.info.url, BLOCKCHAIN_API_KEY: emulator!.info.apiKey };
      const infra = programProject("rotation-infra", INFRA);
      const deployedFile = path.join(run.sandbox.dir, "app.env");
      const app = programProject("rotation-app", APP(deployedFile));
      await run.ok(infra, ["stack", "init", "ci"]);
      await run.ok(app, ["stack", "init", "ci"]);
      await run.ok(app, ["config", "set", "infraStack", "organization/e2e-rotation-infra/ci"]);

      const up = async (dir: string, label: string, ...extra: string[]) => {
        const result = await run.cli(
          dir,
          ["up", "--yes", "--non-interactive", "--skip-preview", ...extra],
          label,
          env,
        );
        if (result.code !== 0) throw new Error(`${label} exited with ${result.code}:\n${result.output}`);
        return result.output;
      };
      /** The infra stack's outputs in plaintext (left out of the audit below). */
      const infraOutputs = async () =>
        JSON.parse(
          await run.ok(infra, ["stack", "output", "--json", "--show-secrets"], "revealed outputs"),
        ) as Record<string, string>;
      const pipeline = async (label: string) => {
        await up(infra, `${label}: infra up`);
        return up(app, `${label}: app up`);
      };

      const nodesBefore = await networkNodes();
      const before = nodesBefore.find((n) => n.id === NODE)!;
      const oldEndpoint = before.details.https_endpoint as string;
      const oldSecrets = nodesBefore.flatMap((n) => secretValues(n.details));

      await pipeline("first run");
      expect(fs.readFileSync(deployedFile, "utf8")).toContain(`RPC_URL=${oldEndpoint}\n`);

      // The service rotates the node's credentials (driven from this process, over HTTP).
      const after = (await http(
        `${emulator!.info.url}/_emulator/nodes/${NODE}/rotate-credentials`,
        emulator!.info.adminKey,
        "POST",
      )) as WireNode;
      const newEndpoint = after.details.https_endpoint as string;
      const newSecrets = secretValues(after.details);
      expect(newEndpoint).not.toBe(oldEndpoint);
      expect(after.details.auth_key).not.toBe(before.details.auth_key);

      // One pipeline run: the functions read the service, so the app gets the new endpoint.
      const appUp = await pipeline("after the rotation");
      expect(appUp).toMatch(/1 updated/);
      const deployed = fs.readFileSync(deployedFile, "utf8");
      expect(deployed).toContain(`RPC_URL=${newEndpoint}\n`);
      expect(deployed).not.toContain(oldEndpoint);
      // Network.connections is a snapshot: a plain up keeps the revoked credential...
      expect(await infraOutputs()).toMatchObject({ rpcUrl: newEndpoint, snapshotRpcUrl: oldEndpoint });
      // ...until up --refresh reads the network again.
      await up(infra, "infra up --refresh", "--refresh");
      expect(await infraOutputs()).toMatchObject({ rpcUrl: newEndpoint, snapshotRpcUrl: newEndpoint });

      // The node goes bad: the infra job stops with one line naming why, and the app job never runs.
      const rehearse = (behaviour: object) =>
        http(
          `${emulator!.info.url}/_emulator/nodes/${NODE}/endpoint`,
          emulator!.info.adminKey,
          "PUT",
          behaviour,
        );
      const gate = `getNodeOutput: ${NODE} failed its endpoint check:`;
      await rehearse({ chainId: "5" });
      await expect(pipeline("a node serving another chain")).rejects.toThrow(
        `${gate} wrong chain: it serves 5, ethereum-mainnet is 1. Point the app at a node of the right network`,
      );
      await rehearse({ chainId: null, stalledSeconds: 900 });
      await expect(pipeline("a stalled node")).rejects.toThrow(
        new RegExp(`${gate} its head block \\d+ is 90\\d s old \\(at most 120 s accepted\\)`),
      );
      expect(fs.readFileSync(deployedFile, "utf8")).toBe(deployed);
      await rehearse({ stalledSeconds: null });

      // The service rotates the organization's key: the job's old secret is refused at preview, in one line.
      const { apiKey } = (await http(
        `${emulator!.info.url}/_emulator/keys/${emulator!.info.ids.organization}/rotate`,
        emulator!.info.adminKey,
        "POST",
      )) as { apiKey: string };
      const refused = await run.cli(infra, ["preview", "--non-interactive"], "preview with the old key", env);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(
        "The API key was refused; it came from the environment variable BLOCKCHAIN_API_KEY: ",
      );

      const secrets = [emulator!.info.apiKey, apiKey, ...oldSecrets, ...newSecrets];
      const files = filesUnder(run.sandbox.backendDir);
      expect(files.some((f) => f.includes(`${path.sep}stacks${path.sep}`) && f.endsWith(".json"))).toBe(true);
      const printed = Object.fromEntries(
        Object.entries(run.transcript).filter(([label]) => !label.includes("revealed")),
      );
      expect(findSecrets(secrets, { files, texts: printed })).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
