import { checkFaucetChain, formatProblems } from "../../model/rules";
import { MAX_BULK } from "../data/seed";
import { validateFaultOptions, validateRouteDelays, type FaultOptions, type RouteDelays } from "./faults";

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /** TCP port; `0` (default) picks a free port. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Seed of the generated data, keys and random faults; default `1`. Same seed, same data. */
  seed?: number;
  /** Nodes per page of `GET /v1/nodes/`; default `10` (the service has no page-size parameter). */
  pageSize?: number;
  /** Extra generated nodes of the primary organization, for load runs; default `0`. */
  nodes?: number;
  /** Extra generated networks of the primary organization (status `ok`); default `0`. */
  networks?: number;
  /** Random faults from the start; default none. */
  faults?: FaultOptions;
  /** Faucet sends allowed per address per UTC day, on each chain; default `1`. */
  faucetDailyLimit?: number;
  /** The chains whose faucet is served (`POST /v1/faucet/{chain}`; others 404); default `goerli`, `sepolia`, `hoodi`. */
  faucetChains?: readonly string[];
  /** Requests per second per API key (sliding 1 s window); past it `429` with `Retry-After`, not processed. Default none. */
  rateLimit?: number;
  /** Clock of the faucet's daily limit, of {@link rateLimit}'s window and of the nodes' heads; default the system clock. */
  now?: () => Date;
  /** `true` (default): log nothing. `false`: one line per request on stderr, with nothing that could carry a secret. */
  quiet?: boolean;
  /** Requests kept by {@link RunningEmulator.requests} (oldest dropped; the total still counts); default 10,000. */
  requestLogCapacity?: number;
  /** Faucet sends kept by {@link RunningEmulator.faucetSends} (the counts are never dropped); default 10,000. */
  faucetSendLogCapacity?: number;
  /** Largest request body, in bytes; bigger: `413`. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Delays of particular operations from the start; default none. */
  routeDelays?: RouteDelays;
}

/** Every default of the emulator, in one place. */
export const EMULATOR_DEFAULTS = {
  port: 0,
  host: "127.0.0.1",
  seed: 1,
  pageSize: 10,
  faucetDailyLimit: 1,
  /** `goerli` (the spec's own), `sepolia` and `hoodi` (served by the real service). */
  faucetChains: ["goerli", "sepolia", "hoodi"] as readonly string[],
  maxBodyBytes: 1024 * 1024,
  requestLogCapacity: 10_000,
  faucetSendLogCapacity: 10_000,
} as const;

/** The range of each integer option. */
// prettier-ignore
const INTEGER_RANGES = {
  port: [0, 65535], seed: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], pageSize: [1, 1000],
  nodes: [0, MAX_BULK], networks: [0, MAX_BULK], faucetDailyLimit: [0, 1_000_000], rateLimit: [1, 1_000_000],
  requestLogCapacity: [0, 10_000_000], faucetSendLogCapacity: [0, 10_000_000], maxBodyBytes: [1, 1 << 30],
} as const;

/** Applies the defaults and checks the options; throws a RangeError or TypeError naming the option. */
export function resolveOptions(options: EmulatorOptions) {
  const integer = (name: keyof typeof INTEGER_RANGES, fallback: number): number => {
    const value = options[name];
    if (value === undefined) return fallback;
    const [min, max] = INTEGER_RANGES[name];
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new RangeError(`emulator option ${name} must be an integer from ${min} to ${max}, got ${value}`);
    return value;
  };
  const host = options.host ?? EMULATOR_DEFAULTS.host;
  if (typeof host !== "string" || host.trim() === "")
    throw new TypeError("emulator option host must be a non-empty string");
  if (options.now !== undefined && typeof options.now !== "function")
    throw new TypeError("emulator option now must be a function returning a Date");
  if (options.routeDelays !== undefined) validateRouteDelays(options.routeDelays);
  if (options.faults !== undefined) validateFaultOptions(options.faults);
  return {
    port: integer("port", EMULATOR_DEFAULTS.port),
    host,
    seed: integer("seed", EMULATOR_DEFAULTS.seed),
    pageSize: integer("pageSize", EMULATOR_DEFAULTS.pageSize),
    nodes: integer("nodes", 0),
    networks: integer("networks", 0),
    faucetDailyLimit: integer("faucetDailyLimit", EMULATOR_DEFAULTS.faucetDailyLimit),
    faucetChains: faucetChains(options.faucetChains),
    rateLimit: integer("rateLimit", 0),
    now: options.now ?? (() => new Date()),
    quiet: options.quiet ?? true,
    requestLogCapacity: integer("requestLogCapacity", EMULATOR_DEFAULTS.requestLogCapacity),
    faucetSendLogCapacity: integer("faucetSendLogCapacity", EMULATOR_DEFAULTS.faucetSendLogCapacity),
    maxBodyBytes: integer("maxBodyBytes", EMULATOR_DEFAULTS.maxBodyBytes),
    routeDelays: { ...options.routeDelays },
  };
}

/** A non-empty list of distinct chain names the model allows. */
function faucetChains(chains: readonly string[] | undefined): readonly string[] {
  if (chains === undefined) return EMULATOR_DEFAULTS.faucetChains;
  if (!Array.isArray(chains) || chains.length === 0)
    throw new TypeError("emulator option faucetChains must be a non-empty array of chain names");
  const problems = chains.flatMap((chain, i) => checkFaucetChain(`faucetChains[${i}]`, chain) ?? []);
  if (problems.length > 0) throw new RangeError(`emulator option ${formatProblems(problems)}`);
  const duplicate = chains.find((chain, i) => chains.indexOf(chain) !== i);
  if (duplicate !== undefined) throw new RangeError(`emulator option faucetChains names ${duplicate} twice`);
  return [...chains];
}
