/** The client's options, every default in one place, and the one check that makes them a {@link Context}. */
import { setMaxListeners } from "events";
import { closestName, MAX_API_KEY_LENGTH, ownValue, show } from "../model/rules";
import type { Limiter } from "./limits";
import { createRedactor, LearnedSecrets, type Redactor } from "./redact";
import { ApiUrlError, parseApiUrl, type ApiBase } from "./url";
import { InvalidInputError } from "./errors";

/** Per-attempt timeout: one HTTP attempt (connect, headers and body) is aborted after 20 s. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** Deadline of one call (a whole listing included), across its attempts and waits: 60 s. */
export const DEFAULT_DEADLINE_MS = 60_000;
/** Retries after the first attempt: at most 5 attempts per call. */
export const DEFAULT_MAX_RETRIES = 4;
/** First backoff delay; each retry doubles it, up to {@link DEFAULT_MAX_DELAY_MS}, drawn from [half, full]. */
const DEFAULT_BASE_DELAY_MS = 250;
/** Longest backoff delay computed locally. */
const DEFAULT_MAX_DELAY_MS = 8_000;
/** No cap on attempts started per second: the pace adapts to the service (see limits.ts). */
const DEFAULT_MAX_REQUESTS_PER_SECOND = 0;
/** Request attempts in flight at once across one client; a listing fetches this many pages ahead. */
const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;
/** Largest timer Node.js honours (2^31 - 1 ms, about 24.8 days): longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;
export const MAX_RETRIES_LIMIT = 100;

const everyRequest = new AbortController();
setMaxListeners(0, everyRequest.signal);
/** Aborted by {@link abortEveryRequest} once every request of the process must end: every attempt and wait listens. */
export const everyRequestSignal: AbortSignal = everyRequest.signal;

/** Ends every call of every client in this process for good, each rejecting with `reason` (a provider's engine stops). */
export function abortEveryRequest(reason: Error): void {
  everyRequest.abort(reason);
}

/** Waits `ms` with one timer; rejects at once when {@link abortEveryRequest} comes first. */
export function defaultSleep(ms: number): Promise<void> {
  const signal = everyRequestSignal;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const cut = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    // The global timer, which tests may fake.
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", cut);
      resolve();
    }, ms);
    signal.addEventListener("abort", cut, { once: true });
  });
}

/** The parts of a fetch `Response` the client reads (node-fetch v2 and WHATWG fetch both fit). */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** What the client passes to fetch; `size` is node-fetch's body cap (another fetch may ignore it). */
export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: "manual";
  size: number;
}

/** A fetch function: node-fetch v2 by default. */
export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

/**
 * A wait between two attempts of one call, as `onWait` reports it, with no credential in it: the
 * call's `operation` (the caller's name for it, e.g. `getNodesOutput`) and `resourceId`, what
 * ended the last attempt (`reason`, e.g. `the service answered 429`, and its HTTP `status`), the
 * wait `delayMs`, the `nextAttempt` of `maxAttempts`, and `message`, one line for a log:
 * "<operation> <id>: <reason>; waiting <duration> before attempt <n> of <max>".
 */
export interface RetryWait {
  operation: string;
  resourceId?: string;
  reason: string;
  status?: number;
  delayMs: number;
  nextAttempt: number;
  maxAttempts: number;
  message: string;
}

/** Retry settings; each is optional. */
export interface RetryOptions {
  /** Retries after the first attempt: an integer from 0 to 100. Default 4; `0` disables retries. */
  maxRetries?: number;
  /** First backoff delay, ms (0 to 2^31 - 1). Default 250. */
  baseDelayMs?: number;
  /** Longest backoff delay, ms (0 to 2^31 - 1). Default 8000. */
  maxDelayMs?: number;
}

/**
 * Options of `NodeServiceClient`, checked once when the client is built: a wrong type, a value
 * out of range or an unknown name throws an `InvalidInputError` whose `fields` name the option.
 */
export interface NodeServiceClientOptions {
  /**
   * The service's base URL (`https://api.example.com`, optionally with a path prefix); paths
   * `/v1/...` are appended. `https://` only, except `http://` on loopback hosts (a local
   * emulator). No credentials, query or fragment.
   */
  apiUrl: string;
  /** The API key, sent as `Authorization: Bearer <key>`; trimmed; printable ASCII only. Never in errors. */
  apiKey: string;
  /** Per-attempt timeout, ms: above 0, at most 2^31 - 1. Default 20000. */
  timeoutMs?: number;
  /**
   * Deadline of one call (a listing included) across its attempts and waits, ms: above 0, at most
   * 2^31 - 1. Default 60000; for a write (a PATCH that changes a network, a DELETE, the faucet's
   * POST), 20000 or `timeoutMs` when longer: by default a write that got no answer is not sent again.
   */
  deadlineMs?: number;
  /** Retry settings, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /**
   * A hard cap on request attempts started per second by the process: a positive number, or
   * `0`/`Infinity` for none. Default none: the pace adapts to the service's throttling.
   */
  maxRequestsPerSecond?: number;
  /** Request attempts in flight at once across the client, pages fetched ahead included: a positive integer. Default 8. */
  maxConcurrentRequests?: number;
  /** The fetch function. Default node-fetch v2. */
  fetch?: FetchLike;
  /** Told of each wait between two attempts, as it starts (see {@link RetryWait}). */
  onWait?: (event: RetryWait) => void;
}

/**
 * What every call of one client shares, built once from its checked options. The key lives only in the
 * `authorization` closure; `redact` hides it, the credentials `learned` from answers, and generic patterns.
 */
export interface Context {
  base: ApiBase;
  authorization: () => string;
  redact: Redactor;
  learned: LearnedSecrets;
  fetch?: FetchLike;
  timeoutMs: number;
  deadlineMs: number;
  /**
   * A write's deadline: `deadlineMs` when set, else 20 s or `timeoutMs` when longer, at most 60 s: by default a
   * write unanswered within its attempt is not sent again, and a run stopped meanwhile ends within this bound.
   */
  writeDeadlineMs: number;
  /** Retries + 1. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  limiter: Limiter;
  maxConcurrentRequests: number;
  onWait?: (event: RetryWait) => void;
}

const RETRY_NAMES = ["maxRetries", "baseDelayMs", "maxDelayMs"] as const;
const TIMER_TEXT = `at most ${MAX_TIMER_MS} (about 24.8 days, the longest timer Node.js honours)`;

/** What is expected when an option's `value` is wrong, else undefined. */
type Check = (value: unknown) => string | undefined;

const number =
  (ok: (n: number) => boolean, expected: string): Check =>
  (value) =>
    typeof value === "number" && !Number.isNaN(value) && ok(value) ? undefined : expected;
const duration = (min: number): Check =>
  number(
    (n) => (min > 0 ? n > 0 : n >= 0) && n <= MAX_TIMER_MS,
    `expected a ${min > 0 ? "positive" : "non-negative"} number of milliseconds, ${TIMER_TEXT}`,
  );
const fn: Check = (value) => (typeof value === "function" ? undefined : "expected a function");

/** The checks of every option but `apiUrl`, `apiKey` and `retry` (checked on their own). */
const CHECKS: Record<string, Check> = {
  timeoutMs: duration(1),
  deadlineMs: duration(1),
  maxRequestsPerSecond: number(
    (n) => n === 0 || n >= 1000 / MAX_TIMER_MS,
    "expected a positive number of requests per second, or 0 or Infinity for no limit",
  ),
  maxConcurrentRequests: number(
    (n) => Number.isSafeInteger(n) && n > 0,
    "expected a positive integer number of requests in flight at once",
  ),
  fetch: fn,
  onWait: fn,
  "retry.maxRetries": number(
    (n) => Number.isSafeInteger(n) && n >= 0 && n <= MAX_RETRIES_LIMIT,
    `expected an integer from 0 to ${MAX_RETRIES_LIMIT} (0 disables retries)`,
  ),
  "retry.baseDelayMs": duration(0),
  "retry.maxDelayMs": duration(0),
};

/** Every option name, in the order of the docs. */
export const CLIENT_OPTION_NAMES = ["apiUrl", "apiKey", "retry", ...Object.keys(CHECKS)].filter(
  (name) => !name.startsWith("retry."),
);

const own = (object: object, key: string): unknown => ownValue(object, key);

/** Unknown option names, each with the known one it resembles. */
function unknownNames(fields: Fields, given: object, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    const shown = key.length > 40 ? `${key.slice(0, 37)}...` : key;
    fields[prefix + shown] = [
      `unknown option${near ? ` (did you mean ${prefix}${near}?)` : ""}; expected one of ${known.map((k) => prefix + k).join(", ")}`,
    ];
  }
}

/**
 * Checks every option and returns them with the defaults filled in. Throws an `InvalidInputError`
 * naming each wrong option (`invalid_option`; `invalid_api_url`, `missing_api_key`,
 * `invalid_api_key` for the URL and the key); no error shows the key.
 */
export function checkOptions(options: unknown) {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    refuse(createRedactor(), "invalid_option", "invalid client options", {
      options: [`got ${typeOf(options)}; expected an object { apiUrl, apiKey, ... }`],
    });
  }
  const rawKey = own(options, "apiKey");
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  const secrets = key.length >= 4 ? [rawKey as string, key] : [];
  // Names first: a typo such as `apiURL` or `timeoutMS` is the likeliest mistake.
  // Null prototype: an option named `__proto__` is a name like any other.
  const fields: Fields = Object.create(null);
  unknownNames(fields, options, CLIENT_OPTION_NAMES, "");
  const rawRetry = own(options, "retry");
  const retry = typeof rawRetry === "object" && rawRetry !== null && !Array.isArray(rawRetry) ? rawRetry : {};
  unknownNames(fields, retry, RETRY_NAMES, "retry.");
  if (Object.keys(fields).length > 0)
    refuse(createRedactor(secrets), "invalid_option", "invalid client options", fields);

  const base = checkUrlAndKey(own(options, "apiUrl"), rawKey, secrets);
  const value = (name: string) =>
    name.startsWith("retry.") ? own(retry, name.slice(6)) : own(options, name);
  for (const [name, check] of Object.entries(CHECKS)) {
    const v = value(name);
    const expected = v === undefined ? undefined : check(v);
    if (expected) fields[name] = [`got ${show(v)}; ${expected}`];
  }
  if (rawRetry !== undefined && rawRetry !== false && retry !== rawRetry) {
    fields.retry = [
      `got ${show(rawRetry)}; expected an object of retry settings, or false for a single attempt`,
    ];
  }
  if (Object.keys(fields).length > 0)
    refuse(createRedactor(secrets), "invalid_option", "invalid client options", fields);

  const or = <T>(name: string, fallback: T) => (value(name) as T | undefined) ?? fallback;
  const learned = new LearnedSecrets();
  const timeoutMs = or("timeoutMs", DEFAULT_TIMEOUT_MS);
  return {
    base,
    authorization: () => `Bearer ${key}`,
    // Credentials read from the service are removed too, besides the key and the generic patterns.
    redact: createRedactor(secrets, learned),
    learned,
    fetch: own(options, "fetch") as FetchLike | undefined,
    timeoutMs,
    deadlineMs: or("deadlineMs", DEFAULT_DEADLINE_MS),
    writeDeadlineMs: or("deadlineMs", Math.min(DEFAULT_DEADLINE_MS, Math.max(timeoutMs, DEFAULT_TIMEOUT_MS))),
    maxAttempts: rawRetry === false ? 1 : or("retry.maxRetries", DEFAULT_MAX_RETRIES) + 1,
    baseDelayMs: or("retry.baseDelayMs", DEFAULT_BASE_DELAY_MS),
    maxDelayMs: or("retry.maxDelayMs", DEFAULT_MAX_DELAY_MS),
    maxRequestsPerSecond: or("maxRequestsPerSecond", DEFAULT_MAX_REQUESTS_PER_SECOND),
    maxConcurrentRequests: or("maxConcurrentRequests", DEFAULT_MAX_CONCURRENT_REQUESTS),
    onWait: own(options, "onWait") as Context["onWait"],
  };
}

/** A value described by its type only: for what may be a credential. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string of ${value.length} characters`;
  return typeof value === "object" || value === undefined ? String(typeof value) : `a ${typeof value}`;
}

type Fields = Record<string, string[]>;

/** Throws the `InvalidInputError` of refused options (nothing was sent), redacted with `r`. */
function refuse(r: Redactor, code: string, detail: string, fields: Fields, hint?: string): never {
  throw new InvalidInputError({ operation: "NodeServiceClient", code, detail, fields, attempts: 0, hint }, r);
}

/** The first character of a key an HTTP header cannot carry, described without showing it. */
function headerProblem(key: string): string | undefined {
  const chars = [...key];
  const at = chars.findIndex((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e);
  if (at < 0) return undefined;
  const code = chars[at].charCodeAt(0);
  const what =
    code === 10 || code === 13
      ? "a line break"
      : code < 0x20 || code === 0x7f
        ? "a control character"
        : "a non-ASCII character";
  return `the API key contains a character that cannot be sent in an HTTP header (${what} at position ${at + 1} of ${chars.length}); check how it was copied`;
}

/** Checks the API URL, then the key; returns the parsed URL. No error shows the key or a refused URL. */
function checkUrlAndKey(rawUrl: unknown, rawKey: unknown, secrets: string[]): ApiBase {
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  let base: ApiBase | undefined;
  try {
    base = parseApiUrl(rawUrl);
    if (key.length >= 8 && (rawUrl as string).includes(key))
      throw new ApiUrlError(
        "the API URL contains the API key; give the key only as apiKey, never in the URL",
      );
  } catch (error) {
    if (!(error instanceof ApiUrlError)) throw error;
    // A refused URL may be a key put in the wrong place: it is redacted too.
    const url = typeof rawUrl === "string" && rawUrl.trim().length >= 8 ? [rawUrl, rawUrl.trim()] : [];
    const isUrl = (v: unknown) => typeof v === "string" && /^\s*https?:\/\//i.test(v);
    const swapped = !isUrl(rawUrl) && isUrl(rawKey);
    refuse(
      createRedactor([...secrets, ...url]),
      "invalid_api_url",
      "invalid API URL",
      { apiUrl: [error.message] },
      swapped ? "apiKey looks like a URL and apiUrl does not: were apiUrl and apiKey swapped?" : undefined,
    );
  }
  const redactor = createRedactor(secrets);
  if (key === "") {
    const got =
      typeof rawKey === "string" ? (rawKey === "" ? "an empty string" : "only whitespace") : typeOf(rawKey);
    refuse(redactor, "missing_api_key", "the API key is empty", {
      apiKey: [`got ${got}; expected the API key${typeof rawKey === "string" ? "" : " as a string"}`],
    });
  }
  const problem =
    key.length > MAX_API_KEY_LENGTH
      ? `the API key is ${key.length} characters long, more than the ${MAX_API_KEY_LENGTH} accepted; check how it was copied`
      : headerProblem(key);
  if (problem) refuse(redactor, "invalid_api_key", "invalid API key", { apiKey: [problem] });
  return base;
}
