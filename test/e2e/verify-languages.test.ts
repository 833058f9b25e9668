/**
 * `verify` of getNode under the engine, through the plugin (bin/) in a YAML and a Python program on
 * this checkout's `plugins:` path entry: the endpoint's chain and head age are exported; a node
 * serving another chain (YAML, no stack trace) or with a stalled head (Python, `verify` as a dict
 * and as the SDK's class) makes `up` fail with the check's one message. A healthy set: YAML's
 * getNodes with `minVerified` exports the nodes that pass, the one left out in one warning; Python's
 * `min_verified` asked beyond the nodes fails in Python's spelling (the plugin runs in the program's
 * folder and reads its Pulumi.yaml). Each step audited for secrets.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { NodeEndpointBehaviour } from "../../src/emulator";
import { pythonEnv } from "../../scripts/bad-days";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { emulatorConfig, EngineRun } from "../helpers/engine-run";
import { diagnostics } from "../helpers/program-project";

const PLUGIN_DIR = path.resolve(__dirname, "..", "..", "bin");
const STEP_TIMEOUT = 240_000;
const NODE_ID = "ND-100-000-001";
const STACK = "verify";
/** No JavaScript or Python stack trace, no engine panic. */
const TRACE = /Traceback|File "|\n\s+at \S+ \(|goroutine \d+|panic:/;

/**
 * A test block on one engine sandbox and emulator: `project(name, runtime, files)` writes a project on
 * the plugin of this checkout and gives its stack; `rehearse(behaviour, step)` runs `step` with the
 * node's endpoint so and resets it after; `audit()` checks every step so far for secrets.
 */
function verifyBlock(extraEnv?: (dir: string, engineDir: string) => Record<string, string>) {
  const emulator = withEmulator();
  const state = { run: undefined as EngineRun | undefined, dir: "", configFiles: [] as string[] };
  beforeAll(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-blockchain-verify-"));
    state.run = await EngineRun.start((engineDir) => extraEnv?.(state.dir, engineDir) ?? {});
  }, STEP_TIMEOUT);
  afterAll(async () => {
    await state.run?.close();
    fs.rmSync(state.dir, { recursive: true, force: true });
  }, STEP_TIMEOUT);
  const run = () => state.run!;

  async function project(name: string, runtime: string, files: Record<string, string>): Promise<Stack> {
    const dir = path.join(run().sandbox.dir, name);
    fs.mkdirSync(dir);
    const header = `name: ${name}\nruntime: ${runtime}\nplugins:\n  providers:\n    - name: blockchain\n      path: ${PLUGIN_DIR}\n`;
    for (const [file, text] of Object.entries({
      ...files,
      "Pulumi.yaml": header + (files["Pulumi.yaml"] ?? ""),
    }))
      fs.writeFileSync(path.join(dir, file), text);
    state.configFiles.push(path.join(dir, `Pulumi.${STACK}.yaml`));
    return run().stack({ stackName: STACK, workDir: dir }, emulatorConfig(emulator()));
  }

  async function rehearse<T>(behaviour: Partial<NodeEndpointBehaviour>, step: () => Promise<T>): Promise<T> {
    const before = emulator().admin.nodeEndpoint(NODE_ID)!;
    expect(emulator().admin.setNodeEndpoint(NODE_ID, behaviour)).toBeDefined();
    try {
      return await step();
    } finally {
      emulator().admin.setNodeEndpoint(NODE_ID, { ...before, stalledSeconds: null });
    }
  }

  const audit = () => run().audit(emulator().secrets(), state.configFiles);
  return { emulator, run, project, rehearse, audit };
}

/** The node's network is ethereum-mainnet (chain 1), its endpoint answers as it should. */
function expectHealthyNode(block: ReturnType<typeof verifyBlock>): void {
  const node = block.emulator().admin.getNode(NODE_ID)!;
  expect(block.emulator().admin.getNetwork(node.network)!.configuration.network).toBe("ethereum-mainnet");
  expect(block.emulator().admin.nodeEndpoint(NODE_ID)).toMatchObject({ chainId: null, stalledSeconds: null });
}

/** `up` of a healthy node: the chain id 1 and a head age within 120 s exported, readable. */
async function expectVerifiedUp(block: ReturnType<typeof verifyBlock>, stack: Stack, label: string) {
  expectHealthyNode(block);
  const up = await stack.up(block.run().recorded(label));
  expect(up.outputs.chainId).toEqual({ value: "1", secret: false });
  expect(up.outputs.headAgeSeconds).toEqual({ value: expect.any(Number), secret: false });
  expect(up.outputs.headAgeSeconds.value).toBeLessThanOrEqual(120);
  expect(up.outputs.headAgeSeconds.value).toBeGreaterThanOrEqual(0);
  block.audit();
}

describeWithEngine(["pulumi-language-yaml"])("verify in a YAML program (fn::invoke getNode)", () => {
  const block = verifyBlock();
  let stack: Stack;
  beforeAll(async () => {
    stack = await block.project("verify-yaml", "yaml", {
      "Pulumi.yaml": [
        "variables:",
        "  node:",
        "    fn::invoke:",
        "      function: blockchain:index:getNode",
        "      arguments:",
        `        id: ${NODE_ID}`,
        "        verify: {}",
        "outputs:",
        "  chainId: ${node.verified.chainId}",
        "  headAgeSeconds: ${node.verified.headAgeSeconds}",
        "",
      ].join("\n"),
    });
  }, STEP_TIMEOUT);

  test(
    "verify: {} exports the endpoint's chain id 1 and a fresh head age",
    () => expectVerifiedUp(block, stack, "yaml up"),
    STEP_TIMEOUT,
  );

  test(
    "the node serving chain 5: up fails with the wrong-chain message, no stack trace",
    async () => {
      const output = await block.rehearse({ chainId: "5" }, () =>
        block.run().failure("yaml up wrong chain", (o) => stack.up(o)),
      );
      expect(diagnostics(output)).toContain(
        `getNode: ${NODE_ID} failed its endpoint check: wrong chain: it serves 5, ethereum-mainnet is 1. ` +
          "Point the app at a node of the right network, or pass verify.expectedChainId if this chain is intended.",
      );
      expect(output).not.toMatch(TRACE);
      block.audit();
    },
    STEP_TIMEOUT,
  );

  test(
    "getNodes with verify { minVerified: 3 }, one node stalled: up exports the three that pass, the stalled one named in one warning",
    async () => {
      const network = block.emulator().admin.getNode(NODE_ID)!.network;
      const set = await block.project("verify-yaml-set", "yaml", {
        "Pulumi.yaml": [
          "variables:",
          "  set:",
          "    fn::invoke:",
          "      function: blockchain:index:getNodes",
          "      arguments:",
          `        network: ${network}`,
          "        verify:",
          "          minVerified: 3",
          "outputs:",
          "  first: ${set.nodes[0].id}",
          "  second: ${set.nodes[1].id}",
          "  third: ${set.nodes[2].id}",
          "",
        ].join("\n"),
      });
      const up = await block.rehearse({ stalledSeconds: 900 }, () =>
        set.up(block.run().recorded("yaml up healthy set")),
      );
      const ids = ["first", "second", "third"].map((k) => up.outputs[k].value as string);
      expect(ids).not.toContain(NODE_ID);
      expect(new Set(ids).size).toBe(3);
      // One warning: the engine prints it as it comes, then once more under Diagnostics.
      expect(up.stdout).toMatch(/created \(\d+s\) 1 warning\n/);
      const warnings = diagnostics(up.stdout).match(/getNodes: 3 of 4 nodes passed[^\n]*/g) ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(
          `\\(verify\\.minVerified 3\\); left out: ${NODE_ID}: its head block \\d+ is 9\\d\\d s old \\(at most 120 s accepted\\)\\.$`,
        ),
      );
      block.audit();
    },
    STEP_TIMEOUT,
  );
});

describeWithEngine(["pulumi-language-python", "pulumi-language-python-exec", "pulumi-python"])(
  "verify in a Python program (pulumi_blockchain.get_node on sdk/python)",
  () => {
    const block = verifyBlock(pythonEnv);

    // The SDK takes `verify` as a dict (its VerifyDict) or as its input class.
    describe.each([
      { form: "dict", name: "verify-python-dict", verify: '{"max_head_age_seconds": 120}' },
      { form: "class", name: "verify-python-class", verify: "blockchain.Verify(max_head_age_seconds=120)" },
    ])("verify as a $form", ({ name, verify }) => {
      let stack: Stack;
      beforeAll(async () => {
        stack = await block.project(name, "python", {
          "__main__.py": [
            "import pulumi",
            "import pulumi_blockchain as blockchain",
            "",
            `node = blockchain.get_node(id="${NODE_ID}", verify=${verify})`,
            'pulumi.export("chainId", node.verified.chain_id)',
            'pulumi.export("headAgeSeconds", node.verified.head_age_seconds)',
            "",
          ].join("\n"),
        });
      }, STEP_TIMEOUT);

      test(
        "max_head_age_seconds=120: exports the endpoint's chain id 1 and a fresh head age",
        () => expectVerifiedUp(block, stack, `${name} up`),
        STEP_TIMEOUT,
      );

      test(
        "the node's head stalled 900 s: up fails with the stale-head message",
        async () => {
          const output = await block.rehearse({ stalledSeconds: 900 }, () =>
            block.run().failure(`${name} up stalled`, (o) => stack.up(o)),
          );
          expect(diagnostics(output)).toMatch(
            new RegExp(
              `getNode: ${NODE_ID} failed its endpoint check: its head block \\d+ is 9\\d\\d s old \\(at most 120 s accepted\\)\\. ` +
                "The node is behind its chain",
            ),
          );
          block.audit();
        },
        STEP_TIMEOUT,
      );
    });

    test(
      'get_nodes with verify={"min_verified": 5} of four nodes: up fails with one message in Python\'s spelling',
      async () => {
        const network = block.emulator().admin.getNode(NODE_ID)!.network;
        const stack = await block.project("verify-python-set", "python", {
          "__main__.py": [
            "import pulumi",
            "import pulumi_blockchain as blockchain",
            "",
            `nodes = blockchain.get_nodes(network="${network}", verify={"min_verified": 5}).nodes`,
            'pulumi.export("count", len(nodes))',
            "",
          ].join("\n"),
        });
        const output = await block.run().failure("python up healthy set", (o) => stack.up(o));
        expect(diagnostics(output)).toContain(
          "getNodes: 4 of 4 nodes passed the endpoint check, verify.min_verified asks 5. " +
            "Only 4 nodes matched: widen the filters or lower verify.min_verified.",
        );
        expect(output).not.toContain("minVerified");
        block.audit();
      },
      STEP_TIMEOUT,
    );
  },
);
