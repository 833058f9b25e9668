import type { NodeStatus, WireNetwork, WireNode } from "../model";

/**
 * Random faults the emulator injects into requests. Rates are probabilities in `[0, 1]`, drawn
 * from their own seeded generator, so a given seed and request sequence fail the same way.
 *
 * One draw per request decides among the kinds, in this order: `dropRate`, `rate429`, `rate5xx`
 * (none of these process the request), then `dropAfterProcessingRate`,
 * `rate5xxAfterProcessing`, `malformedRate` (these process the request first: a faucet send is
 * recorded, a rename applied). With all rates at 0, every request is served normally.
 */
export interface FaultOptions {
  /** Delay before each request is served: a fixed number of milliseconds or a `[min, max]` range. */
  latencyMs?: number | readonly [number, number];
  /** Probability that a request is answered `429` without being processed. */
  rate429?: number;
  /**
   * `Retry-After` header value (seconds) on injected `429` and `503` answers. `undefined` or
   * `null`: no header (the appendix says the header may or may not be present).
   */
  retryAfterSeconds?: number | null;
  /** Probability that a request is answered `503`, `502` or `504` without being processed. */
  rate5xx?: number;
  /** Probability that the connection is destroyed without any response (request not processed). */
  dropRate?: number;
  /**
   * Probability that a request is processed, then its connection is destroyed without a
   * response: the client cannot know the outcome.
   */
  dropAfterProcessingRate?: number;
  /**
   * Probability that a request is processed, then answered `502` or `504` (drawn evenly) with
   * the HTML page of a gateway.
   */
  rate5xxAfterProcessing?: number;
  /**
   * Probability that a request is processed, then answered `200` with an unreadable body: a
   * {@link MalformedKind} drawn evenly among those that fit the route (all four on the faucet,
   * `html` and `truncated-json` elsewhere). Only a successful JSON answer is mangled; any other
   * answer (a 400, a 429, a 204) is sent as is.
   */
  malformedRate?: number;
  /**
   * Which requests the random faults (latency included) apply to; default every request. For
   * example `{ method: "POST", path: "/v1/faucet/" }` to fault only faucet sends. Requests that
   * do not match take no draw, so the faults of matching requests do not depend on the others.
   */
  match?: FaultMatch;
}

/** Which requests an enqueued {@link Fault} applies to; every given field must match. */
export interface FaultMatch {
  /** HTTP method, case-insensitive, e.g. `POST`. */
  method?: string;
  /** Prefix of the request path (without query), e.g. `/v1/networks/`. */
  path?: string;
}

/** An error status an enqueued fault may answer with. */
export type FaultStatus = 429 | 500 | 502 | 503 | 504;

/**
 * How an unreadable `200` answer is broken (see {@link Fault} and
 * {@link FaultOptions.malformedRate}):
 * - `html`: an HTML page (`Content-Type: text/html`) instead of JSON;
 * - `truncated-json`: the JSON body cut in half, still labelled `application/json`;
 * - `non-integer-amount` (faucet only): `amountSent` is `0.5`, not an integer number of wei;
 * - `missing-transaction` (faucet only): the body has no `transaction`.
 */
export type MalformedKind = "html" | "truncated-json" | "non-integer-amount" | "missing-transaction";

/**
 * A one-shot fault for {@link RunningEmulator.enqueueFaults}. Each request takes the first queued
 * fault whose `match` fits it; a request that takes a fault is not subject to random faults.
 *
 * - `{ status }`: answer with that status without processing the request. `retryAfter` is sent
 *   verbatim as `Retry-After` (seconds or an HTTP date); `body` replaces the default body (for
 *   example an HTML proxy page or truncated JSON) with `contentType` (default: `text/html` when
 *   the body starts with `<`, else `application/json`). The default body of `502` and `504` is
 *   the HTML page of a gateway; the others carry the service's JSON error.
 * - `{ status, after: "processing" }`: process the request first (a faucet send is recorded,
 *   a rename applied), then answer with that status as above, whatever the real answer was.
 * - `{ drop: true }`: destroy the connection without a response and without processing.
 *   With `after: "processing"` the request is processed first (a faucet send is recorded),
 *   then the connection is destroyed: the client cannot know the outcome.
 * - `{ malformed }`: process the request, then answer `200` with an unreadable body (see
 *   {@link MalformedKind}). Only a successful JSON answer is mangled; any other answer is sent
 *   as is (the fault is still used up). `non-integer-amount` and `missing-transaction` only
 *   match `POST /v1/faucet/goerli`, besides any `match` given.
 * - `{ delayMs }`: wait, then serve the request normally.
 */
export type Fault =
  | {
      status: FaultStatus;
      after?: "processing";
      retryAfter?: string;
      body?: string;
      contentType?: string;
      match?: FaultMatch;
    }
  | { drop: true; after?: "processing"; match?: FaultMatch }
  | { malformed: MalformedKind; match?: FaultMatch }
  | { delayMs: number; match?: FaultMatch };

/**
 * Fixed delays of particular operations, applied before the request is processed (after any
 * fault or latency), so a test can hold a send or an update in flight. Milliseconds, `>= 0`;
 * absent or `0`: no delay.
 */
export interface RouteDelays {
  /** Delay of `POST /v1/faucet/goerli`. */
  faucetMs?: number;
  /** Delay of `PATCH /v1/networks/{id}/` (update, and the empty-body read). */
  networkUpdateMs?: number;
}

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
  /** Random faults to inject from the start; default none. */
  faults?: FaultOptions;
  /** Faucet sends allowed per address per UTC day; default `1`. */
  faucetDailyLimit?: number;
  /** Clock used by the faucet's daily limit; default the system clock. */
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

/** Well-known identifiers of the seeded data, for tests and examples. */
export interface EmulatorFixtures {
  /** The primary organization (the one of {@link RunningEmulator.apiKey}): always `RG-100-001`. */
  organization: string;
  /** Another organization with its own key, networks and nodes. */
  otherOrganization: string;
  /** A project of the primary organization: always `PR-100-001`. */
  project: string;
  /** A second project of the primary organization: always `PR-100-002`. */
  otherProject: string;
  /** A project of {@link otherOrganization}: moving a network there is refused (400). */
  foreignProject: string;
  /** An `ethereum-mainnet` network of the primary organization with several nodes: `NW-100-000-1`. */
  networkWithNodes: string;
  /** The node of {@link networkWithNodes} that has a `beacon_endpoint`: `ND-100-000-001`. */
  beaconNode: string;
  /** A network of the primary organization without nodes, deletable: `NW-100-000-2`. */
  emptyNetwork: string;
  /** Another deletable network without nodes: `NW-100-000-3`. */
  secondEmptyNetwork: string;
  /** A network of {@link otherOrganization}: 404 for the primary key. */
  foreignNetwork: string;
  /**
   * A network of the primary organization in which a third organization also runs a node: the
   * primary key sees that node without endpoints or credentials (shown only to the node's owner).
   */
  consortiumNetwork: string;
  /** A valid EIP-55 mixed-case address for the faucet. */
  faucetAddress: string;
}

/** One successful faucet send, as recorded by the emulator. */
export interface FaucetSend {
  /** The address as sent by the client. */
  address: string;
  /** Amount in wei, as a decimal string (the wire carries a JSON number). */
  amountSent: string;
  /** Link to the (fake) transaction. */
  transaction: string;
  /** When it was sent (ISO 8601, from the `now` clock). */
  at: string;
}

/** Every faucet send ever made, counted; these counts are never dropped. */
export interface FaucetSendCounts {
  /** Number of successful sends. */
  total: number;
  /** Number of successful sends per address, keyed by the address in lower case. */
  byAddress: Record<string, number>;
}

/** Counts of the request record ({@link RunningEmulator.requests}). */
export interface RequestStats {
  /** Requests recorded since the start or the last {@link RunningEmulator.resetRequests}. */
  total: number;
  /** Requests still held (the newest ones); `total - retained` were dropped. */
  retained: number;
  /** Most requests held at once. */
  capacity: number;
}

/**
 * One request as seen by the emulator; headers and bodies are never recorded. The record is
 * in memory only (never written to the log), for the tests of the process that started it.
 */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** The matched route template, e.g. `/v1/networks/{id}/`, or `(unmatched route)`. */
  route: string;
  /** Raw request path, without the query. */
  path: string;
  /** Query parameters (the last value wins for repeated names). */
  query: Record<string, string>;
  /** Status answered; `0` when the connection was dropped without a response. */
  status: number;
  /**
   * The injected fault, if any: `latency`, `delay`, `route-delay`, `429`, `500`, `502`, `503`,
   * `504`, `drop`, `<status>-after-processing` (e.g. `504-after-processing`),
   * `drop-after-processing` or `malformed-<kind>` (e.g. `malformed-html`). Several are joined
   * with `+`, e.g. `latency+503`.
   */
  fault?: string;
}

/** Out-of-band operations that bypass the API, as if someone changed things in the web UI. */
export interface EmulatorAdmin {
  /** Renames a network; returns false when it does not exist. */
  renameNetwork(id: string, name: string): boolean;
  /** Removes a network and all its nodes; returns false when it does not exist. */
  deleteNetwork(id: string): boolean;
  /** The network as its owner sees it (wire shape, with nodes), or undefined. */
  getNetwork(id: string): WireNetwork | undefined;
  /** The node as its owner sees it (wire shape), or undefined. */
  getNode(id: string): WireNode | undefined;
  /** Sets a node's status (a model node status; throws on any other value); false when missing. */
  setNodeStatus(nodeId: string, status: NodeStatus): boolean;
  /** Removes every node of a network; returns how many were removed. */
  removeNodes(networkId: string): number;
}

/** A running emulator, as returned by {@link startEmulator}. */
export interface RunningEmulator {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /**
   * The key of the emulator's own admin endpoints under `/_emulator/` (send it as
   * `Authorization: Bearer <adminKey>`); deterministic per seed, never an organization's key.
   */
  adminKey: string;
  /** API key of the primary organization (deterministic per seed). */
  apiKey: string;
  /** API key of every organization, by organization id. */
  keys: Record<string, string>;
  /** Well-known identifiers of the seeded data. */
  fixtures: EmulatorFixtures;
  /** Out-of-band changes that bypass the API. */
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
  /**
   * The retained successful faucet sends (the last {@link EmulatorOptions.faucetSendLogCapacity}),
   * oldest first. To judge duplicate sends use {@link faucetSendCounts}, which is never dropped.
   */
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
  /**
   * Every secret in the data: API keys, endpoint URLs and `auth_username` / `auth_password` /
   * `auth_key` values of every node ever seeded. For audits that nothing leaked.
   */
  secrets(): string[];
}
