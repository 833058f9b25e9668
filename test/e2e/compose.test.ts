/**
 * End to end: results that compose, and expected failures that are quiet and fast, under the real
 * engine (programs on disk run by the nodejs language host, as `pulumi up` runs them), against
 * the emulator.
 *
 * - The three snippets rewritten against getNodeConnectionsOutput (`JSON.stringify` of
 *   mapped connections, a template literal in `apply`, `pulumi.interpolate`) and the README's
 *   app-config block, exported: correct values when read with the secrets shown, secret, no
 *   "Calling [toJSON] on an [Output<T>]" text, and a secrets audit of the backend's files.
 * - A preview of a program calling getNodes with no key configured fails with the message once
 *   and no stack trace; its wall time is printed against a program that throws a plain Error.
 */
import * as fs from "fs";
import * as path from "path";
import { CommandError, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { NodeServiceClient } from "../../src/api";
import { findSecrets } from "../helpers/audit";
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine, EngineSandbox, engineSandbox, filesUnder } from "../helpers/engine";
import { compileReadmeBlock, readmeBlock } from "../helpers/readme";

const STEP_TIMEOUT = 300_000;
const ROOT = path.resolve(__dirname, "..", "..");
const TO_JSON_TEXT = "Calling [toJSON] on an [Output<T>]";
const NETWORK = "NW-100-000-1";
const MISSING_KEY = "No API key for the blockchain node service.";

/** The three snippets of the issue, written against getNodeConnectionsOutput, and readable names. */
const COMPOSE_PROGRAM = `
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

/** getNodes and getNodesOutput with no key anywhere: a missing-config failure met twice. */
const MISSING_KEY_PROGRAM = `
import { getNodes, getNodesOutput } from "pulumi-blockchain-nodes";

export = async () => {
  const later = getNodesOutput({ network: "${NETWORK}" });
  const nodes = await getNodes({ network: "${NETWORK}" });
  return { count: nodes.length, later: later.apply((ns) => ns.length) };
};
`;

/** The same shape of program, failing with a plain Error. */
const PLAIN_THROW_PROGRAM = `
export = async () => {
  throw new Error("a plain failure of the program");
};
`;

/**
 * A Pulumi project on disk whose program is `code`, type-checked and compiled against the built
 * package (`build/readme/compose-<name>.js`): its folder, under `build/compose/`, only re-exports
 * it.
 */
function project(name: string, code: string): string {
  const compiled = compileReadmeBlock(`compose-${name}`, code);
  const dir = path.join(ROOT, "build", "compose", name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: compose-${name}\nruntime: nodejs\nmain: index.js\n`);
  // Its own package.json: else the language host would take the repository's `main`.
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: `compose-${name}`, main: "index.js" }),
  );
  fs.writeFileSync(
    path.join(dir, "index.js"),
    `module.exports = require(${JSON.stringify(path.relative(dir, compiled).split(path.sep).join("/"))});\n`,
  );
  return dir;
}

/** The README's app-config block (Functions section) as a program returning its exports. */
function readmeAppConfigProgram(): string {
  const block = readmeBlock("export const dotenv =");
  const lines = block.split("\n");
  const imports = lines.filter((l) => l.startsWith("import "));
  const body = lines
    .filter((l) => !l.startsWith("import "))
    .map((l) => l.replace(/^export const (\w+) =/, "out.$1 ="));
  return [
    ...imports,
    "export = async () => {",
    "  const out: Record<string, unknown> = {};",
    ...body.map((l) => `  ${l}`),
    "  return out;",
    "};",
  ].join("\n");
}

/** How often `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describeWithEngine()("results that compose, failures that are quiet, under the real engine", () => {
  let sandbox: EngineSandbox;
  const stacks: Stack[] = [];
  const transcript: Record<string, string> = {};

  function recorded(label: string) {
    transcript[label] = "";
    return {
      onOutput: (out: string) => (transcript[label] += out),
      onError: (err: string) => (transcript[label] += err),
    };
  }

  async function stackOf(
    name: string,
    code: string,
    config: Record<string, { value: string; secret?: boolean }>,
  ) {
    const workDir = project(name, code);
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "compose", workDir },
      { pulumiCommand: sandbox.command, envVars: sandbox.envVars },
    );
    stacks.push(stack);
    await stack.setAllConfig(config);
    return stack;
  }

  // Registered before withEmulator(): the stacks are destroyed while the emulator still answers.
  afterAll(async () => {
    for (const stack of stacks) {
      await stack.destroy().catch(() => undefined);
      await stack.workspace.removeStack("compose", { force: true }).catch(() => undefined);
    }
    fs.rmSync(path.join(ROOT, "build", "compose"), { recursive: true, force: true });
    sandbox?.cleanup();
  }, STEP_TIMEOUT);

  const emulator = withEmulator();

  beforeAll(async () => {
    sandbox = await engineSandbox();
  }, STEP_TIMEOUT);

  test(
    "the three snippets and the README's app config: correct values, secret, no toJSON text, no leak",
    async () => {
      const conn = {
        "blockchain:apiUrl": { value: emulator().url },
        "blockchain:apiKey": { value: emulator().apiKey, secret: true },
      };
      const compose = await stackOf("snippets", COMPOSE_PROGRAM, conn);
      const readme = await stackOf("readme", readmeAppConfigProgram(), conn);
      const up = await compose.up(recorded("snippets up"));
      expect(up.summary.result).toBe("succeeded");
      const upReadme = await readme.up(recorded("readme up"));
      expect(upReadme.summary.result).toBe("succeeded");

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

      // Read with the secrets shown, as `pulumi stack output --show-secrets` does.
      const out = await compose.outputs();
      for (const key of ["rpcJson", "rpcEnv", "rpcInterpolated"]) {
        expect(out[key].secret).toBe(true);
        expect(out[key].value).not.toContain(TO_JSON_TEXT);
      }
      expect(JSON.parse(out.rpcJson.value)).toEqual(details.map((d) => ({ rpc: d.httpsEndpoint })));
      expect(out.rpcEnv.value).toBe(`RPC_URL=${details[0].httpsEndpoint}`);
      expect(out.rpcInterpolated.value).toBe(`RPC_URL=${details[0].httpsEndpoint}`);
      expect(out.nodesRpc).toEqual({ secret: true, value: details[0].httpsEndpoint });
      expect(out.names.secret).toBe(false);
      expect(out.masked.secret).toBe(false);
      expect(out.masked.value).toContain("***");
      expect(out.firstName).toEqual({ value: `first: ${(out.names.value as string[])[0]}`, secret: false });

      const readmeOut = await readme.outputs();
      for (const key of ["rpcUrls", "dotenv", "rpcEnv"]) {
        expect(readmeOut[key].secret).toBe(true);
        expect(readmeOut[key].value).not.toContain(TO_JSON_TEXT);
      }
      expect(JSON.parse(readmeOut.rpcUrls.value)).toEqual(running.map((d) => ({ rpc: d.httpsEndpoint })));
      expect(readmeOut.dotenv.value).toBe(
        `RPC_URL=${running[0].httpsEndpoint}\nWS_URL=${running[0].wssEndpoint}`,
      );
      const beacon = emulator().admin.getNode("ND-100-000-001")!.details.https_endpoint;
      expect(readmeOut.rpcEnv.value).toBe(`RPC_URL=${beacon}`);
      expect(readmeOut.rpcUrl).toEqual({ secret: true, value: beacon });
      expect(readmeOut.names).toEqual({ secret: false, value: runningNodes.map((n) => n.name) });

      const texts = Object.fromEntries(Object.entries(transcript).filter(([k]) => k.endsWith("up")));
      expect(Object.values(texts).join("")).not.toContain(TO_JSON_TEXT);
      const files = [
        ...filesUnder(sandbox.backendDir),
        ...stacks
          .map((s) => path.join(s.workspace.workDir, "Pulumi.compose.yaml"))
          .filter((f) => fs.existsSync(f)),
      ];
      expect(files.some((f) => f.endsWith("compose.json"))).toBe(true);
      expect(findSecrets(emulator().secrets(), { files, texts })).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  test(
    "a preview with no key fails with the message once, no stack trace; timed against a plain throw",
    async () => {
      const missing = await stackOf("missing-key", MISSING_KEY_PROGRAM, {
        "blockchain:apiUrl": { value: emulator().url },
      });
      const plain = await stackOf("plain-throw", PLAIN_THROW_PROGRAM, {});

      const timedPreview = async (stack: Stack, label: string) => {
        const started = Date.now();
        const error = await stack.preview(recorded(label)).then(
          () => undefined,
          (e: unknown) => e,
        );
        const seconds = (Date.now() - started) / 1000;
        expect(error).toBeInstanceOf(CommandError);
        return { seconds };
      };

      const quiet = await timedPreview(missing, "missing-key preview");
      const loud = await timedPreview(plain, "plain-throw preview");

      console.log(
        [
          `failing preview, no key (getNodes, pulumi.RunError): ${quiet.seconds.toFixed(1)} s`,
          `failing preview, plain throw new Error(...):         ${loud.seconds.toFixed(1)} s`,
          "--- engine output, no key ---",
          transcript["missing-key preview"],
          "--- engine output, plain throw ---",
          transcript["plain-throw preview"],
        ].join("\n"),
      );

      // One diagnostic, the message alone: no banner, no trace. (The engine's progress row of the
      // stack echoes the last diagnostic's first line as its status, for a plain throw too.)
      const noKey = transcript["missing-key preview"];
      expect(noKey).toContain("Diagnostics:");
      const diagnostics = noKey.slice(noKey.indexOf("Diagnostics:"), noKey.indexOf("Resources:"));
      expect(occurrences(diagnostics, MISSING_KEY)).toBe(1);
      expect(occurrences(diagnostics, "error:")).toBe(1);
      expect(occurrences(noKey, MISSING_KEY)).toBeLessThanOrEqual(2);
      expect(noKey).toContain("pulumi config set --secret blockchain:apiKey <key>");
      expect(noKey).not.toMatch(/^\s+at /m);
      expect(noKey).not.toContain("unhandled exception");
      // The plain throw is the loud baseline: banner and trace.
      expect(transcript["plain-throw preview"]).toMatch(/^\s+at /m);
    },
    STEP_TIMEOUT,
  );
});
