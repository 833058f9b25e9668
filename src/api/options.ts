/**
 * The options of {@link NodeServiceClient}: their documented shape, and the one function that
 * checks every option once, at construction, and returns the settings the client runs with.
 */
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_MAX_REQUESTS_PER_SECOND,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  defaultSleep,
} from "./defaults";
import { checkUrlAndKey, constructionRedactor, fail, keyForms } from "./credential-checks";
import {
  OptionProblems,
  bytesOption,
  concurrencyOption,
  duration,
  func,
  own,
  rateOption,
  retryOption,
  typeOf,
  unknownKeys,
} from "./option-checks";
import { watchedNodeFetch } from "./node-fetch";
import { LearnedSecrets } from "./learned-secrets";
import { createRedactor } from "./redact";
import { DEFAULT_RETRY_POLICY } from "./retry";
import type { FetchLike, RetryWait, Transport } from "./transport";

export { MAX_RETRIES_LIMIT, MIN_REQUESTS_PER_SECOND } from "./defaults";

/** Retry settings; every field is optional and defaults to `defaults.ts`. */
export interface RetryOptions {
  /**
   * Retries after the first attempt: an integer from 0 to {@link MAX_RETRIES_LIMIT} (100).
   * Default 4. `0` disables retries.
   */
  maxRetries?: number;
  /** First backoff delay, ms: a finite number from 0 to `MAX_TIMER_MS` (2^31 - 1). Default 250. */
  baseDelayMs?: number;
  /** Cap of a backoff delay, ms: a finite number from 0 to `MAX_TIMER_MS`. Default 8000. */
  maxDelayMs?: number;
  /**
   * Longest server-requested wait (`Retry-After`) honoured, ms; a longer one makes the call fail.
   * A finite number from 0 to `MAX_TIMER_MS`. Default 60000.
   */
  maxRetryAfterMs?: number;
  /** Jitter backoff delays into [half, full]: `true` or `false`. Default true. */
  jitter?: boolean;
}

/**
 * Options of {@link NodeServiceClient}. Every option is checked once, when the client is built:
 * a wrong type, a value out of range or an unknown option name throws an `InvalidInputError`
 * whose `fields` name the option. Only own properties are read.
 */
export interface NodeServiceClientOptions {
  /**
   * The service's base URL (`https://api.example.com`, optionally with a path prefix and a
   * trailing slash); paths `/v1/...` are appended. Must be `https://`, except on loopback hosts
   * (`localhost`, `127.0.0.0/8`, `[::1]`) where `http://` is allowed for a local emulator. No
   * credentials, query or fragment, and never the API key.
   */
  apiUrl: string;
  /**
   * The API key, sent as `Authorization: Bearer <key>`; never appears in errors. Leading and
   * trailing whitespace is trimmed; a key with a character an HTTP header cannot carry (a control
   * character such as a tab or line break, or any non-ASCII character) is refused.
   */
  apiKey: string;
  /**
   * Per-attempt timeout, ms: a number above 0 and at most `MAX_TIMER_MS` (2^31 - 1, about 24.8
   * days, the longest timer Node.js honours). Default 20000.
   */
  timeoutMs?: number;
  /**
   * Overall deadline of one call across its attempts and waits, ms: a number above 0 and at most
   * `MAX_TIMER_MS`. Default 60000.
   */
  deadlineMs?: number;
  /** Retry settings, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /**
   * Client-side limit of request attempts per second: a positive number of at least
   * {@link MIN_REQUESTS_PER_SECOND} (one request per `MAX_TIMER_MS`). Default 10; `0` or
   * `Infinity` disables the limit.
   */
  maxRequestsPerSecond?: number;
  /**
   * Most request attempts in flight at once across every call of this client: a positive integer.
   * A listing fetches up to this many pages ahead when the first page makes them known (within
   * the rate limit). Default {@link DEFAULT_MAX_CONCURRENT_REQUESTS} (8); `1` walks pages one by
   * one.
   */
  maxConcurrentRequests?: number;
  /**
   * The largest response body read, in bytes after decompression: a positive integer. A larger
   * body (or a `Content-Length` above it) makes the call fail with an `invalid_response` error of
   * code `response_too_large`, without reading the rest. Default `DEFAULT_MAX_RESPONSE_BYTES`
   * (32 MiB).
   */
  maxResponseBytes?: number;
  /**
   * The fetch function. Default node-fetch v2, watched so that a body cut off mid-stream fails at
   * once (`body_interrupted`) instead of after the per-attempt timeout (see `node-fetch.ts`).
   */
  fetch?: FetchLike;
  /** Waits between retries and for the rate limiter (injectable for tests). Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, ms (injectable for tests). Default `Date.now`. */
  now?: () => number;
  /** Random numbers in [0, 1) for jitter (injectable for tests). Default `Math.random`. */
  random?: () => number;
  /**
   * Called once before each wait between two attempts of a call (a 429 with `Retry-After`, a 5xx
   * backoff, a timed-out or dropped attempt), with what happened and how long the wait is, e.g.
   * "getNode ND-1-2-3: the service answered 429; waiting 20 s before attempt 2 of 5". The event
   * holds no credential. Default: nothing is reported.
   */
  onWait?: (event: RetryWait) => void;
}

/**
 * The settings a client runs with: every option checked, defaults filled in. The transport the
 * client builds from them adds the rate limiter (see `Transport`).
 */
export interface ResolvedClientOptions extends Omit<Transport, "limiter" | "concurrency"> {
  /** Request attempts per second; `0` or `Infinity` for no limit. */
  maxRequestsPerSecond: number;
  /** Request attempts in flight at once across the client. */
  maxConcurrentRequests: number;
  /** The `sleep` option as given: the rate limiter uses its own timer when it is undefined. */
  limiterSleep?: (ms: number) => Promise<void>;
}

/** Every option name of {@link NodeServiceClientOptions}. */
export const CLIENT_OPTION_NAMES = [
  "apiUrl",
  "apiKey",
  "timeoutMs",
  "deadlineMs",
  "retry",
  "maxRequestsPerSecond",
  "maxConcurrentRequests",
  "maxResponseBytes",
  "fetch",
  "sleep",
  "now",
  "random",
  "onWait",
] as const satisfies readonly (keyof NodeServiceClientOptions)[];

/** Every option name of {@link RetryOptions}. */
export const RETRY_OPTION_NAMES = [
  "maxRetries",
  "baseDelayMs",
  "maxDelayMs",
  "maxRetryAfterMs",
  "jitter",
] as const satisfies readonly (keyof RetryOptions)[];

/**
 * Checks every client option and returns the settings the client runs with. Throws an
 * `InvalidInputError` (nothing is sent) whose `fields` name each wrong option:
 * - `invalid_option`: the options are not an object, an option name is unknown (the error lists
 *   the known ones), or a value has the wrong type or is out of range;
 * - `invalid_api_url`: `apiUrl` is refused (see `parseApiUrl`), or contains the API key;
 * - `missing_api_key` / `invalid_api_key`: the key is empty, or has a character an HTTP header
 *   cannot carry.
 *
 * No error shows the API key, nor the text of a refused `apiUrl` (which may be a key put in the
 * wrong place): both are redacted from every message.
 */
export function resolveClientOptions(options: unknown): ResolvedClientOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    fail(constructionRedactor([]), "invalid_option", "invalid client options", {
      options: [`got ${typeOf(options)}; expected an object { apiUrl, apiKey, ... }`],
    });
  }
  const rawKey = own(options, "apiKey");
  const { key, secrets } = keyForms(rawKey);
  const redactor = constructionRedactor(secrets);

  // Option names first: a typo such as `apiURL` or `timeoutMS` is the likeliest mistake.
  const names = new OptionProblems();
  unknownKeys(names, options, CLIENT_OPTION_NAMES, "");
  const rawRetry = own(options, "retry");
  if (typeof rawRetry === "object" && rawRetry !== null && !Array.isArray(rawRetry)) {
    unknownKeys(names, rawRetry, RETRY_OPTION_NAMES, "retry.");
  }
  if (!names.empty) fail(redactor, "invalid_option", "invalid client options", names.record());

  const base = checkUrlAndKey(own(options, "apiUrl"), rawKey);

  const problems = new OptionProblems();
  const timeoutMs = duration(problems, "timeoutMs", own(options, "timeoutMs"), DEFAULT_TIMEOUT_MS, false);
  const deadlineMs = duration(problems, "deadlineMs", own(options, "deadlineMs"), DEFAULT_DEADLINE_MS, false);
  const rate = own(options, "maxRequestsPerSecond");
  const maxRequestsPerSecond = rateOption(problems, rate, DEFAULT_MAX_REQUESTS_PER_SECOND);
  const maxConcurrentRequests = concurrencyOption(
    problems,
    own(options, "maxConcurrentRequests"),
    DEFAULT_MAX_CONCURRENT_REQUESTS,
  );
  const maxResponseBytes = bytesOption(
    problems,
    own(options, "maxResponseBytes"),
    DEFAULT_MAX_RESPONSE_BYTES,
  );
  const { maxAttempts, retryPolicy } = retryOption(problems, rawRetry, {
    maxAttempts: DEFAULT_MAX_RETRIES + 1,
    retryPolicy: DEFAULT_RETRY_POLICY,
  });
  const fetch = func<FetchLike>(problems, "fetch", own(options, "fetch"));
  const sleep = func<(ms: number) => Promise<void>>(problems, "sleep", own(options, "sleep"));
  const now = func<() => number>(problems, "now", own(options, "now"));
  const random = func<() => number>(problems, "random", own(options, "random"));
  const onWait = func<(event: RetryWait) => void>(problems, "onWait", own(options, "onWait"));

  if (!problems.empty) fail(redactor, "invalid_option", "invalid client options", problems.record());

  const learned = new LearnedSecrets();
  return {
    base,
    authorization: () => `Bearer ${key}`,
    // Credentials read from the service are removed first, then the key and the generic patterns.
    redact: createRedactor(secrets, learned),
    learned,
    fetch: fetch ?? watchedNodeFetch,
    timeoutMs,
    deadlineMs,
    maxResponseBytes,
    maxAttempts,
    retryPolicy,
    maxRequestsPerSecond,
    maxConcurrentRequests,
    sleep: sleep ?? defaultSleep,
    limiterSleep: sleep,
    now: now ?? Date.now,
    random: random ?? Math.random,
    onWait,
  };
}
