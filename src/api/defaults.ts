/**
 * Every default of the API client, in one place. Each can be overridden through
 * {@link NodeServiceClientOptions}; nothing else in `src/api/` hard-codes a timing or a limit.
 */

/** Per-attempt timeout: one HTTP attempt (connect, headers and body) is aborted after 20 s. */
export const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Overall deadline of one call across all its attempts and the waits between them: 60 s, so that
 * a call that meets a hung or trickling service ends within a minute by default.
 */
export const DEFAULT_DEADLINE_MS = 60_000;

/** Retries after the first attempt (so at most 5 attempts per call). */
export const DEFAULT_MAX_RETRIES = 4;

/** First backoff delay before jitter: 250 ms. */
export const DEFAULT_BASE_DELAY_MS = 250;

/** Growth factor of the exponential backoff: each retry waits twice as long as the previous one. */
export const DEFAULT_BACKOFF_FACTOR = 2;

/** Upper bound of a locally computed backoff delay: 8 s. */
export const DEFAULT_MAX_DELAY_MS = 8_000;

/**
 * Longest server-requested wait (`Retry-After`, or the faucet's `nextFaucetAvailable`) the
 * client honours: 60 s. A longer request makes the call fail with a rate-limited error that
 * says when to try again.
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether backoff delays are jittered: each delay is drawn uniformly from [half, full] of the
 * exponential delay, so that many clients do not retry in lockstep.
 */
export const DEFAULT_JITTER = true;

/**
 * Overall deadline of one listing (every page of `listNodes` / `listAllNodes`, with their retries
 * and waits): 10 minutes. A listing that takes longer fails with a `timeout` error
 * (`listing_deadline_exceeded`) instead of running on.
 */
export const DEFAULT_LIST_DEADLINE_MS = 600_000;

/**
 * Most pages a listing fetches when the first page gives no usable `count` to bound it: 10,000.
 * With a `count`, a listing fetches at most the pages that count needs, plus
 * {@link LIST_SLACK_PAGES} for nodes added while it runs.
 */
export const MAX_LIST_PAGES = 10_000;

/** Pages a listing may fetch beyond what the first page's `count` promises: 5. */
export const LIST_SLACK_PAGES = 5;

/** Client-side rate limit: at most 10 requests (attempts, retries included) per second. */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 10;

/** Default `maxConcurrentRequests`: request attempts in flight at once across one client. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

/** HTTP statuses retried for idempotent methods (GET, PATCH, DELETE): 429, 502, 503, 504. */
export const RETRYABLE_STATUSES: readonly number[] = [429, 502, 503, 504];

/**
 * Error codes of a failed connection (refused, reset, dropped) that idempotent calls retry.
 * `socket hang up` (a connection closed before the response) is recognised by its message.
 */
export const RETRYABLE_CONNECTION_CODES: readonly string[] = [
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
];

/**
 * Largest response body the client reads, after decompression: 32 MiB. A longer body (or a
 * `Content-Length` above it) aborts the attempt with an `invalid_response` error
 * (`response_too_large`), without reading the rest. A page of 100 nodes is about 150 KB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Largest timer delay Node.js honours (2^31 - 1 ms, about 24.8 days); longer timers fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Largest `retry.maxRetries` accepted: 100. */
export const MAX_RETRIES_LIMIT = 100;

/** Smallest positive `maxRequestsPerSecond`: one request per `MAX_TIMER_MS`. */
export const MIN_REQUESTS_PER_SECOND = 1000 / MAX_TIMER_MS;

/** How many characters of an unexpected response body an error message quotes: 200. */
export const BODY_PREVIEW_CHARS = 200;

/** The `User-Agent` header sent with every request. */
export const USER_AGENT = "pulumi-blockchain-nodes";

/** Host names treated as loopback, where plain `http://` is allowed (a local emulator). */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["localhost", "[::1]"];

/** The text that replaces a credential in errors and logs. */
export const REDACTED = "[REDACTED]";

/** The default wait between attempts and for a rate-limiter slot: one plain timer. */
export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
