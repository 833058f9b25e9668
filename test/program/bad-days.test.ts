/**
 * A failing program ends, soon, with its cause, where Pulumi's language host runs it: V8's
 * debugger enabled (the host's inspector session) and uncaught errors printed by
 * `util.inspect(err, { colors: true })`. Each case runs in a child process, so a regression is a
 * timeout here, not a hung test run.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { finiteStacks, inspectLoops } from "../../src/provider/error-reports";

const ROOT = path.resolve(__dirname, "..", "..");

/** Runs `script` in a child Node.js (the built package at `dist/`); its output, or why it did not end. */
function runChild(script: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["-e", script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: 25_000,
    encoding: "utf8",
  });
}

/** A program under setMocks, the debugger enabled as Pulumi's language host does; its calls meet a closed port. */
function hostedProgram(body: string) {
  const script = `
const inspector = require("inspector");
const session = new inspector.Session();
session.connect();
session.post("Debugger.enable", () => {});
const pulumi = require("@pulumi/pulumi");
pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name, state: a.inputs }), call: (a) => a.inputs }, "p", "s", true);
const { getNode, getNodes, getNodeOutput, getNodesOutput } = require("./dist");
${body}`;
  return runChild(script, {
    BLOCKCHAIN_API_URL: "http://127.0.0.1:9",
    BLOCKCHAIN_API_KEY: "bad-days-key",
    BLOCKCHAIN_MAX_RETRIES: "0",
  });
}

/** The README's failing shape. */
const PROGRAM = `
const nodes = getNodesOutput({ network: "NW-100-000-1", status: "running", orderBy: "name" });
const first = nodes.apply((ns) => ns[0]);
let out = getNodeOutput({ id: first.id }).httpsEndpoint;
// More Outputs built on the failing one, as a program's exports are.
for (let i = 0; i < 4; i++) out = pulumi.output({ url: pulumi.interpolate\`RPC_URL=\${out}\` }).apply((o) => o.url);
out.apply(() => undefined);
process.on("unhandledRejection", (e) => {
  console.log("FAILED: " + e.message.split("\\n")[0]);
  console.log("RSS_MB " + Math.round(process.memoryUsage().rss / 1e6));
  process.exit(0);
});
`;

describe("bad days, as the language host runs a program", () => {
  test("a lookup failing late, under Outputs built on it, ends at once with its message (not a search of every path)", () => {
    // The call fails after the Outputs above are built.
    const run = hostedProgram(PROGRAM);
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/^FAILED: getNodesOutput: .*\bECONNREFUSED\b/m);
    const rss = Number(/RSS_MB (\d+)/.exec(run.stdout)?.[1]);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(400);
  });

  test("an error the functions let out has its looping frames made finite, its message and other frames kept", () => {
    // Pulumi's source maps name frames `node_modules/@pulumi/output.ts`: no separator after the package.
    const frames = [
      "    at applyHelperAsync (/p/node_modules/@pulumi/output.ts:519:25)",
      "    at run (/p/node_modules/x/node_modules/plain.js:1:2)",
      "    at fine (/p/node_modules/@scope/pkg/lib/file.js:3:4)",
    ];
    const message = "open '/app/node_modules/config.json'";
    const error = new Error(message, {
      cause: Object.assign(new Error("inner"), { stack: `Error: inner\n${frames[0]}` }),
    });
    error.stack = `Error: ${message}\n${frames.join("\n")}`;
    finiteStacks(error);
    expect(error.message).toBe(message);
    expect(error.stack.split("\n")).toEqual([
      `Error: ${message}`,
      "    at applyHelperAsync (/p/node_modules/@pulumi/…/output.ts:519:25)",
      "    at run (/p/node_modules/x/node_modules/…/plain.js:1:2)",
      frames[2],
    ]);
    expect((error.cause as Error).stack).toContain("@pulumi/…/output.ts");
    // What the language host then does with it, in a process of its own.
    const script = `const util = require("util"); const e = new Error("boom"); e.stack = ${JSON.stringify(error.stack)};
      console.log(util.inspect(e, { colors: true }).includes("output.ts") ? "INSPECTED" : "MISSING");`;
    const run = runChild(script);
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toBe("INSPECTED");
  });

  test("importing the package leaves the process alone: no listener added, a user's own error reported as thrown", () => {
    const script = `
      const events = ["uncaughtException", "unhandledRejection", "rejectionHandled", "warning", "exit", "beforeExit"];
      const counts = () => events.map((e) => process.listenerCount(e)).join(",");
      const host = (e) => { console.log("REPORTED " + JSON.stringify({ message: e.message, stack: e.stack.split("\\n") })); process.exit(0); };
      process.on("uncaughtException", host);
      process.on("unhandledRejection", host);
      const hostCounts = counts();
      require("./dist");
      require("./dist/client");
      console.log("IMPORTED " + (counts() === hostCounts ? "same" : "changed"));
      // Once the program uses the package (a call), the frame guard of the affected releases only.
      require("./dist").getNodes({ apiUrl: "http://127.0.0.1:9", apiKey: "k", maxRetries: 0 }).catch(() => undefined);
      console.log("USED " + (counts() === hostCounts ? "same" : "changed"));
      const error = new Error("open '/app/node_modules/config.json'");
      error.stack = "Error: open '/app/node_modules/config.json'\\n    at load (/app/node_modules/@pulumi/output.ts:1:2)\\n    at run (/app/src/index.ts:3:4)";
      setTimeout(() => Promise.reject(error), 500);`;
    const run = runChild(script);
    expect(run.error).toBeUndefined();
    expect(run.stdout).toContain("IMPORTED same");
    const affected = inspectLoops();
    expect(run.stdout).toContain(affected ? "USED changed" : "USED same");
    const reported = JSON.parse(run.stdout.split("REPORTED ")[1]);
    const message = "open '/app/node_modules/config.json'";
    expect(reported.message).toBe(message);
    expect(reported.stack).toEqual([
      `Error: ${message}`,
      affected
        ? "    at load (/app/node_modules/@pulumi/…/output.ts:1:2)"
        : "    at load (/app/node_modules/@pulumi/output.ts:1:2)",
      "    at run (/app/src/index.ts:3:4)",
    ]);
  });

  test("the releases whose inspect loops: 20.19.6 and later 20.x, no other", () => {
    expect(
      ["20.19.5", "20.19.6", "20.20.2", "18.20.0", "22.12.0", "24.1.0"].map((v) => inspectLoops(v)),
    ).toEqual([false, true, true, false, false, false]);
  });
});

describe("a Promise form fails the program when its call fails", () => {
  const UNHANDLED = `process.on("unhandledRejection", (e) => {
  const cause = e.cause ?? {};
  console.log("UNHANDLED " + JSON.stringify({ run: pulumi.RunError.isInstance(e), code: cause.code, operation: cause.operation }));
});
`;
  test.each([
    [
      "getNode, not awaited (a data source as Terraform users write one)",
      `getNode({ id: "ND-1-2-3", verify: true });`,
      "getNode",
    ],
    ["getNodes, not awaited", `getNodes({ network: "NW-100-000-1", verify: true });`, "getNodes"],
    [
      "awaited and not caught: the program's own rejection carries it, reported once",
      `(async () => { await getNode({ id: "ND-1-2-3", verify: true }); })();`,
      "getNode",
    ],
  ])("%s: one unhandled rejection carrying the call's failure", (_name, body, operation) => {
    const run = hostedProgram(UNHANDLED + body);
    expect(run.error).toBeUndefined();
    const reports = run.stdout.split("\n").filter((l) => l.startsWith("UNHANDLED "));
    expect(reports.map((r) => JSON.parse(r.slice("UNHANDLED ".length)))).toEqual([
      { run: true, code: "ECONNREFUSED", operation },
    ]);
  });

  test("awaited and caught by the program: the program's choice stands, nothing unhandled", () => {
    const run = hostedProgram(`${UNHANDLED}
      (async () => {
        const got = await getNode({ id: "ND-1-2-3", verify: true }).then(() => "resolved", (e) => "CAUGHT " + e.cause.code);
        const listed = await getNodes({ network: "NW-100-000-1" }).catch((e) => "CAUGHT " + e.cause.code);
        console.log(got + " | " + listed);
      })();`);
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim().split(" | ")).toEqual(["CAUGHT ECONNREFUSED", "CAUGHT ECONNREFUSED"]);
    expect(run.stdout).not.toContain("UNHANDLED");
  });
});
