/**
 * What a call needs and gives: the fetch function it uses, the transport a client builds once
 * (origin, key, redactor, limits, retry policy, limiter, clock), one call's description and a
 * successful answer.
 */
import { secretValues } from "../model";
import type { ConcurrencyLimiter } from "./limits";
import type { LearnedSecrets } from "./learned-secrets";
import type { RateLimiter } from "./limits";
import type { Redactor } from "./redact";
import type { RetryPolicy } from "./retry";
import type { Node } from "./types";
import type { ApiBase } from "./url";

/** The parts of a fetch `Response` the client reads (node-fetch v2 and WHATWG fetch both fit). */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  /** The body stream, when there is one (read with a size cap; see `body.ts`). */
  body?: unknown;
  text(): Promise<string>;
}

/** The request options the client passes to fetch. */
export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: "manual";
}

/**
 * A fetch function: node-fetch v2 by default; inject another (a recorder, a fake) through the
 * client's `fetch` option.
 */
export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

/**
 * Everything a request needs besides the request itself. Built once by the client; holds the key
 * only inside the `authorization` closure, so that printing a transport never shows it.
 */
export interface Transport {
  /** The configured API origin and path prefix. */
  base: ApiBase;
  /** Returns the `Authorization` header value. */
  authorization: () => string;
  /** Redacts the API key, the credentials learned so far and generic credential patterns from a text. */
  redact: Redactor;
  /**
   * Credentials this client has read in the service's answers (node passwords, keys, endpoint
   * URLs): `redact` removes them too, so an error that echoes one never shows it.
   */
  learned?: LearnedSecrets;
  /** The fetch function. */
  fetch: FetchLike;
  /** Per-attempt timeout, ms. */
  timeoutMs: number;
  /** Overall deadline of a call across attempts, ms. */
  deadlineMs: number;
  /** Largest response body read, in bytes after decompression; see `DEFAULT_MAX_RESPONSE_BYTES`. */
  maxResponseBytes: number;
  /** Most attempts per call (retries + 1; 1 when retries are off). */
  maxAttempts: number;
  /** The retry tunables. */
  retryPolicy: RetryPolicy;
  /** The client-side rate limiter, applied to every attempt. */
  limiter: RateLimiter;
  /**
   * The client-wide bound on attempts in flight (`maxConcurrentRequests`), taken around each
   * attempt; none when absent.
   */
  concurrency?: ConcurrencyLimiter;
  /** How many pages a listing fetches at once; 1 (or absent) walks `next` one page at a time. */
  maxConcurrentRequests?: number;
  /** Waits between attempts. */
  sleep: (ms: number) => Promise<void>;
  /** The clock, ms. */
  now: () => number;
  /** Random numbers in [0, 1) for jitter. */
  random: () => number;
  /** Told of each wait between two attempts of a call, before it starts; see {@link RetryWait}. */
  onWait?: (event: RetryWait) => void;
}

/** A wait between two attempts of one call, as the `onWait` option reports it. No credential in it. */
export interface RetryWait {
  /** The client operation, e.g. `getNode`. */
  operation: string;
  /** The id the call is about, when there is one. */
  resourceId?: string;
  /** What ended the last attempt, e.g. `the service answered 429`, `no answer within 20 s`. */
  reason: string;
  /** The HTTP status of the last attempt, when the service answered. */
  status?: number;
  /** How long the wait is, ms. */
  delayMs: number;
  /** The attempt that follows the wait (2 for the first retry). */
  nextAttempt: number;
  /** The most attempts the call makes. */
  maxAttempts: number;
  /** One line for a log: "<operation> <id>: <reason>; waiting <duration> before attempt <n> of <max>". */
  message: string;
}

/** One logical call. */
export interface RequestSpec {
  /** The client operation, for error messages (`getNode`). */
  operation: string;
  /** The id the call is about, for error messages. */
  resourceId?: string;
  /** HTTP method. */
  method: "GET" | "PATCH" | "DELETE" | "POST";
  /** Absolute URL on the configured origin (see `url.ts`). */
  url: string;
  /** JSON body, serialized by the request. */
  body?: unknown;
}

/** A successful answer: status, raw text and the parsed JSON (`undefined` for an empty body). */
export interface ApiResponse {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
  /** Attempts it took. */
  attempts: number;
}

/** Remembers the credentials of nodes just read (see {@link Transport.learned}). */
export function learnNodeSecrets(t: Transport, nodes: readonly Node[]): void {
  if (!t.learned) return;
  for (const node of nodes) t.learned.learn(secretValues(node.details));
}
