import type { NodeStatus, WireNetwork, WireNode } from "../model";

/**
 * Random faults the emulator injects into requests. Rates are probabilities in `[0, 1]`, drawn
 * from their own seeded generator, so a given seed and request sequence fail the same way.
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
 * A one-shot fault for {@link RunningEmulator.enqueueFaults}. Each request takes the first queued
 * fault whose `match` fits it; a request that takes a fault is not subject to random faults.
 *
 * - `{ status }`: answer with that status without processing the request. `retryAfter` is sent
 *   verbatim as `Retry-After` (seconds or an HTTP date); `body` replaces the default body (for
 *   example an HTML proxy page or truncated JSON) with `contentType` (default: `text/html` when
 *   the body starts with `<`, else `application/json`).
 * - `{ drop: true }`: destroy the connection without a response and without processing.
 *   With `after: "processing"` the request is processed first (a faucet send is recorded),
 *   then the connection is destroyed: the client cannot know the outcome.
 * - `{ delayMs }`: wait, then serve the request normally.
 */
export type Fault =
  | {
      status: FaultStatus;
      retryAfter?: string;
      body?: string;
      contentType?: string;
      match?: FaultMatch;
    }
  | { drop: true; after?: "processing"; match?: FaultMatch }
  | { delayMs: number; match?: FaultMatch };

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
  /** `true` (default): log nothing. `false`: one line per request on stderr, never a key or header. */
  quiet?: boolean;
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

/** One request as seen by the emulator; headers are never recorded. */
export interface LoggedRequest {
  /** HTTP method. */
  method: string;
  /** Raw request path, without the query. */
  path: string;
  /** Query parameters (the last value wins for repeated names). */
  query: Record<string, string>;
  /** Status answered; `0` when the connection was dropped without a response. */
  status: number;
  /**
   * The injected fault, if any: `latency`, `delay`, `429`, `500`, `502`, `503`, `504`, `drop` or
   * `drop-after-processing`.
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
  /** Queues one-shot faults, applied in order to the next matching requests. */
  enqueueFaults(list: readonly Fault[]): void;
  /** Every successful faucet send, oldest first. */
  faucetSends(): ReadonlyArray<FaucetSend>;
  /** The request log, oldest first. */
  requests(): ReadonlyArray<LoggedRequest>;
  /** Empties the request log. */
  resetRequests(): void;
  /**
   * Every secret in the data: API keys, endpoint URLs and `auth_username` / `auth_password` /
   * `auth_key` values of every node ever seeded. For audits that nothing leaked.
   */
  secrets(): string[];
}
