/** `NodeServiceClient`: the typed client of the service, composing the endpoint modules. */
import { ConcurrencyLimiter } from "./limits";
import * as faucet from "./faucet";
import * as networks from "./networks";
import * as nodes from "./nodes";
import { NodeServiceClientOptions, resolveClientOptions } from "./options";
import type { ListAllOptions, ListOptions } from "./nodes";
import { RateLimiter } from "./limits";
import type { Transport } from "./transport";
import type { DeleteResult, FaucetResult, NetworkInfo, NetworkUpdate, Node, NodeFilters } from "./types";

export type { NodeServiceClientOptions, RetryOptions } from "./options";

/**
 * The typed client of the blockchain node service. Every call validates its input before sending
 * anything, goes through one request path (auth header, rate limit, timeouts, retries, error
 * mapping) and returns camelCase objects. Errors are {@link ApiError}s without credentials.
 *
 * @example
 * const client = new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey });
 * for await (const node of client.listNodes({ protocol: "ethereum" })) console.log(node.id);
 */
export class NodeServiceClient {
  /** The normalized API URL (origin and path prefix). */
  readonly apiUrl: string;
  private readonly transport: Transport;

  /**
   * Checks every option (see `resolveClientOptions`) and builds the client; throws an
   * `InvalidInputError` naming the wrong option, without the API key, when one is wrong.
   */
  constructor(options: NodeServiceClientOptions) {
    const { maxRequestsPerSecond, limiterSleep, maxConcurrentRequests, ...settings } =
      resolveClientOptions(options);
    this.apiUrl = settings.base.href;
    this.transport = {
      ...settings,
      limiter: new RateLimiter({ maxRequestsPerSecond, now: settings.now, sleep: limiterSleep }),
      concurrency: new ConcurrencyLimiter(maxConcurrentRequests),
      maxConcurrentRequests,
    };
    // Keep the transport (and the key in its closures) out of enumeration, inspection and JSON.
    Object.defineProperty(this, "transport", { enumerable: false });
  }

  /**
   * Lists the nodes of the networks the caller's organization is part of, fetching pages lazily
   * and following `next` until it is null. Filters are checked synchronously (an invalid filter
   * throws an `InvalidInputError` here, before any request).
   */
  listNodes(filters?: NodeFilters, options?: ListOptions): AsyncIterable<Node> {
    return nodes.listNodes(this.transport, filters, options);
  }

  /**
   * Collects all matching nodes up to the required `limit`; fails (rather than truncating) when
   * more than `limit` nodes match.
   */
  listAllNodes(filters: NodeFilters | undefined, options: ListAllOptions): Promise<Node[]> {
    return nodes.listAllNodes(this.transport, filters, options);
  }

  /** Retrieves one node (`ND-…`). A 404 throws a `NotFoundError`. */
  getNode(id: string): Promise<Node> {
    return nodes.getNode(this.transport, id);
  }

  /** Reads a network and its nodes with a `PATCH` of an empty body `{}` (the service has no GET). */
  readNetwork(id: string): Promise<NetworkInfo> {
    return networks.readNetwork(this.transport, id);
  }

  /** Changes a network's `name` and/or `project`; with neither, reads it. */
  updateNetwork(id: string, update: NetworkUpdate): Promise<NetworkInfo> {
    return networks.updateNetwork(this.transport, id, update);
  }

  /** Deletes a network: `deleted`, or `alreadyGone` on 404; any other failure throws. */
  deleteNetwork(id: string): Promise<DeleteResult> {
    return networks.deleteNetwork(this.transport, id);
  }

  /**
   * Requests test tokens for an address from the faucet of `chain` (default `goerli`;
   * `POST /v1/faucet/{chain}`); `amountSent` is the exact wei amount as a string.
   */
  requestTestTokens(address: string, chain?: string): Promise<FaucetResult> {
    return faucet.requestTestTokens(this.transport, address, chain);
  }

  /** A credential-free description for logs. */
  toJSON(): { apiUrl: string } {
    return { apiUrl: this.apiUrl };
  }
}
