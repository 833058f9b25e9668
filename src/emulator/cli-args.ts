/**
 * The emulator command's line: its usage text and the parser of its flags (no I/O here; the
 * command itself is `cli.ts`).
 */
import { parseArgs } from "util";
import { checkFaucetChain } from "../model";
import { MAX_BULK } from "./data/bulk";
import { MAX_ROUTE_DELAY_MS } from "./http/delays";
import type { RouteDelays } from "./http/delays";
import type { FaultMatch, FaultOptions } from "./http/fault-options";
import { EMULATOR_DEFAULTS, MAX_CAPACITY, MAX_RATE_LIMIT } from "./http/options";
import type { EmulatorOptions } from "./http/options";

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
  --rate-429 P             probability (0..1) of answering 429 without processing
  --rate-5xx P             probability (0..1) of answering 503/502/504 without processing
  --drop-rate P            probability (0..1) of closing the connection without a response
  --retry-after-seconds N  send Retry-After: N on injected 429 and 503 answers
  --rate-limit R           serve at most R requests per second per API key (sliding 1 s
                           window); past it, 429 with Retry-After (seconds), not processed
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

/**
 * The result of parsing the command line: show the help, show the version, or serve with
 * `options`, printing the start text (`text`) or one JSON object (`json`).
 */
export type CliCommand =
  | { action: "help" }
  | { action: "version" }
  | { action: "serve"; options: EmulatorOptions; output: "text" | "json" };

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function probability(flag: string, text: string): number {
  const value = Number(text);
  if (!/^[0-9]*\.?[0-9]+$/.test(text) || value > 1) {
    throw new UsageError(`--${flag} must be a probability from 0 to 1, got "${text}"`);
  }
  return value;
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

/** Parses the command line (without `node` and the script); throws {@link UsageError}. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        seed: { type: "string" },
        "page-size": { type: "string" },
        nodes: { type: "string" },
        networks: { type: "string" },
        "latency-ms": { type: "string" },
        "rate-429": { type: "string" },
        "rate-limit": { type: "string" },
        "rate-5xx": { type: "string" },
        "drop-rate": { type: "string" },
        "retry-after-seconds": { type: "string" },
        "drop-after-processing-rate": { type: "string" },
        "rate-5xx-after-processing": { type: "string" },
        "malformed-rate": { type: "string" },
        "fault-method": { type: "string" },
        "fault-path": { type: "string" },
        "faucet-chains": { type: "string" },
        "delay-faucet-ms": { type: "string" },
        "delay-network-update-ms": { type: "string" },
        "request-log-capacity": { type: "string" },
        "faucet-log-capacity": { type: "string" },
        "max-body-bytes": { type: "string" },
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
  const options: EmulatorOptions = { quiet: !values.verbose };
  const faults: FaultOptions = {};
  if (values.port !== undefined) options.port = integer("port", values.port, 0, 65535);
  if (values.host !== undefined) {
    if (values.host.trim() === "") throw new UsageError(`--host must not be empty`);
    options.host = values.host;
  }
  if (values.seed !== undefined) {
    options.seed = integer("seed", values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  }
  if (values["page-size"] !== undefined)
    options.pageSize = integer("page-size", values["page-size"], 1, 1000);
  if (values.nodes !== undefined) options.nodes = integer("nodes", values.nodes, 0, MAX_BULK);
  if (values.networks !== undefined) options.networks = integer("networks", values.networks, 0, MAX_BULK);
  const latency = values["latency-ms"];
  if (latency !== undefined) {
    const range = /^([0-9]+)\s*[-,]\s*([0-9]+)$/.exec(latency);
    if (range) {
      const [min, max] = [Number(range[1]), Number(range[2])];
      if (min > max)
        throw new UsageError(`--latency-ms range must be MIN-MAX with MIN <= MAX, got "${latency}"`);
      faults.latencyMs = [min, max];
    } else {
      faults.latencyMs = integer("latency-ms", latency, 0, 600_000);
    }
  }
  if (values["rate-limit"] !== undefined) {
    options.rateLimit = integer("rate-limit", values["rate-limit"], 1, MAX_RATE_LIMIT);
  }
  if (values["rate-429"] !== undefined) faults.rate429 = probability("rate-429", values["rate-429"]);
  if (values["rate-5xx"] !== undefined) faults.rate5xx = probability("rate-5xx", values["rate-5xx"]);
  if (values["drop-rate"] !== undefined) faults.dropRate = probability("drop-rate", values["drop-rate"]);
  if (values["retry-after-seconds"] !== undefined) {
    faults.retryAfterSeconds = integer("retry-after-seconds", values["retry-after-seconds"], 0, 86_400);
  }
  for (const [flag, key] of [
    ["drop-after-processing-rate", "dropAfterProcessingRate"],
    ["rate-5xx-after-processing", "rate5xxAfterProcessing"],
    ["malformed-rate", "malformedRate"],
  ] as const) {
    const text = values[flag];
    if (text !== undefined) faults[key] = probability(flag, text);
  }
  const match: FaultMatch = {};
  if (values["fault-method"] !== undefined) {
    if (!/^[A-Za-z]+$/.test(values["fault-method"]))
      throw new UsageError(`--fault-method must be an HTTP method such as POST`);
    match.method = values["fault-method"].toUpperCase();
  }
  if (values["fault-path"] !== undefined) {
    if (!values["fault-path"].startsWith("/")) throw new UsageError(`--fault-path must start with /`);
    match.path = values["fault-path"];
  }
  if (Object.keys(match).length > 0) faults.match = match;
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (values["faucet-chains"] !== undefined) options.faucetChains = chainList(values["faucet-chains"]);
  const delays: RouteDelays = {};
  if (values["delay-faucet-ms"] !== undefined) {
    delays.faucetMs = integer("delay-faucet-ms", values["delay-faucet-ms"], 0, MAX_ROUTE_DELAY_MS);
  }
  if (values["delay-network-update-ms"] !== undefined) {
    delays.networkUpdateMs = integer(
      "delay-network-update-ms",
      values["delay-network-update-ms"],
      0,
      MAX_ROUTE_DELAY_MS,
    );
  }
  if (Object.keys(delays).length > 0) options.routeDelays = delays;
  if (values["request-log-capacity"] !== undefined) {
    options.requestLogCapacity = integer(
      "request-log-capacity",
      values["request-log-capacity"],
      0,
      MAX_CAPACITY,
    );
  }
  if (values["faucet-log-capacity"] !== undefined) {
    options.faucetSendLogCapacity = integer(
      "faucet-log-capacity",
      values["faucet-log-capacity"],
      0,
      MAX_CAPACITY,
    );
  }
  if (values["max-body-bytes"] !== undefined) {
    options.maxBodyBytes = integer("max-body-bytes", values["max-body-bytes"], 1, 1 << 30);
  }
  return { action: "serve", options, output: values.json ? "json" : "text" };
}
