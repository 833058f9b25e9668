import { execFile, execFileSync, spawn } from "child_process";
import type { ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { WELL_KNOWN_IDS, deriveApiKey } from "../../src/emulator";
import { parseCliArgs } from "../../src/emulator/cli";

const root = path.resolve(__dirname, "../..");
const cli = path.join(root, "dist/emulator/cli.js");

/** Builds dist/ when the emulator's compiled CLI is missing or older than its sources. */
function ensureBuilt(): void {
  const sources = ["src/emulator", "src/model"].flatMap((dir) =>
    fs.readdirSync(path.join(root, dir)).map((f) => path.join(root, dir, f)),
  );
  const newest = Math.max(...sources.map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(cli) && fs.statSync(cli).mtimeMs >= newest) return;
  try {
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "pipe" });
  } catch (error) {
    // Type errors elsewhere in the package still emit; only a missing CLI is fatal.
    if (!fs.existsSync(cli)) throw error;
  }
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 10_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe("blockchain-nodes-emulator command", () => {
  beforeAll(() => ensureBuilt(), 60_000);

  describe("serving", () => {
    let child: ChildProcess;
    let stdout = "";
    afterAll(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });

    test("--port 0 prints the URL, the key, the fixtures and an export line, serves, and stops on SIGTERM", async () => {
      child = spawn(process.execPath, [cli, "--port", "0", "--seed", "3"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (/^export .*$/m.test(stdout)) resolve();
        });
        child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${stdout}`)));
      });
      const [, url, key] = /^export BLOCKCHAIN_API_URL=(\S+) BLOCKCHAIN_API_KEY=(\S+)$/m.exec(stdout)!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      expect(stdout).toContain(`listening on ${url}`);
      expect(key).toBe(deriveApiKey(3, WELL_KNOWN_IDS.organization));
      for (const id of Object.values(WELL_KNOWN_IDS)) expect(stdout).toContain(id);

      const res = await fetch(`${url}/v1/nodes/${WELL_KNOWN_IDS.beaconNode}/`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(WELL_KNOWN_IDS.beaconNode);

      const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
    });
  });

  test("--help prints usage and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: blockchain-nodes-emulator");
  });

  test.each([
    [["--port", "abc"], /--port/],
    [["--port", "70000"], /--port/],
    [["--rate-429", "1.5"], /--rate-429/],
    [["--bogus"], /bogus/],
    [["--latency-ms", "50-10"], /--latency-ms/],
  ])("%j: clear error, exit 2", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  test("flags map to emulator options", () => {
    expect(
      parseCliArgs([
        "--port=8080",
        "--host",
        "0.0.0.0",
        "--seed",
        "7",
        "--page-size",
        "5",
        "--latency-ms",
        "10-50",
        "--rate-429",
        "0.1",
        "--rate-5xx",
        ".05",
        "--drop-rate",
        "0",
        "--retry-after-seconds",
        "2",
      ]),
    ).toEqual({
      help: false,
      options: {
        quiet: true,
        port: 8080,
        host: "0.0.0.0",
        seed: 7,
        pageSize: 5,
        faults: { latencyMs: [10, 50], rate429: 0.1, rate5xx: 0.05, dropRate: 0, retryAfterSeconds: 2 },
      },
    });
    expect(parseCliArgs(["--latency-ms", "25", "--verbose"])).toEqual({
      help: false,
      options: { quiet: false, faults: { latencyMs: 25 } },
    });
  });
});
