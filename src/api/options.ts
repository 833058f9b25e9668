/**
 * The options of {@link NodeServiceClient}: their documented shape, and the one function that
 * checks every option once, at construction, and returns the settings the client runs with.
 */
import nodeFetch from "node-fetch";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_REQUESTS_PER_SECOND,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMER_MS,
  REDACTED,
  defaultSleep,
} from "./defaults";
import { InvalidInputError } from "./errors";
import { Redactor, createRedactor, redact } from "./redact";
import type { FetchLike, Transport } from "./transport";
import { DEFAULT_RETRY_POLICY, RetryPolicy } from "./retry";
import { ApiBase, ApiUrlError, parseApiUrl } from "./url";

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
   * days, the longest timer Node.js honours). Default 30000.
   */
  timeoutMs?: number;
  /**
   * Overall deadline of one call across its attempts and waits, ms: a number above 0 and at most
   * `MAX_TIMER_MS`. Default 120000.
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
   * The largest response body read, in bytes after decompression: a positive integer. A larger
   * body (or a `Content-Length` above it) makes the call fail with an `invalid_response` error of
   * code `response_too_large`, without reading the rest. Default `DEFAULT_MAX_RESPONSE_BYTES`
   * (32 MiB).
   */
  maxResponseBytes?: number;
  /** The fetch function. Default node-fetch v2. */
  fetch?: FetchLike;
  /** Waits between retries and for the rate limiter (injectable for tests). Default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, ms (injectable for tests). Default `Date.now`. */
  now?: () => number;
  /** Random numbers in [0, 1) for jitter (injectable for tests). Default `Math.random`. */
  random?: () => number;
}

/**
 * The settings a client runs with: every option checked, defaults filled in. The transport the
 * client builds from them adds the rate limiter and the learned credentials (see `Transport`).
 */
export interface ResolvedClientOptions extends Omit<Transport, "limiter" | "learned"> {
  /** Request attempts per second; `0` or `Infinity` for no limit. */
  maxRequestsPerSecond: number;
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
  "maxResponseBytes",
  "fetch",
  "sleep",
  "now",
  "random",
] as const satisfies readonly (keyof NodeServiceClientOptions)[];

/** Every option name of {@link RetryOptions}. */
export const RETRY_OPTION_NAMES = [
  "maxRetries",
  "baseDelayMs",
  "maxDelayMs",
  "maxRetryAfterMs",
  "jitter",
] as const satisfies readonly (keyof RetryOptions)[];

/** Largest `retry.maxRetries` accepted: 100. */
export const MAX_RETRIES_LIMIT = 100;

/** Smallest positive `maxRequestsPerSecond`: one request per `MAX_TIMER_MS`. */
export const MIN_REQUESTS_PER_SECOND = 1000 / MAX_TIMER_MS;

/**
 * Texts shorter than this are not redacted as literals from construction errors (they cannot be
 * told apart from ordinary words, and the messages never quote the key or the URL anyway).
 */
const MIN_LITERAL_SECRET_LENGTH = 4;
/** An invalid API URL shorter than this is not hidden by the redactor: it cannot be a key. */
const MIN_HIDDEN_URL_LENGTH = 8;

const OPERATION = "NodeServiceClient";

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

function own(object: object, key: string): unknown {
  return hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Renders an option value for an error message: short, and never a function's source. */
function describe(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "number":
    case "boolean":
      return String(value);
    case "bigint":
      return `${String(value)}n`;
    case "string":
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      if (value === null) return "null";
      if (Array.isArray(value)) return "an array";
      return "an object";
  }
}

/** Describes a value by its type only: for inputs that may be a credential. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string of ${value.length} characters`;
  const type = typeof value;
  return type === "object" || type === "undefined" ? type : `a ${type}`;
}

function literalForms(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate has no URL encoding; the literal forms still apply.
  }
  return forms;
}

/**
 * A redactor for construction errors: replaces each secret (and its JSON-escaped and URL-encoded
 * forms) with `[REDACTED]`, then applies the generic credential patterns of `redact`. Works for
 * any string, lone surrogates included.
 */
function constructionRedactor(secrets: readonly string[]): Redactor {
  const literals = [
    ...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH).flatMap((s) => literalForms(s))),
  ].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = String(text);
    for (const literal of literals) out = out.split(literal).join(REDACTED);
    return redact(out);
  };
}

class OptionProblems {
  readonly fields = new Map<string, string[]>();

  add(field: string, message: string): void {
    const list = this.fields.get(field);
    if (list) list.push(message);
    else this.fields.set(field, [message]);
  }

  got(field: string, value: unknown, expected: string): void {
    this.add(field, `got ${describe(value)}; ${expected}`);
  }

  get empty(): boolean {
    return this.fields.size === 0;
  }

  record(): Record<string, string[]> {
    return Object.fromEntries(this.fields);
  }
}

function fail(
  redactor: Redactor,
  code: string,
  detail: string,
  fields: Record<string, string[]>,
  hint?: string,
): never {
  throw new InvalidInputError({ operation: OPERATION, code, detail, fields, attempts: 0, hint }, redactor);
}

/** The edit distance of two names, case ignored. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[y.length];
}

/** The known name closest to `name` when it is a likely typo of it (a few edits away). */
function suggestion(known: readonly string[], name: string): string | undefined {
  if (name.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(k, name);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  const allowed = name.length >= 8 ? 3 : 2;
  return bestDistance <= allowed ? best : undefined;
}

function unknownKeys(
  problems: OptionProblems,
  object: object,
  known: readonly string[],
  prefix: string,
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const near = suggestion(known, key);
    const shown = key.length > 40 ? `${key.slice(0, 37)}...` : key;
    problems.add(
      prefix + shown,
      `unknown option${near ? ` (did you mean ${prefix}${near}?)` : ""}; expected one of ${known.map((k) => prefix + k).join(", ")}`,
    );
  }
}

const MAX_TIMER_TEXT = `${MAX_TIMER_MS} (MAX_TIMER_MS, about 24.8 days: Node.js fires longer timers at once)`;

/** A duration in ms: `undefined` → fallback; otherwise finite, in range, at most MAX_TIMER_MS. */
function duration(
  problems: OptionProblems,
  field: string,
  value: unknown,
  fallback: number,
  allowZero: boolean,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== "number" ||
    Number.isNaN(value) ||
    value < 0 ||
    (!allowZero && value === 0) ||
    value > MAX_TIMER_MS
  ) {
    problems.got(
      field,
      value,
      `expected a ${allowZero ? "non-negative" : "positive"} number of milliseconds, at most ${MAX_TIMER_TEXT}`,
    );
    return fallback;
  }
  return value;
}

function func<T>(problems: OptionProblems, field: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") {
    problems.got(field, value, "expected a function");
    return undefined;
  }
  return value as T;
}

/** The first character of a key that an HTTP header cannot carry, described without showing it. */
function headerProblem(key: string): string | undefined {
  let position = 0;
  for (const char of key) {
    position += 1;
    const code = char.codePointAt(0) ?? 0;
    let what: string | undefined;
    if (code === 0x0a || code === 0x0d) what = "a line break";
    else if (code < 0x20 || code === 0x7f) what = "a control character";
    else if (code > 0x7e) what = "a non-ASCII character";
    if (what) {
      return `the API key contains a character that cannot be sent in an HTTP header (${what} at position ${position} of ${[...key].length}); check how it was copied`;
    }
  }
  return undefined;
}

function looksLikeUrl(text: unknown): boolean {
  return typeof text === "string" && /^\s*https?:\/\//i.test(text);
}

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
  const rawUrl = own(options, "apiUrl");
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  const keySecrets = key === "" ? [] : [rawKey as string, key];
  let redactor = constructionRedactor(keySecrets);

  // Option names first: a typo such as `apiURL` or `timeoutMS` is the likeliest mistake.
  const names = new OptionProblems();
  unknownKeys(names, options, CLIENT_OPTION_NAMES, "");
  const rawRetry = own(options, "retry");
  if (typeof rawRetry === "object" && rawRetry !== null && !Array.isArray(rawRetry)) {
    unknownKeys(names, rawRetry, RETRY_OPTION_NAMES, "retry.");
  }
  if (!names.empty) fail(redactor, "invalid_option", "invalid client options", names.record());

  let base: ApiBase;
  try {
    base = parseApiUrl(rawUrl);
    if (key.length >= MIN_HIDDEN_URL_LENGTH && (rawUrl as string).includes(key)) {
      throw new ApiUrlError(
        "the API URL contains the API key; give the key only as apiKey, never in the URL (it would end up in logs)",
      );
    }
  } catch (error) {
    if (!(error instanceof ApiUrlError)) throw error;
    if (typeof rawUrl === "string" && rawUrl.trim().length >= MIN_HIDDEN_URL_LENGTH) {
      redactor = constructionRedactor([...keySecrets, rawUrl, rawUrl.trim()]);
    }
    const swapped = !looksLikeUrl(rawUrl) && looksLikeUrl(rawKey);
    fail(
      redactor,
      "invalid_api_url",
      "invalid API URL",
      { apiUrl: [error.message] },
      swapped ? "apiKey looks like a URL and apiUrl does not: were apiUrl and apiKey swapped?" : undefined,
    );
  }

  if (key === "") {
    fail(redactor, "missing_api_key", "the API key is empty", {
      apiKey: [
        typeof rawKey === "string"
          ? `got ${rawKey === "" ? "an empty string" : "only whitespace"}; expected the API key`
          : `got ${typeOf(rawKey)}; expected the API key as a string`,
      ],
    });
  }
  const keyProblem = headerProblem(key);
  if (keyProblem) fail(redactor, "invalid_api_key", "invalid API key", { apiKey: [keyProblem] });

  const problems = new OptionProblems();
  const timeoutMs = duration(problems, "timeoutMs", own(options, "timeoutMs"), DEFAULT_TIMEOUT_MS, false);
  const deadlineMs = duration(problems, "deadlineMs", own(options, "deadlineMs"), DEFAULT_DEADLINE_MS, false);

  let maxRequestsPerSecond = DEFAULT_MAX_REQUESTS_PER_SECOND;
  const rate = own(options, "maxRequestsPerSecond");
  if (rate !== undefined) {
    if (
      typeof rate !== "number" ||
      Number.isNaN(rate) ||
      rate < 0 ||
      (rate > 0 && rate < MIN_REQUESTS_PER_SECOND)
    ) {
      problems.got(
        "maxRequestsPerSecond",
        rate,
        `expected a positive number of requests per second (at least ${MIN_REQUESTS_PER_SECOND.toPrecision(3)}, one per ${MAX_TIMER_MS} ms), or 0 or Infinity for no limit`,
      );
    } else {
      maxRequestsPerSecond = rate;
    }
  }

  let maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
  const bytes = own(options, "maxResponseBytes");
  if (bytes !== undefined) {
    if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes <= 0) {
      problems.got("maxResponseBytes", bytes, "expected a positive integer number of bytes");
    } else {
      maxResponseBytes = bytes;
    }
  }

  let maxAttempts = DEFAULT_MAX_RETRIES + 1;
  let retryPolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY };
  if (rawRetry === false) {
    maxAttempts = 1;
  } else if (
    rawRetry !== undefined &&
    (typeof rawRetry !== "object" || rawRetry === null || Array.isArray(rawRetry))
  ) {
    problems.got("retry", rawRetry, "expected an object of retry settings, or false for a single attempt");
  } else if (rawRetry !== undefined) {
    const maxRetries = own(rawRetry, "maxRetries");
    if (maxRetries !== undefined) {
      if (
        typeof maxRetries !== "number" ||
        !Number.isSafeInteger(maxRetries) ||
        maxRetries < 0 ||
        maxRetries > MAX_RETRIES_LIMIT
      ) {
        problems.got(
          "retry.maxRetries",
          maxRetries,
          `expected a non-negative integer, at most ${MAX_RETRIES_LIMIT} (0 disables retries)`,
        );
      } else {
        maxAttempts = maxRetries + 1;
      }
    }
    const jitter = own(rawRetry, "jitter");
    if (jitter !== undefined && typeof jitter !== "boolean") {
      problems.got("retry.jitter", jitter, "expected true or false");
    }
    retryPolicy = {
      ...retryPolicy,
      baseDelayMs: duration(
        problems,
        "retry.baseDelayMs",
        own(rawRetry, "baseDelayMs"),
        retryPolicy.baseDelayMs,
        true,
      ),
      maxDelayMs: duration(
        problems,
        "retry.maxDelayMs",
        own(rawRetry, "maxDelayMs"),
        retryPolicy.maxDelayMs,
        true,
      ),
      maxRetryAfterMs: duration(
        problems,
        "retry.maxRetryAfterMs",
        own(rawRetry, "maxRetryAfterMs"),
        retryPolicy.maxRetryAfterMs,
        true,
      ),
      jitter: typeof jitter === "boolean" ? jitter : retryPolicy.jitter,
    };
  }

  const fetch = func<FetchLike>(problems, "fetch", own(options, "fetch"));
  const sleep = func<(ms: number) => Promise<void>>(problems, "sleep", own(options, "sleep"));
  const now = func<() => number>(problems, "now", own(options, "now"));
  const random = func<() => number>(problems, "random", own(options, "random"));

  if (!problems.empty) fail(redactor, "invalid_option", "invalid client options", problems.record());

  return {
    base,
    authorization: () => `Bearer ${key}`,
    redact: createRedactor(keySecrets),
    fetch: fetch ?? (nodeFetch as unknown as FetchLike),
    timeoutMs,
    deadlineMs,
    maxResponseBytes,
    maxAttempts,
    retryPolicy,
    maxRequestsPerSecond,
    sleep: sleep ?? defaultSleep,
    limiterSleep: sleep,
    now: now ?? Date.now,
    random: random ?? Math.random,
  };
}
