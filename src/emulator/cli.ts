#!/usr/bin/env node
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "util";
import { EMULATOR_DEFAULTS, resolveOptions, type EmulatorOptions } from "./http/options";
import type { RunningEmulator } from "./http/running-emulator";
import { startEmulator } from "./http/server";

/**
 * The flags that take a value: flag, argument, the option it sets (a path into
 * {@link EmulatorOptions}), help. The options' own checks judge every value, once.
 */
// prettier-ignore
const FLAGS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["port", "N", "port", "TCP port (default 0: a free port, printed on start)"],
  ["host", "HOST", "host", "interface to listen on (default 127.0.0.1)"],
  ["seed", "N", "seed", "seed of the generated data and faults (default 1)"],
  ["page-size", "N", "pageSize", "nodes per page of GET /v1/nodes/ (default 10)"],
  ["nodes", "N", "nodes", "add N generated nodes to the primary organization (default 0)"],
  ["networks", "N", "networks", "add N generated networks to the primary organization (default 0)"],
  ["latency-ms", "N|MIN-MAX", "faults.latencyMs", "delay every request by N ms, or a random delay in [MIN, MAX]"],
  ["rate-limit", "R", "rateLimit", "at most R requests per second per API key (sliding 1 s window); past it 429"],
  ["rate-429", "P", "faults.rate429", "probability (0..1) of answering 429 without processing"],
  ["rate-5xx", "P", "faults.rate5xx", "probability (0..1) of answering 503/502/504 without processing"],
  ["drop-rate", "P", "faults.dropRate", "probability (0..1) of closing the connection without a response"],
  ["retry-after-seconds", "N", "faults.retryAfterSeconds", "send Retry-After: N on injected 429 and 503 answers"],
  ["drop-after-processing-rate", "P", "faults.dropAfterProcessingRate", "probability of processing, then closing without a response"],
  ["rate-5xx-after-processing", "P", "faults.rate5xxAfterProcessing", "probability of processing, then answering 502/504 (HTML)"],
  ["malformed-rate", "P", "faults.malformedRate", "probability of processing, then answering an unreadable 200"],
  ["fault-method", "METHOD", "faults.match.method", "random faults apply only to this method (e.g. POST)"],
  ["fault-path", "PREFIX", "faults.match.path", "random faults apply only to paths starting with PREFIX"],
  ["faucet-chains", "A,B,C", "faucetChains", `chains whose faucet is served (default ${EMULATOR_DEFAULTS.faucetChains.join(",")}); others 404`],
  ["delay-faucet-ms", "N", "routeDelays.faucetMs", "hold every POST /v1/faucet/{chain} N ms before processing it"],
  ["delay-network-update-ms", "N", "routeDelays.networkUpdateMs", "hold every PATCH /v1/networks/{id}/ N ms before processing it"],
  ["request-log-capacity", "N", "requestLogCapacity", "requests kept in memory, oldest dropped first (default 10000)"],
  ["faucet-log-capacity", "N", "faucetSendLogCapacity", "faucet send records kept (default 10000); send counts never dropped"],
  ["max-body-bytes", "N", "maxBodyBytes", "largest request body; bigger: 413 (default 1048576)"],
];
// prettier-ignore
const SWITCHES = [
  ["verbose", "", "", "one line per request on stderr, never a secret (method, route, ids, status, time)"],
  ["json", "", "", 'print the start as one JSON object on one line: {"url", "seed", "apiKey", "keys",'],
  ["", "", "", ' "adminKey", "ids", "env": {"BLOCKCHAIN_API_URL", "BLOCKCHAIN_API_KEY"}}, then serve'],
  ["version", "", "", "print the version of pulumi-blockchain-nodes and exit"],
  ["help, -h", "", "", "show this help and exit"],
] as const;

export const USAGE = `Usage: blockchain-nodes-emulator [options]

Serves a local, in-memory emulator of the blockchain node service API over HTTP.

On start it prints, on stdout: the URL, one API key per organization, the admin key
(for the /_emulator/ endpoints), the well-known ids (organization, projects, networks,
a node, a faucet address) and a line to paste into a shell:
  export BLOCKCHAIN_API_URL=http://127.0.0.1:PORT BLOCKCHAIN_API_KEY=KEY
With --json, all of it is one JSON object on one line instead. It then serves until
it gets SIGINT (Ctrl-C) or SIGTERM. The same seed gives the same data, keys and ids.

Options:
${[...FLAGS, ...SWITCHES].map(([flag, arg, , help]) => `  ${(flag ? `--${flag} ${arg}` : "").padEnd(27)} ${help}\n`).join("")}
Admin endpoints (Authorization: Bearer <admin key printed on start>), see docs/emulator.md:
  GET|PUT /_emulator/faults, GET|POST|DELETE /_emulator/faults/queue,
  GET|PUT /_emulator/route-delays, GET /_emulator/faucet/sends, GET /_emulator/requests,
  PATCH /_emulator/nodes/{id} {"status", "name"}, POST /_emulator/nodes/{id}/rotate-credentials,
  GET|PUT /_emulator/nodes/{id}/endpoint, POST /_emulator/keys/{organization}/rotate
`;

/** A command line error: the message is shown and the command exits with status 2. */
export class UsageError extends Error {}

/** Show the help, show the version, or serve with `options`, printing the start as text or JSON. */
export type CliCommand =
  | { action: "help" }
  | { action: "version" }
  | { action: "serve"; options: EmulatorOptions; output: "text" | "json" };

/** A flag's text as its option's value; text that is not a number stays text, for the check to name. */
function value(option: string, text: string): unknown {
  if (option === "host" || option === "faults.match.path") return text;
  if (option === "faults.match.method") return text.toUpperCase();
  if (option === "faucetChains") return text.split(",").map((c) => c.trim());
  const range = option === "faults.latencyMs" && /^([0-9]+)\s*[-,]\s*([0-9]+)$/.exec(text);
  if (range) return [Number(range[1]), Number(range[2])];
  return /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/.test(text) ? Number(text) : text;
}

/** Parses the command line (without `node` and the script); throws {@link UsageError}. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(FLAGS.map(([flag]) => [flag, { type: "string" as const }])),
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
  const options: Record<string, unknown> = { quiet: !values.verbose };
  for (const [flag, , option] of FLAGS) {
    if (typeof values[flag] !== "string") continue;
    const keys = option.split(".");
    let target = options;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]] = value(option, values[flag] as string);
  }
  try {
    resolveOptions(options);
  } catch (error) {
    // The check names the option (`emulator option pageSize`, `faults.rate429`): name the flag instead.
    const message = (error as Error).message;
    const [named, option] = /^(?:emulator option )?([\w.]+)/.exec(message) ?? ["", ""];
    const flag = FLAGS.find((f) => f[2] === option)?.[0];
    throw new UsageError(flag ? `--${flag}${message.slice(named.length)}` : message);
  }
  return { action: "serve", options: options as EmulatorOptions, output: values.json ? "json" : "text" };
}

/** The version of this package, from its `package.json` (two folders up, in `src/` as in `dist/`). */
export function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  const { name, version } = JSON.parse(fs.readFileSync(file, "utf8")) as {
    name?: unknown;
    version?: unknown;
  };
  if (name === "pulumi-blockchain-nodes" && typeof version === "string") return version;
  throw new Error(`${file} is not the manifest of pulumi-blockchain-nodes`);
}

/** What `--json` prints on start: the text banner's facts as one object (url, seed, keys, admin key, ids, env). */
function startInfo(emulator: RunningEmulator, seed: number) {
  const { url, apiKey, keys, adminKey } = emulator;
  const env = { BLOCKCHAIN_API_URL: url, BLOCKCHAIN_API_KEY: apiKey };
  return { url, seed, apiKey, keys, adminKey, ids: { ...emulator.fixtures }, env };
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
    ...Object.entries(emulator.fixtures).map(([name, id]) => `  ${name.padEnd(20)}${id}`),
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
    return 1;
  }
  const seed = command.options.seed ?? EMULATOR_DEFAULTS.seed;
  process.stdout.write(
    command.output === "json" ? `${JSON.stringify(startInfo(emulator, seed))}\n` : banner(emulator, seed),
  );
  await new Promise((resolve) => ["SIGINT", "SIGTERM"].forEach((signal) => process.once(signal, resolve)));
  await emulator.close();
  return 0;
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`blockchain-nodes-emulator: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
