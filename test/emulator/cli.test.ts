import { execFile, execFileSync, spawn } from "child_process";
import type { ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { WELL_KNOWN_IDS, deriveAdminKey, deriveApiKey } from "../../src/emulator";
import { parseCliArgs } from "../../src/emulator/cli";

const root = path.resolve(__dirname, "../..");
const cli = path.join(root, "dist/emulator/cli.js");

/** Builds dist/ when the compiled CLI is missing or older than any file or folder under its sources. */
function ensureBuilt(): void {
  const sources = ["src/emulator", "src/model"].flatMap((dir) => [
    path.join(root, dir),
    ...fs.readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(root, dir, String(f))),
  ]);
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

const children: ChildProcess[] = [];
afterAll(() => children.filter((c) => c.exitCode === null).forEach((c) => c.kill("SIGKILL")));

/** Starts the command and waits until its stdout fits `ready`. */
async function serve(args: string[], ready: RegExp) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const out = { stdout: "", stderr: "" };
  child.stderr!.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out.stdout += chunk.toString();
      if (ready.test(out.stdout)) resolve();
    });
    child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${out.stdout}`)));
  });
  const stop = async () => {
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    return exit;
  };
  return { out, stop };
}

const get = (url: string, key: string) => fetch(url, { headers: { Authorization: `Bearer ${key}` } });

describe("blockchain-nodes-emulator command", () => {
  beforeAll(() => ensureBuilt(), 60_000);

  test("--port 0 prints the URL, the key, the fixtures and an export line, serves, and stops on SIGTERM", async () => {
    const { out, stop } = await serve(["--port", "0", "--seed", "3"], /^export .*$/m);
    const [, url, key] = /^export BLOCKCHAIN_API_URL=(\S+) BLOCKCHAIN_API_KEY=(\S+)$/m.exec(out.stdout)!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(out.stdout).toContain(`listening on ${url}`);
    expect(key).toBe(deriveApiKey(3, WELL_KNOWN_IDS.organization));
    for (const id of Object.values(WELL_KNOWN_IDS)) expect(out.stdout).toContain(id);
    expect(out.stdout).toContain(`Admin key (for the /_emulator/ endpoints): ${deriveAdminKey(3)}`);
    const res = await get(`${url}/v1/nodes/${WELL_KNOWN_IDS.beaconNode}/`, key);
    expect(((await res.json()) as { id: string }).id).toBe(WELL_KNOWN_IDS.beaconNode);
    expect(await stop()).toBe(0);
  });

  test("--json prints one JSON object (URL, keys, admin key, well-known ids, env) on one line, serves, and stops on SIGTERM", async () => {
    const { out, stop } = await serve(["--port", "0", "--seed", "5", "--json"], /\n/);
    expect(out.stdout.endsWith("\n")).toBe(true);
    expect(out.stdout.trimEnd().split("\n")).toHaveLength(1);
    const info = JSON.parse(out.stdout);
    expect(Object.keys(info)).toEqual(["url", "seed", "apiKey", "keys", "adminKey", "ids", "env"]);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(info.seed).toBe(5);
    expect(info.apiKey).toBe(deriveApiKey(5, WELL_KNOWN_IDS.organization));
    expect(info.adminKey).toBe(deriveAdminKey(5));
    expect(info.keys[WELL_KNOWN_IDS.organization]).toBe(info.apiKey);
    expect(Object.keys(info.keys).length).toBeGreaterThan(1);
    for (const [org, key] of Object.entries(info.keys)) expect(key).toBe(deriveApiKey(5, org));
    expect(info.ids).toMatchObject(WELL_KNOWN_IDS);
    expect(info.ids.faucetAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.env).toEqual({ BLOCKCHAIN_API_URL: info.url, BLOCKCHAIN_API_KEY: info.apiKey });
    expect((await get(`${info.url}/v1/nodes/${info.ids.beaconNode}/`, info.apiKey)).status).toBe(200);
    expect(out.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(await stop()).toBe(0);
    expect(out.stderr).toBe("");
  });

  test("--help prints usage, says what is printed on start, and exits 0", async () => {
    for (const flag of ["--help", "-h"]) {
      const r = await run([flag]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toContain("Usage: blockchain-nodes-emulator");
      for (const text of [
        /API key per organization/,
        /admin key/,
        /well-known ids/,
        /export BLOCKCHAIN_API_URL=/,
      ])
        expect(r.stdout).toMatch(text);
      for (const option of ["--json", "--version", "--help", "--faucet-chains", "--rate-limit"])
        expect(r.stdout).toContain(`  ${option}`);
    }
  });

  test("--version prints the package's version and exits 0, before any other check", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    for (const args of [["--version"], ["--version", "--port", "0"]]) {
      expect(await run(args)).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    }
    expect(parseCliArgs(["--help", "--version"])).toEqual({ action: "help" });
    expect(parseCliArgs(["--version", "--json"])).toEqual({ action: "version" });
  });

  test.each([
    ["--port abc", /--port/],
    ["--port 70000", /--port/],
    ["--rate-429 1.5", /--rate-429/],
    ["--rate-limit 0", /--rate-limit must be an integer from 1/],
    ["--bogus", /bogus/],
    ["--nodes many", /--nodes must be an integer/],
    ["--latency-ms 50-10", /--latency-ms/],
    ["--malformed-rate 2", /--malformed-rate/],
    ["--delay-faucet-ms -1", /--delay-faucet-ms/],
    ["--delay-network-update-ms x", /--delay-network-update-ms/],
    ["--request-log-capacity -3", /--request-log-capacity/],
    ["--fault-path v1/", /--fault-path/],
    ["--faucet-chains goerli,Sepolia", /--faucet-chains\S*: got "Sepolia"/],
    ["--faucet-chains goerli,", /--faucet-chains\S*: got ""/],
    ["--faucet-chains hoodi,hoodi", /--faucet-chains names hoodi twice/],
  ])("%s: clear error, exit 2", async (args, message) => {
    const r = await run(args.split(" "));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  test("flags map to emulator options", () => {
    const serveWith = (options: object, output = "text") => ({ action: "serve", output, options });
    const line =
      "--port=8080 --host 0.0.0.0 --seed 7 --page-size 5 --latency-ms 10-50 --rate-429 0.1 --rate-5xx .05 " +
      "--drop-rate 0 --retry-after-seconds 2 --drop-after-processing-rate 0.1 --rate-5xx-after-processing 0.2 " +
      "--malformed-rate 0.3 --fault-method post --fault-path /v1/faucet/ --delay-faucet-ms 1500 " +
      "--delay-network-update-ms 250 --request-log-capacity 500 --faucet-log-capacity 50 --max-body-bytes 4096 " +
      "--rate-limit 10 --nodes 10000 --networks 100 --json";
    const faults = { latencyMs: [10, 50], rate429: 0.1, rate5xx: 0.05, dropRate: 0, retryAfterSeconds: 2 };
    const afterProcessing = { dropAfterProcessingRate: 0.1, rate5xxAfterProcessing: 0.2, malformedRate: 0.3 };
    const match = { method: "POST", path: "/v1/faucet/" };
    const capacities = { requestLogCapacity: 500, faucetSendLogCapacity: 50, maxBodyBytes: 4096 };
    const sizes = {
      port: 8080,
      host: "0.0.0.0",
      seed: 7,
      pageSize: 5,
      rateLimit: 10,
      nodes: 10_000,
      networks: 100,
    };
    expect(parseCliArgs(line.split(" "))).toEqual(
      serveWith(
        {
          quiet: true,
          ...sizes,
          ...capacities,
          faults: { ...faults, ...afterProcessing, match },
          routeDelays: { faucetMs: 1500, networkUpdateMs: 250 },
        },
        "json",
      ),
    );
    expect(parseCliArgs(["--faucet-chains", "sepolia, hoodi,amoy"])).toEqual(
      serveWith({ quiet: true, faucetChains: ["sepolia", "hoodi", "amoy"] }),
    );
    expect(parseCliArgs(["--latency-ms", "25", "--verbose"])).toEqual(
      serveWith({ quiet: false, faults: { latencyMs: 25 } }),
    );
  });
});
