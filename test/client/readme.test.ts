/** The client script of docs/client.md type-checks against the built package and runs against the emulator. */
import { execFile } from "child_process";
import { promisify } from "util";
import { withEmulator } from "../helpers/emulator";
import { compileReadmeBlock, docBlock } from "../helpers/readme";

const emulator = withEmulator();

test("the NodeServiceClient example runs as written", async () => {
  const file = compileReadmeBlock("client", docBlock("docs/client.md", "ts", "new NodeServiceClient"));
  const { stdout } = await promisify(execFile)(process.execPath, [file], {
    env: { ...process.env, BLOCKCHAIN_API_URL: emulator().url, BLOCKCHAIN_API_KEY: emulator().apiKey },
  });
  const lines = stdout.trim().split("\n");
  expect(lines.length).toBeGreaterThan(5);
  expect(lines[0]).toMatch(
    /^ND-[0-9-]+ (running|pending|maintenance|failed|error|stopping|stopped|starting)$/,
  );
  // The count, the node's name, the network's node count, the delete, the faucet's amount and transaction.
  const last = lines[lines.length - 1].split(" ");
  expect(last[0]).toMatch(/^\d+$/);
  expect(last.slice(-4, -1)).toEqual(["4", "deleted", "500000000000000000"]);
  expect(last[last.length - 1]).toMatch(/^https:\/\//);
  expect(emulator().admin.getNetwork("NW-100-000-1")!.name).toBe("mainnet");
  expect(emulator().admin.getNetwork("NW-100-000-2")).toBeUndefined();
}, 60_000);
