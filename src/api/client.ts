/** `NodeServiceClient`: the typed client of the service, composing the endpoint modules; and the names its users need. */
import { createHash } from "crypto";
import { sharedLimiter } from "./limits";
import * as nodes from "./nodes";
import { checkOptions, type Context, type NodeServiceClientOptions } from "./options";
import type { CallOptions } from "./request";
import type { DeleteResult, FaucetResult, NetworkInfo, NetworkUpdate, Node, NodeFilters } from "./types";

// What the client's users name besides it (`pulumi-blockchain-nodes/client`): its errors, options and objects.
export {
  ApiError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidResponseError,
  isApiError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
  type ApiErrorKind,
} from "./errors";
export type { ListAllOptions, ListOptions } from "./nodes";
export type {
  FetchInitLike,
  FetchLike,
  FetchResponseLike,
  NodeServiceClientOptions,
  RetryOptions,
  RetryWait,
} from "./options";
export type {
  Creator,
  DeleteResult,
  FaucetResult,
  NetworkInfo,
  NetworkUpdate,
  Node,
  NodeDetails,
  NodeFilters,
} from "./types";

const transports = new WeakMap<object, number>();
let transportCount = 0;
/** A number per `fetch` function given (0: node-fetch). */
const transportId = (fetch?: object) =>
  !fetch ? 0 : (transports.get(fetch) ?? transports.set(fetch, ++transportCount).get(fetch)!);

/**
 * The typed client of the blockchain node service. Every call checks its input before sending
 * anything, goes through one request path (limiter, timeout, deadline, retries) and returns
 * camelCase objects; errors are `ApiError`s without credentials, named by the call's
 * `operation` (default the method's name).
 *
 * @example
 * const client = new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey });
 * for await (const node of client.listNodes({ protocol: "ethereum" })) console.log(node.id);
 */
export class NodeServiceClient {
  /** The normalized API URL (origin and path prefix). */
  readonly apiUrl: string;
  private readonly t: Context;

  /** Checks every option and builds the client; a wrong option throws an `InvalidInputError` naming it. */
  constructor(options: NodeServiceClientOptions) {
    const { maxRequestsPerSecond, ...checked } = checkOptions(options);
    this.apiUrl = checked.base.href;
    // Clients of one service, key and transport share one limiter: the process is polite, not
    // each client (a client given its own `fetch` gets its own).
    const key = createHash("sha256").update(checked.authorization()).digest("hex");
    const service = `${checked.base.href} ${key} ${transportId(checked.fetch)}`;
    const limiter = sharedLimiter(service, maxRequestsPerSecond, checked.maxConcurrentRequests);
    this.t = { ...checked, limiter };
    // Keep the key's closure out of enumeration, inspection and JSON.
    Object.defineProperty(this, "t", { enumerable: false });
  }

  /**
   * The nodes of the networks the caller's organization is part of, pages fetched as you iterate
   * (following `next`). A wrong filter throws an `InvalidInputError` here, before any request.
   */
  listNodes(filters?: NodeFilters, options?: nodes.ListOptions): AsyncIterable<Node> {
    return nodes.listNodes(this.t, filters, options);
  }

  /** Every matching node up to the required `limit`; more matching nodes fail rather than truncate. */
  listAllNodes(filters: NodeFilters | undefined, options: nodes.ListAllOptions): Promise<Node[]> {
    return nodes.listAllNodes(this.t, filters, options);
  }

  /** One node (`ND-…`). A 404 throws a `NotFoundError`. */
  getNode(id: string, options?: CallOptions): Promise<Node> {
    return nodes.getNode(this.t, id, options);
  }

  /** A network and its nodes, read with a `PATCH` of an empty body `{}` (the service has no GET). */
  readNetwork(id: string, options?: CallOptions): Promise<NetworkInfo> {
    return nodes.readNetwork(this.t, id, options);
  }

  /** Changes a network's `name` and/or `project`; with neither, reads it. */
  updateNetwork(id: string, update: NetworkUpdate, options?: CallOptions): Promise<NetworkInfo> {
    return nodes.updateNetwork(this.t, id, update, options);
  }

  /** Deletes a network: `deleted`, or `alreadyGone` on the service's own 404; any other failure throws. */
  deleteNetwork(id: string, options?: CallOptions): Promise<DeleteResult> {
    return nodes.deleteNetwork(this.t, id, options);
  }

  /**
   * Test tokens for `address` from the faucet of `chain` (default `goerli`; `POST
   * /v1/faucet/{chain}`); `amountSent` is the exact wei amount as a string.
   */
  requestTestTokens(address: string, chain?: string, options?: CallOptions): Promise<FaucetResult> {
    return nodes.requestTestTokens(this.t, address, chain, options);
  }

  /** A credential-free description for logs. */
  toJSON(): { apiUrl: string } {
    return { apiUrl: this.apiUrl };
  }
}
