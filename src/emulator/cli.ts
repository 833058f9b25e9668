#!/usr/bin/env node
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "util";
import { checkFaucetChain } from "../model";
import { MAX_ROUTE_DELAY_MS } from "./http/faults";
import type { FaultOptions } from "./http/faults";
import { EMULATOR_DEFAULTS, INTEGER_RANGES, integerError } from "./http/options";
import type { EmulatorOptions } from "./http/options";
import type { RunningEmulator } from "./http/running-emulator";
import { startEmulator } from "./http/server";

/** The command's usage text. */
export const USAGE = `Usage: blockchain-nodes-emulator [options]

Serves a local, in-memory emulator of the blockchain node service API over HTTP.

On start it prints, on stdout: the URL, one API key per organization, the admin key
(for the /_emulator/ endpoints), the well-known ids (organization, projects, networks,
a node, a faucet address) and a line to paste into a shell:
  export BLOCKCHAIN_API_URL=http://127.0.0.1:PORT BLOCKCHAIN_API_KEY=KEY
With --json, all of it is one JSON object on one line instead. It then serves until
it gets SIGINT (Ctrl-C) or SIGTERM. The same seed gives the same data, keys and ids.

Options:
  --port N                 TCP port (default 0: a free port, printed on start)
  --host HOST              interface to listen on (default 127.0.0.1)
  --seed N                 seed of the generated data and faults (default 1)
  --page-size N            nodes per page of GET /v1/nodes/ (default 10)
  --nodes N                add N generated nodes to the primary organization (default 0)
  --networks N             add N generated networks to the primary organization (default 0)
  --latency-ms N|MIN-MAX   delay every request by N ms, or a random delay in [MIN, MAX]
  --rate-limit R           serve at most R requests per second per API key (sliding 1 s
                           window); past it, 429 with Retry-After (seconds), not processed
  --rate-429 P             probability (0..1) of answering 429 without processing
  --rate-5xx P             probability (0..1) of answering 503/502/504 without processing
  --drop-rate P            probability (0..1) of closing the connection without a response
  --retry-after-seconds N  send Retry-After: N on injected 429 and 503 answers
  --drop-after-processing-rate P
                           probability (0..1) of processing, then closing without a response
  --rate-5xx-after-processing P
                           probability (0..1) of processing, then answering 502/504 (HTML)
  --malformed-rate P       probability (0..1) of processing, then answering an unreadable 200
                           (HTML, truncated JSON; on the faucet also a non-integer amountSent
                           or no transaction)
  --fault-method METHOD    random faults apply only to this method (e.g. POST)
  --fault-path PREFIX      random faults apply only to paths starting with PREFIX
  --faucet-chains A,B,C    the chains whose faucet is served, POST /v1/faucet/{chain}
                           (default ${EMULATOR_DEFAULTS.faucetChains.join(",")}); any other chain: 404
  --delay-faucet-ms N      hold every POST /v1/faucet/{chain} N ms before processing it
  --delay-network-update-ms N
                           hold every PATCH /v1/networks/{id}/ N ms before processing it
  --request-log-capacity N requests kept in memory, oldest dropped first (default 10000)
  --faucet-log-capacity N  faucet send records kept, oldest dropped first (default 10000);
                           the per-address send counts are never dropped
  --max-body-bytes N       largest request body; bigger: 413 (default 1048576)
  --verbose                log one line per request on stderr: method, route template,
                           well-formed ids, known filters, status, time (never a raw
                           path, query value that could be a secret, header or body)
  --json                   print the URL, keys, admin key and well-known ids as one JSON
                           object on one line of stdout (for scripts), then serve as usual:
                           {"url", "seed", "apiKey", "keys": {organization: key},
                            "adminKey", "ids": {organization, project, networkWithNodes, ...},
                            "env": {"BLOCKCHAIN_API_URL", "BLOCKCHAIN_API_KEY"}}
  --version                print the version of pulumi-blockchain-nodes and exit
  --help, -h               show this help and exit

Admin endpoints (Authorization: Bearer <admin key printed on start>):
  GET|PUT /_emulator/faults, GET|POST|DELETE /_emulator/faults/queue,
  GET|PUT /_emulator/route-delays, GET /_emulator/faucet/sends, GET /_emulator/requests,
  PATCH /_emulator/nodes/{id} {"status", "name"}, POST /_emulator/nodes/{id}/rotate-credentials,
  POST /_emulator/keys/{organization}/rotate
`;

/** A command line error: the message is shown and the command exits with status 2. */
export class UsageError extends Error {}

/** Show the help, show the version, or serve with `options`, printing the start as text or JSON. */
export type CliCommand =
  | { action: "help" }
  | { action: "version" }
  | { action: "serve"; options: EmulatorOptions; output: "text" | "json" };

/** Integer flags of top-level options, with the option each sets (its range is the option's). */
const INTEGER_FLAGS = {
  port: "port",
  seed: "seed",
  "page-size": "pageSize",
  nodes: "nodes",
  networks: "networks",
  "rate-limit": "rateLimit",
  "request-log-capacity": "requestLogCapacity",
  "faucet-log-capacity": "faucetSendLogCapacity",
  "max-body-bytes": "maxBodyBytes",
} as const;
const PROBABILITY_FLAGS = {
  "rate-429": "rate429",
  "rate-5xx": "rate5xx",
  "drop-rate": "dropRate",
  "drop-after-processing-rate": "dropAfterProcessingRate",
  "rate-5xx-after-processing": "rate5xxAfterProcessing",
  "malformed-rate": "malformedRate",
} as const;
const OTHER_FLAGS =
  "host latency-ms retry-after-seconds fault-method fault-path faucet-chains delay-faucet-ms delay-network-update-ms".split(
    " ",
  );

function integer(flag: string, text: string, range: readonly [number, number]): number {
  const value = Number(text);
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < range[0] || value > range[1]) {
    throw new UsageError(integerError(`--${flag}`, range, `"${text}"`));
  }
  return value;
}

/** Parses the command line (without `node` and the script); throws {@link UsageError}. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const strings = [...Object.keys(INTEGER_FLAGS), ...Object.keys(PROBABILITY_FLAGS), ...OTHER_FLAGS];
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(strings.map((flag) => [flag, { type: "string" as const }])),
        verbose: { type: "boolean" },
        json: { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { action: "help" };
  if (values.version) return { action: "version" };
  const text = (flag: string) => values[flag] as string | undefined;
  const options: EmulatorOptions = { quiet: !values.verbose };
  for (const [flag, key] of Object.entries(INTEGER_FLAGS)) {
    if (text(flag) !== undefined) options[key] = integer(flag, text(flag)!, INTEGER_RANGES[key]);
  }
  if (text("host") !== undefined) {
    if (text("host")!.trim() === "") throw new UsageError(`--host must not be empty`);
    options.host = text("host");
  }
  const faults: FaultOptions = {};
  const latency = text("latency-ms");
  const range = latency === undefined ? null : /^([0-9]+)\s*[-,]\s*([0-9]+)$/.exec(latency);
  if (range) {
    if (Number(range[1]) > Number(range[2])) {
      throw new UsageError(`--latency-ms range must be MIN-MAX with MIN <= MAX, got "${latency}"`);
    }
    faults.latencyMs = [Number(range[1]), Number(range[2])];
  } else if (latency !== undefined) {
    faults.latencyMs = integer("latency-ms", latency, [0, 600_000]);
  }
  for (const [flag, key] of Object.entries(PROBABILITY_FLAGS)) {
    const given = text(flag);
    if (given === undefined) continue;
    if (!/^[0-9]*\.?[0-9]+$/.test(given) || Number(given) > 1) {
      throw new UsageError(`--${flag} must be a probability from 0 to 1, got "${given}"`);
    }
    faults[key] = Number(given);
  }
  if (text("retry-after-seconds") !== undefined) {
    faults.retryAfterSeconds = integer("retry-after-seconds", text("retry-after-seconds")!, [0, 86_400]);
  }
  const method = text("fault-method");
  const prefix = text("fault-path");
  if (method !== undefined && !/^[A-Za-z]+$/.test(method)) {
    throw new UsageError(`--fault-method must be an HTTP method such as POST`);
  }
  if (prefix !== undefined && !prefix.startsWith("/")) throw new UsageError(`--fault-path must start with /`);
  if (method !== undefined || prefix !== undefined) {
    faults.match = { ...(method && { method: method.toUpperCase() }), ...(prefix && { path: prefix }) };
  }
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (text("faucet-chains") !== undefined) options.faucetChains = chainList(text("faucet-chains")!);
  for (const [flag, key] of [
    ["delay-faucet-ms", "faucetMs"],
    ["delay-network-update-ms", "networkUpdateMs"],
  ] as const) {
    if (text(flag) === undefined) continue;
    options.routeDelays = {
      ...options.routeDelays,
      [key]: integer(flag, text(flag)!, [0, MAX_ROUTE_DELAY_MS]),
    };
  }
  return { action: "serve", options, output: values.json ? "json" : "text" };
}

/** A comma-separated list of distinct faucet chain names (spaces around the commas ignored). */
function chainList(text: string): string[] {
  const chains = text.split(",").map((c) => c.trim());
  for (const chain of chains) {
    const problem = checkFaucetChain("faucet-chains", chain);
    if (problem) {
      throw new UsageError(
        `--faucet-chains: got ${problem.value} in "${text}"; ${problem.allowed}, separated by commas`,
      );
    }
  }
  const duplicate = chains.find((chain, i) => chains.indexOf(chain) !== i);
  if (duplicate !== undefined) throw new UsageError(`--faucet-chains names ${duplicate} twice`);
  return chains;
}

/** The version of this package, from its `package.json` (two folders up, in `src/` as in `dist/`). */
export function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  if (manifest.name !== "pulumi-blockchain-nodes" || typeof manifest.version !== "string") {
    throw new Error(`${file} is not the manifest of pulumi-blockchain-nodes`);
  }
  return manifest.version;
}

const ID_NAMES = (
  "organization project otherProject networkWithNodes beaconNode emptyNetwork secondEmptyNetwork " +
  "consortiumNetwork otherOrganization foreignProject foreignNetwork faucetAddress"
).split(" ") as Array<keyof RunningEmulator["fixtures"]>;

/** What `--json` prints on start: the text banner's facts as one object (url, seed, keys, admin key, ids, env). */
export type StartInfo = ReturnType<typeof startInfo>;

function startInfo(emulator: RunningEmulator, seed: number) {
  return {
    url: emulator.url,
    seed,
    apiKey: emulator.apiKey,
    keys: emulator.keys,
    adminKey: emulator.adminKey,
    ids: Object.fromEntries(ID_NAMES.map((name) => [name, emulator.fixtures[name]])),
    env: { BLOCKCHAIN_API_URL: emulator.url, BLOCKCHAIN_API_KEY: emulator.apiKey },
  };
}

/** The text printed on start: URL, keys, fixtures and an `export` line for the shell. */
function banner(emulator: RunningEmulator, seed: number): string {
  const primary = emulator.fixtures.organization;
  const others = Object.entries(emulator.keys).filter(([org]) => org !== primary);
  return [
    `blockchain-nodes-emulator listening on ${emulator.url} (seed ${seed})`,
    `API key of organization ${primary}: ${emulator.apiKey}`,
    ...others.map(([org, key]) => `API key of organization ${org}: ${key}`),
    `Admin key (for the /_emulator/ endpoints): ${emulator.adminKey}`,
    `Fixtures:`,
    ...ID_NAMES.map((name) => `  ${name.padEnd(20)}${emulator.fixtures[name]}`),
    `Try: curl -H "Authorization: Bearer $BLOCKCHAIN_API_KEY" "$BLOCKCHAIN_API_URL/v1/nodes/"`,
    `export BLOCKCHAIN_API_URL=${emulator.url} BLOCKCHAIN_API_KEY=${emulator.apiKey}`,
    "",
  ].join("\n");
}

/** Runs the command; resolves with the exit status once the emulator has stopped (or failed). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`blockchain-nodes-emulator: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (command.action !== "serve") {
    process.stdout.write(command.action === "help" ? USAGE : `${packageVersion()}\n`);
    return 0;
  }
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(command.options);
  } catch (error) {
    process.stderr.write(`blockchain-nodes-emulator: cannot start: ${(error as Error).message}\n`);
    return error instanceof RangeError || error instanceof TypeError ? 2 : 1;
  }
  const seed = command.options.seed ?? EMULATOR_DEFAULTS.seed;
  process.stdout.write(
    command.output === "json" ? `${JSON.stringify(startInfo(emulator, seed))}\n` : banner(emulator, seed),
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await emulator.close();
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`blockchain-nodes-emulator: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
