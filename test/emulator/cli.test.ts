import { execFile, execFileSync, spawn } from "child_process";
import type { ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { WELL_KNOWN_IDS, deriveAdminKey, deriveApiKey } from "../../src/emulator";
import { UsageError, parseCliArgs } from "../../src/emulator/cli";

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

/** Starts the command, waits until its stdout fits `ready`, then fetches a node with the key it printed. */
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
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = () => (child.kill("SIGTERM"), exit);
  const node = (url: string, key: string) =>
    fetch(`${url}/v1/nodes/${WELL_KNOWN_IDS.beaconNode}/`, { headers: { Authorization: `Bearer ${key}` } });
  return { out, stop, node };
}

describe("blockchain-nodes-emulator command", () => {
  beforeAll(() => ensureBuilt(), 60_000);

  test("--port 0 prints the URL, the keys, the fixtures and an export line, serves, and stops on SIGTERM", async () => {
    const { out, stop, node } = await serve(["--port", "0", "--seed", "3"], /^export .*$/m);
    const [, url, key] = /^export BLOCKCHAIN_API_URL=(\S+) BLOCKCHAIN_API_KEY=(\S+)$/m.exec(out.stdout)!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(key).toBe(deriveApiKey(3, WELL_KNOWN_IDS.organization));
    for (const value of [url, deriveAdminKey(3), ...Object.values(WELL_KNOWN_IDS)])
      expect(out.stdout).toContain(value);
    expect((await node(url, key)).status).toBe(200);
    expect(await stop()).toBe(0);
  });

  test("--json prints one JSON object (URL, keys, admin key, well-known ids, env) on one line, serves, and stops on SIGTERM", async () => {
    const { out, stop, node } = await serve(["--port", "0", "--seed", "5", "--json"], /\n/);
    const info = JSON.parse(out.stdout);
    expect(out.stdout).toBe(`${JSON.stringify(info)}\n`);
    expect(Object.keys(info)).toEqual(["url", "seed", "apiKey", "keys", "adminKey", "ids", "env"]);
    expect(info).toMatchObject({ seed: 5, apiKey: deriveApiKey(5, WELL_KNOWN_IDS.organization) });
    expect(info.adminKey).toBe(deriveAdminKey(5));
    expect(Object.keys(info.keys).length).toBeGreaterThan(1);
    for (const [org, key] of Object.entries(info.keys)) expect(key).toBe(deriveApiKey(5, org));
    expect(info.ids).toMatchObject(WELL_KNOWN_IDS);
    expect(info.ids.faucetAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.env).toEqual({ BLOCKCHAIN_API_URL: info.url, BLOCKCHAIN_API_KEY: info.apiKey });
    expect((await node(info.url, info.apiKey)).status).toBe(200);
    expect(await stop()).toBe(0);
    expect(out.stderr).toBe("");
  });

  test("--help and --version print and exit 0 before any other check; a bad flag exits 2 with one line on stderr", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    const [help, short, ver, bad] = await Promise.all([
      run(["--help"]),
      run(["-h", "--port", "x"]),
      run(["--version", "--port", "0"]),
      run(["--port", "70000"]),
    ]);
    expect([help.code, help.stderr, short.stdout]).toEqual([0, "", help.stdout]);
    for (const text of ["Usage: blockchain-nodes-emulator", "API key per organization", "well-known ids"])
      expect(help.stdout).toContain(text);
    for (const flag of ["--json", "--version", "--help", "--faucet-chains", "--rate-limit", "--verbose"])
      expect(help.stdout).toContain(`  ${flag}`);
    expect(ver).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(/^[^\n]*--port[^\n]*\n/);
  });

  test.each([
    ["--port abc", "--port"],
    ["--port 70000", "--port"],
    ["--rate-429 1.5", "--rate-429"],
    ["--rate-limit 0", "--rate-limit"],
    ["--bogus", "bogus"],
    ["--nodes many", "--nodes"],
    ["--latency-ms 50-10", "--latency-ms"],
    ["--malformed-rate 2", "--malformed-rate"],
    ["--delay-faucet-ms -1", "--delay-faucet-ms"],
    ["--delay-network-update-ms x", "--delay-network-update-ms"],
    ["--request-log-capacity -3", "--request-log-capacity"],
    ["--fault-path v1/", "--fault-path"],
    ["--fault-method P0ST", "--fault-method"],
    ["--faucet-chains goerli,Sepolia", "Sepolia"],
    ["--faucet-chains goerli,", "--faucet-chains"],
    ["--faucet-chains hoodi,hoodi", "hoodi"],
  ])("%s: a usage error naming %s", (args, token) => {
    expect(() => parseCliArgs(args.split(" "))).toThrow(UsageError);
    expect(() => parseCliArgs(args.split(" "))).toThrow(token);
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
    const server = { port: 8080, host: "0.0.0.0", seed: 7, pageSize: 5, rateLimit: 10 };
    const sizes = { nodes: 10_000, networks: 100, ...capacities };
    const routeDelays = { faucetMs: 1500, networkUpdateMs: 250 };
    const options = { quiet: true, ...server, ...sizes, routeDelays };
    const all = { ...options, faults: { ...faults, ...afterProcessing, match } };
    expect(parseCliArgs(line.split(" "))).toEqual(serveWith(all, "json"));
    expect(parseCliArgs(["--faucet-chains", "sepolia, hoodi,amoy"])).toEqual(
      serveWith({ quiet: true, faucetChains: ["sepolia", "hoodi", "amoy"] }),
    );
    expect(parseCliArgs(["--latency-ms", "25", "--verbose"])).toEqual(
      serveWith({ quiet: false, faults: { latencyMs: 25 } }),
    );
    expect(parseCliArgs(["--help", "--version"])).toEqual({ action: "help" });
    expect(parseCliArgs(["--version", "--json"])).toEqual({ action: "version" });
  });
});
