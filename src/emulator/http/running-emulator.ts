import type { EmulatorAdmin } from "../data/admin";
import type { EmulatorFixtures } from "../data/fixtures";
import type { FaucetSend, FaucetSendCounts } from "../data/faucet-ledger";
import type { Fault, FaultOptions, RouteDelays } from "./faults";

/**
 * Counts of the request record ({@link RunningEmulator.requests}): `total` since the start or the
 * last reset, `retained` (the newest; `total - retained` were dropped), `capacity` (most held at once).
 */
export type RequestStats = { total: number; retained: number; capacity: number };

/** One request as seen by the emulator, in memory only; headers and bodies are never recorded. */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** The matched route template, e.g. `/v1/networks/{id}/` or `/node/{id}`, or `(unmatched route)`. */
  route: string;
  /** Raw request path, without the query; a node endpoint's with its key masked (`/node/nd-…/***`). */
  path: string;
  /** Query parameters (the last value wins for repeated names); none for a node's endpoint. */
  query: Record<string, string>;
  /** Status answered; `0` when the connection was dropped without a response. */
  status: number;
  /** When the request arrived: ms since the Unix epoch, with fractions (`performance.timeOrigin + performance.now()`). */
  at: number;
  /**
   * The injected fault, if any: `rate-limit`, `latency`, `delay`, `route-delay`, `429`, `500`, `502`, `503`,
   * `504`, `drop`, `504-after-processing` (any status), `drop-after-processing`, `malformed-<kind>`;
   * several are joined with `+`, e.g. `latency+503`.
   */
  fault?: string;
}

/** A running emulator, as returned by {@link startEmulator}. */
export interface RunningEmulator {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** The Bearer key of the admin endpoints under `/_emulator/`; deterministic per seed, no organization's key. */
  adminKey: string;
  /** API key of the primary organization (deterministic per seed; the new one after {@link EmulatorAdmin.rotateKey}). */
  readonly apiKey: string;
  /** API key of every organization, by organization id (current keys). */
  readonly keys: Record<string, string>;
  /** Well-known identifiers of the seeded data. */
  fixtures: EmulatorFixtures;
  /** Out-of-band changes that bypass the API (also served at `/_emulator/`, see docs/emulator.md). */
  admin: EmulatorAdmin;
  /** Stops listening and closes every open connection; resolves when the server is closed. */
  close(): Promise<void>;
  /** Replaces the random fault settings. */
  setFaults(faults: FaultOptions): void;
  /** The random fault settings in force. */
  faults(): FaultOptions;
  /** Queues one-shot faults, applied in order to the next matching requests. */
  enqueueFaults(list: readonly Fault[]): void;
  /** How many one-shot faults are still queued. */
  queuedFaults(): number;
  /** Drops every queued one-shot fault. */
  clearQueuedFaults(): void;
  /** Replaces the delays of particular operations (takes effect for the next requests). */
  setRouteDelays(delays: RouteDelays): void;
  /** The delays of particular operations in force. */
  routeDelays(): RouteDelays;
  /** The last {@link EmulatorOptions.faucetSendLogCapacity} faucet sends, oldest first ({@link faucetSendCounts} never drops). */
  faucetSends(): ReadonlyArray<FaucetSend>;
  /** Every successful faucet send counted: the total and per address (lower case); never dropped. */
  faucetSendCounts(): FaucetSendCounts;
  /** Successful faucet sends to one address (case-insensitive), ever. */
  faucetSendCount(address: string): number;
  /** The retained requests (the last {@link EmulatorOptions.requestLogCapacity}), oldest first. */
  requests(): ReadonlyArray<LoggedRequest>;
  /** How many requests were recorded, are retained, and can be. */
  requestStats(): RequestStats;
  /** Empties the request record and resets its total. */
  resetRequests(): void;
  /** Every secret ever served (API keys, endpoint URLs, credentials, rotated ones too) and the admin key, for audits. */
  secrets(): string[];
}
