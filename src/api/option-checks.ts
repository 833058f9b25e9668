/**
 * The checks of the client's plain options: option names (with a "did you mean" for a typo),
 * durations, rates, sizes, retry settings and injected functions. Each check adds what is wrong
 * to an {@link OptionProblems} and returns the value to use, so that every problem is reported
 * at once.
 */
import { MAX_RETRIES_LIMIT, MAX_TIMER_MS, MIN_REQUESTS_PER_SECOND } from "./defaults";
import type { RetryPolicy } from "./retry";

/** An own property of `object` (never one of its prototype). */
export function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
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
export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string of ${value.length} characters`;
  const type = typeof value;
  return type === "object" || type === "undefined" ? type : `a ${type}`;
}

/** The problems found in the options, per option name. */
export class OptionProblems {
  /** The messages of each option, in the order found. */
  readonly fields = new Map<string, string[]>();

  /** Adds a message about `field`. */
  add(field: string, message: string): void {
    const list = this.fields.get(field);
    if (list) list.push(message);
    else this.fields.set(field, [message]);
  }

  /** Adds "got <value>; <expected>" about `field`. */
  got(field: string, value: unknown, expected: string): void {
    this.add(field, `got ${describe(value)}; ${expected}`);
  }

  /** True when nothing is wrong. */
  get empty(): boolean {
    return this.fields.size === 0;
  }

  /** The messages as an `ApiErrorInit`'s `fields`. */
  record(): Record<string, string[]> {
    return Object.fromEntries(this.fields);
  }
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

/** Adds a problem for each option name of `object` that is not in `known`. */
export function unknownKeys(
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
export function duration(
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

/** A function option: `undefined` when not given. */
export function func<T>(problems: OptionProblems, field: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") {
    problems.got(field, value, "expected a function");
    return undefined;
  }
  return value as T;
}

/** `maxRequestsPerSecond`: a rate of at least `MIN_REQUESTS_PER_SECOND`, or 0 or Infinity for no limit. */
export function rateOption(problems: OptionProblems, rate: unknown, fallback: number): number {
  if (rate === undefined) return fallback;
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
    return fallback;
  }
  return rate;
}

/** `maxConcurrentRequests`: a positive integer. */
export function concurrencyOption(problems: OptionProblems, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    problems.got(
      "maxConcurrentRequests",
      value,
      "expected a positive integer number of requests in flight at once",
    );
    return fallback;
  }
  return value;
}

/** `maxResponseBytes`: a positive integer. */
export function bytesOption(problems: OptionProblems, bytes: unknown, fallback: number): number {
  if (bytes === undefined) return fallback;
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes <= 0) {
    problems.got("maxResponseBytes", bytes, "expected a positive integer number of bytes");
    return fallback;
  }
  return bytes;
}

/**
 * `retry`: `false` for a single attempt, or an object of retry settings; returns the most
 * attempts per call and the retry policy.
 */
export function retryOption(
  problems: OptionProblems,
  rawRetry: unknown,
  defaults: { maxAttempts: number; retryPolicy: RetryPolicy },
): { maxAttempts: number; retryPolicy: RetryPolicy } {
  let maxAttempts = defaults.maxAttempts;
  const retryPolicy: RetryPolicy = { ...defaults.retryPolicy };
  if (rawRetry === false) return { maxAttempts: 1, retryPolicy };
  if (rawRetry === undefined) return { maxAttempts, retryPolicy };
  if (typeof rawRetry !== "object" || rawRetry === null || Array.isArray(rawRetry)) {
    problems.got("retry", rawRetry, "expected an object of retry settings, or false for a single attempt");
    return { maxAttempts, retryPolicy };
  }
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
  const delay = (name: "baseDelayMs" | "maxDelayMs" | "maxRetryAfterMs") =>
    duration(problems, `retry.${name}`, own(rawRetry, name), retryPolicy[name], true);
  return {
    maxAttempts,
    retryPolicy: {
      ...retryPolicy,
      baseDelayMs: delay("baseDelayMs"),
      maxDelayMs: delay("maxDelayMs"),
      maxRetryAfterMs: delay("maxRetryAfterMs"),
      jitter: typeof jitter === "boolean" ? jitter : retryPolicy.jitter,
    },
  };
}
