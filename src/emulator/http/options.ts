import { checkFaucetChain, formatProblems } from "../../model";
import { validateRouteDelays } from "./delays";
import type { RouteDelays } from "./delays";
import { MAX_BULK } from "../data/bulk";
import type { FaultOptions } from "./fault-options";

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /** TCP port; `0` (default) picks a free ephemeral port. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Seed of the generated data (and of random faults); default `1`. Same seed, same data. */
  seed?: number;
  /** Nodes per page of `GET /v1/nodes/`; default `10`. The service has no page-size parameter. */
  pageSize?: number;
  /**
   * Extra generated nodes of the primary organization, spread over its generated networks (and
   * the `networks` below), for load and benchmark runs; default `0`. Deterministic per seed.
   */
  nodes?: number;
  /** Extra generated networks of the primary organization (status `ok`); default `0`. */
  networks?: number;
  /** Random faults to inject from the start; default none. */
  faults?: FaultOptions;
  /** Faucet sends allowed per address per UTC day, on each chain; default `1`. */
  faucetDailyLimit?: number;
  /**
   * The chains whose faucet is served (`POST /v1/faucet/{chain}`); any other chain answers `404`
   * `not_found`. Names as the model allows them: a lowercase letter, then lowercase letters,
   * digits and hyphens, up to 63 characters. Default {@link EMULATOR_DEFAULTS.faucetChains}.
   */
  faucetChains?: readonly string[];
  /**
   * Requests per second per API key, over a sliding 1 s window, like a throttling service: past
   * it, `429` `throttled` with `Retry-After` (seconds), the request not processed. Default none.
   */
  rateLimit?: number;
  /** Clock of the faucet's daily limit and of {@link rateLimit}'s window; default the system clock. */
  now?: () => Date;
  /**
   * `true` (default): log nothing. `false`: one line per request on stderr holding only what
   * cannot carry a secret: method, route template (`PATCH /v1/networks/{id}/`; an unknown path
   * is `(unmatched route)`), the id when it has the model's id shape, the known query filters
   * of the node list with their values only when they are allowed values, status, duration and
   * fault. Never a raw path, query, header or body.
   */
  quiet?: boolean;
  /**
   * How many requests {@link RunningEmulator.requests} keeps; the oldest is dropped first.
   * Default {@link EMULATOR_DEFAULTS.requestLogCapacity} (10,000); `0` keeps none (the total is
   * still counted, see {@link RunningEmulator.requestStats}).
   */
  requestLogCapacity?: number;
  /**
   * How many full faucet send records {@link RunningEmulator.faucetSends} keeps; the oldest is
   * dropped first. Default {@link EMULATOR_DEFAULTS.faucetSendLogCapacity} (10,000). The counts
   * of {@link RunningEmulator.faucetSendCounts} and the daily limit are never dropped.
   */
  faucetSendLogCapacity?: number;
  /** Largest request body, in bytes; bigger: `413`. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Delays of particular operations from the start; default none. */
  routeDelays?: RouteDelays;
}

/** Every default of the emulator, in one place. */
export const EMULATOR_DEFAULTS = {
  /** Ephemeral port. */
  port: 0,
  /** Loopback only. */
  host: "127.0.0.1",
  /** Seed of the data and of random faults. */
  seed: 1,
  /** Nodes per page of `GET /v1/nodes/`. */
  pageSize: 10,
  /** Faucet sends per address per UTC day, on each chain. */
  faucetDailyLimit: 1,
  /**
   * The chains whose faucet is served: `goerli` (the interface's own), and `sepolia` and `hoodi`
   * (served by the real service, as its public reference lists).
   */
  faucetChains: ["goerli", "sepolia", "hoodi"] as readonly string[],
  /** Largest request body accepted, in bytes (bigger: 413). */
  maxBodyBytes: 1024 * 1024,
  /** Requests kept by the request record (a ring: the oldest is dropped first). */
  requestLogCapacity: 10_000,
  /** Full faucet send records kept (a ring); the per-address counts are never dropped. */
  faucetSendLogCapacity: 10_000,
} as const;

/** The largest rate limit accepted, in requests per second. */
export const MAX_RATE_LIMIT = 1_000_000;

/** The largest value accepted for the capacity options. */
export const MAX_CAPACITY = 10_000_000;

/** Options with every default applied and every value checked. */
export interface ResolvedOptions {
  port: number;
  host: string;
  seed: number;
  pageSize: number;
  nodes: number;
  networks: number;
  faucetDailyLimit: number;
  faucetChains: readonly string[];
  rateLimit: number;
  now: () => Date;
  quiet: boolean;
  requestLogCapacity: number;
  faucetSendLogCapacity: number;
  maxBodyBytes: number;
  routeDelays: RouteDelays;
}

function integer(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(
      `emulator option ${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/** Applies the defaults and checks the options; throws a RangeError or TypeError naming the option. */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const host = options.host ?? EMULATOR_DEFAULTS.host;
  if (typeof host !== "string" || host.trim() === "")
    throw new TypeError("emulator option host must be a non-empty string");
  if (options.now !== undefined && typeof options.now !== "function") {
    throw new TypeError("emulator option now must be a function returning a Date");
  }
  return {
    port: integer("port", options.port, EMULATOR_DEFAULTS.port, 0, 65535),
    host,
    seed: integer(
      "seed",
      options.seed,
      EMULATOR_DEFAULTS.seed,
      Number.MIN_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER,
    ),
    pageSize: integer("pageSize", options.pageSize, EMULATOR_DEFAULTS.pageSize, 1, 1000),
    nodes: integer("nodes", options.nodes, 0, 0, MAX_BULK),
    networks: integer("networks", options.networks, 0, 0, MAX_BULK),
    faucetDailyLimit: integer(
      "faucetDailyLimit",
      options.faucetDailyLimit,
      EMULATOR_DEFAULTS.faucetDailyLimit,
      0,
      1_000_000,
    ),
    faucetChains: faucetChains(options.faucetChains),
    rateLimit: integer("rateLimit", options.rateLimit, 0, 1, MAX_RATE_LIMIT),
    now: options.now ?? (() => new Date()),
    quiet: options.quiet ?? true,
    requestLogCapacity: integer(
      "requestLogCapacity",
      options.requestLogCapacity,
      EMULATOR_DEFAULTS.requestLogCapacity,
      0,
      MAX_CAPACITY,
    ),
    faucetSendLogCapacity: integer(
      "faucetSendLogCapacity",
      options.faucetSendLogCapacity,
      EMULATOR_DEFAULTS.faucetSendLogCapacity,
      0,
      MAX_CAPACITY,
    ),
    maxBodyBytes: integer("maxBodyBytes", options.maxBodyBytes, EMULATOR_DEFAULTS.maxBodyBytes, 1, 1 << 30),
    routeDelays: routeDelays(options.routeDelays),
  };
}

/** Checks the served faucet chains: a non-empty list of distinct names the model allows. */
function faucetChains(chains: readonly string[] | undefined): readonly string[] {
  if (chains === undefined) return EMULATOR_DEFAULTS.faucetChains;
  if (!Array.isArray(chains) || chains.length === 0) {
    throw new TypeError("emulator option faucetChains must be a non-empty array of chain names");
  }
  const problems = chains.flatMap((chain, i) => checkFaucetChain(`faucetChains[${i}]`, chain) ?? []);
  if (problems.length > 0) throw new RangeError(`emulator option ${formatProblems(problems)}`);
  const duplicate = chains.find((chain, i) => chains.indexOf(chain) !== i);
  if (duplicate !== undefined) {
    throw new RangeError(`emulator option faucetChains names ${duplicate} twice`);
  }
  return [...chains];
}

function routeDelays(delays: RouteDelays | undefined): RouteDelays {
  if (delays === undefined) return {};
  validateRouteDelays(delays);
  return { ...delays };
}
