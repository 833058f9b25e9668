/** `NodeServiceClient`: the typed client of the service, composing the endpoint modules. */
import nodeFetch from "node-fetch";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_REQUESTS_PER_SECOND,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
} from "./defaults";
import { InvalidInputError } from "./errors";
import * as faucet from "./faucet";
import * as networks from "./networks";
import * as nodes from "./nodes";
import { RateLimiter } from "./rate-limiter";
import { createRedactor } from "./redact";
import { FetchLike, Transport, defaultSleep } from "./request";
import { DEFAULT_RETRY_POLICY, RetryPolicy } from "./retry";
import type { DeleteResult, FaucetResult, Network, NetworkUpdate, Node, NodeFilters } from "./types";
import { ApiUrlError, parseApiUrl } from "./url";

/** Retry settings; every field is optional and defaults to `defaults.ts`. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 4. `0` disables retries. */
  maxRetries?: number;
  /** First backoff delay, ms. Default 250. */
  baseDelayMs?: number;
  /** Cap of a backoff delay, ms. Default 8000. */
  maxDelayMs?: number;
  /** Longest server-requested wait (`Retry-After`) honoured, ms; longer → fail. Default 60000. */
  maxRetryAfterMs?: number;
  /** Jitter backoff delays into [half, full]. Default true. */
  jitter?: boolean;
}

/** Options of {@link NodeServiceClient}. */
export interface NodeServiceClientOptions {
  /**
   * The service's base URL (`https://api.example.com`, optionally with a path prefix and a
   * trailing slash); paths `/v1/...` are appended. Must be `https://`, except on loopback hosts
   * (`localhost`, `127.0.0.0/8`, `[::1]`) where `http://` is allowed for a local emulator.
   */
  apiUrl: string;
  /** The API key, sent as `Authorization: Bearer <key>`; never appears in errors. */
  apiKey: string;
  /** Per-attempt timeout, ms. Default 30000. */
  timeoutMs?: number;
  /** Overall deadline of one call across its attempts and waits, ms. Default 120000. */
  deadlineMs?: number;
  /** Retry settings, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Client-side limit of request attempts per second. Default 10; `0` or `Infinity` disables. */
  maxRequestsPerSecond?: number;
  /** The fetch function. Default node-fetch v2. */
  fetch?: FetchLike;
  /** Waits between retries (injectable for tests). Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, ms (injectable for tests). Default `Date.now`. */
  now?: () => number;
  /** Random numbers in [0, 1) for jitter (injectable for tests). Default `Math.random`. */
  random?: () => number;
}

const OPERATION = "NodeServiceClient";

function optionError(
  field: string,
  value: unknown,
  allowed: string,
  code = "invalid_option",
): InvalidInputError {
  return new InvalidInputError({
    operation: OPERATION,
    code,
    detail: "invalid client options",
    fields: { [field]: [`got ${value === undefined ? "undefined" : String(value)}; ${allowed}`] },
    attempts: 0,
  });
}

function positive(field: string, value: unknown, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0 || (!allowZero && value === 0)) {
    throw optionError(
      field,
      value,
      `expected a ${allowZero ? "non-negative" : "positive"} number of milliseconds`,
    );
  }
  return value;
}

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

  /** Checks the options and builds the client; throws an `InvalidInputError` when they are wrong. */
  constructor(options: NodeServiceClientOptions) {
    if (typeof options !== "object" || options === null) {
      throw optionError("options", options, "expected { apiUrl, apiKey, ... }");
    }
    let base;
    try {
      base = parseApiUrl(options.apiUrl);
    } catch (error) {
      if (!(error instanceof ApiUrlError)) throw error;
      throw new InvalidInputError({
        operation: OPERATION,
        code: "invalid_api_url",
        detail: error.message,
        attempts: 0,
      });
    }
    const apiKey: unknown = options.apiKey;
    if (typeof apiKey !== "string" || apiKey.trim() === "") {
      throw new InvalidInputError({
        operation: OPERATION,
        code: "missing_api_key",
        detail:
          "the API key is empty: set BLOCKCHAIN_API_KEY, or `pulumi config set --secret blockchain:apiKey <key>`",
        attempts: 0,
      });
    }
    if (/[\r\n]/.test(apiKey)) {
      throw new InvalidInputError({
        operation: OPERATION,
        code: "invalid_api_key",
        detail: "the API key contains a line break; check how it was copied",
        attempts: 0,
      });
    }
    const key = apiKey.trim();
    const timeoutMs = positive("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS);
    const deadlineMs = positive("deadlineMs", options.deadlineMs, DEFAULT_DEADLINE_MS);
    const rate = options.maxRequestsPerSecond ?? DEFAULT_MAX_REQUESTS_PER_SECOND;
    if (typeof rate !== "number" || Number.isNaN(rate) || rate < 0) {
      throw optionError(
        "maxRequestsPerSecond",
        rate,
        "expected a positive number, or 0 or Infinity for no limit",
      );
    }
    let maxAttempts = 1;
    let retryPolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
    if (options.retry !== false) {
      const r = options.retry ?? {};
      if (typeof r !== "object" || r === null) throw optionError("retry", r, "expected an object or false");
      const maxRetries = r.maxRetries ?? DEFAULT_MAX_RETRIES;
      if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) {
        throw optionError("retry.maxRetries", maxRetries, "expected a non-negative integer");
      }
      maxAttempts = maxRetries + 1;
      retryPolicy = {
        ...retryPolicy,
        baseDelayMs: positive("retry.baseDelayMs", r.baseDelayMs, retryPolicy.baseDelayMs, true),
        maxDelayMs: positive("retry.maxDelayMs", r.maxDelayMs, retryPolicy.maxDelayMs, true),
        maxRetryAfterMs: positive(
          "retry.maxRetryAfterMs",
          r.maxRetryAfterMs,
          retryPolicy.maxRetryAfterMs,
          true,
        ),
        jitter: r.jitter ?? retryPolicy.jitter,
      };
    }
    const now = options.now ?? Date.now;
    this.apiUrl = base.href;
    this.transport = {
      base,
      authorization: () => `Bearer ${key}`,
      redact: createRedactor([key, apiKey]),
      fetch: options.fetch ?? (nodeFetch as unknown as FetchLike),
      timeoutMs,
      deadlineMs,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      maxAttempts,
      retryPolicy,
      limiter: new RateLimiter({ maxRequestsPerSecond: rate, now, sleep: options.sleep }),
      sleep: options.sleep ?? defaultSleep,
      now,
      random: options.random ?? Math.random,
    };
    // Keep the transport (and the key in its closures) out of enumeration, inspection and JSON.
    Object.defineProperty(this, "transport", { enumerable: false });
  }

  /**
   * Lists the nodes of the networks the caller's organization is part of, fetching pages lazily
   * and following `next` until it is null. Filters are checked synchronously (an invalid filter
   * throws an `InvalidInputError` here, before any request).
   */
  listNodes(filters?: NodeFilters): AsyncIterable<Node> {
    return nodes.listNodes(this.transport, filters);
  }

  /**
   * Collects all matching nodes up to the required `limit`; fails (rather than truncating) when
   * more than `limit` nodes match.
   */
  listAllNodes(filters: NodeFilters | undefined, options: { limit: number }): Promise<Node[]> {
    return nodes.listAllNodes(this.transport, filters, options);
  }

  /** Retrieves one node (`ND-…`). A 404 throws a `NotFoundError`. */
  getNode(id: string): Promise<Node> {
    return nodes.getNode(this.transport, id);
  }

  /** Reads a network and its nodes with a `PATCH` of an empty body `{}` (the service has no GET). */
  readNetwork(id: string): Promise<Network> {
    return networks.readNetwork(this.transport, id);
  }

  /** Changes a network's `name` and/or `project`; with neither, reads it. */
  updateNetwork(id: string, update: NetworkUpdate): Promise<Network> {
    return networks.updateNetwork(this.transport, id, update);
  }

  /** Deletes a network: `deleted`, or `alreadyGone` on 404; any other failure throws. */
  deleteNetwork(id: string): Promise<DeleteResult> {
    return networks.deleteNetwork(this.transport, id);
  }

  /** Requests test tokens for an address; `amountSent` is the exact wei amount as a string. */
  requestTestTokens(address: string): Promise<FaucetResult> {
    return faucet.requestTestTokens(this.transport, address);
  }

  /** A credential-free description for logs. */
  toJSON(): { apiUrl: string } {
    return { apiUrl: this.apiUrl };
  }
}
