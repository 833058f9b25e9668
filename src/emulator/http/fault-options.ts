/**
 * Random faults the emulator injects into requests. Rates are probabilities in `[0, 1]`, drawn
 * from their own seeded generator, so a given seed and request sequence fail the same way.
 *
 * One draw per request decides among the kinds, in this order: `dropRate`, `rate429`, `rate5xx`
 * (none of these process the request), then `dropAfterProcessingRate`,
 * `rate5xxAfterProcessing`, `malformedRate` (these process the request first: a faucet send is
 * recorded, a rename applied). With all rates at 0, every request is served normally.
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
  /**
   * Probability that a request is processed, then its connection is destroyed without a
   * response: the client cannot know the outcome.
   */
  dropAfterProcessingRate?: number;
  /**
   * Probability that a request is processed, then answered `502` or `504` (drawn evenly) with
   * the HTML page of a gateway.
   */
  rate5xxAfterProcessing?: number;
  /**
   * Probability that a request is processed, then answered `200` with an unreadable body: a
   * {@link MalformedKind} drawn evenly among those that fit the route (all four on the faucet,
   * `html` and `truncated-json` elsewhere). Only a successful JSON answer is mangled; any other
   * answer (a 400, a 429, a 204) is sent as is.
   */
  malformedRate?: number;
  /**
   * Which requests the random faults (latency included) apply to; default every request. For
   * example `{ method: "POST", path: "/v1/faucet/" }` to fault only faucet sends. Requests that
   * do not match take no draw, so the faults of matching requests do not depend on the others.
   */
  match?: FaultMatch;
}

/** Which requests an enqueued {@link Fault} applies to; every given field must match. */
export interface FaultMatch {
  /** HTTP method, case-insensitive, e.g. `POST`. */
  method?: string;
  /** Prefix of the request path (without query), e.g. `/v1/networks/`. */
  path?: string;
}

/** The error statuses an enqueued fault may answer with. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;

/** An error status an enqueued fault may answer with. */
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** Every kind of unreadable `200` answer, in a fixed order (random draws pick from it). */
export const MALFORMED_KINDS = [
  "html",
  "truncated-json",
  "non-integer-amount",
  "missing-transaction",
] as const;

/**
 * How an unreadable `200` answer is broken (see {@link Fault} and
 * {@link FaultOptions.malformedRate}):
 * - `html`: an HTML page (`Content-Type: text/html`) instead of JSON;
 * - `truncated-json`: the JSON body cut in half, still labelled `application/json`;
 * - `non-integer-amount` (faucet only): `amountSent` is `0.5`, not an integer number of wei;
 * - `missing-transaction` (faucet only): the body has no `transaction`.
 */
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

/**
 * A one-shot fault for {@link RunningEmulator.enqueueFaults}. Each request takes the first queued
 * fault whose `match` fits it; a request that takes a fault is not subject to random faults.
 *
 * - `{ status }`: answer with that status without processing the request. `retryAfter` is sent
 *   verbatim as `Retry-After` (seconds or an HTTP date); `body` replaces the default body (for
 *   example an HTML proxy page or truncated JSON) with `contentType` (default: `text/html` when
 *   the body starts with `<`, else `application/json`). The default body of `502` and `504` is
 *   the HTML page of a gateway; the others carry the service's JSON error.
 * - `{ status, after: "processing" }`: process the request first (a faucet send is recorded,
 *   a rename applied), then answer with that status as above, whatever the real answer was.
 * - `{ drop: true }`: destroy the connection without a response and without processing.
 *   With `after: "processing"` the request is processed first (a faucet send is recorded),
 *   then the connection is destroyed: the client cannot know the outcome.
 * - `{ malformed }`: process the request, then answer `200` with an unreadable body (see
 *   {@link MalformedKind}). Only a successful JSON answer is mangled; any other answer is sent
 *   as is (the fault is still used up). `non-integer-amount` and `missing-transaction` only
 *   match `POST /v1/faucet/{chain}`, besides any `match` given.
 * - `{ delayMs }`: wait, then serve the request normally.
 */
export type Fault =
  | {
      status: FaultStatus;
      after?: "processing";
      retryAfter?: string;
      body?: string;
      contentType?: string;
      match?: FaultMatch;
    }
  | { drop: true; after?: "processing"; match?: FaultMatch }
  | { malformed: MalformedKind; match?: FaultMatch }
  | { delayMs: number; match?: FaultMatch };

/** The kinds that only make sense on the faucet's answer (`amountSent`, `transaction`). */
export const FAUCET_ONLY_MALFORMED_KINDS: readonly MalformedKind[] = [
  "non-integer-amount",
  "missing-transaction",
];

/** The kinds that fit any route's JSON answer. */
export const GENERIC_MALFORMED_KINDS: readonly MalformedKind[] = ["html", "truncated-json"];

const RATES = [
  "rate429",
  "rate5xx",
  "dropRate",
  "dropAfterProcessingRate",
  "rate5xxAfterProcessing",
  "malformedRate",
] as const;

/** Throws a RangeError when a fault option is out of range. */
export function validateFaultOptions(f: FaultOptions): void {
  if (typeof f !== "object" || f === null || Array.isArray(f)) {
    throw new RangeError(`faults must be an object`);
  }
  for (const key of RATES) {
    const v = f[key];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) {
      throw new RangeError(`faults.${key} must be a probability between 0 and 1, got ${String(v)}`);
    }
  }
  const latency = f.latencyMs;
  if (latency !== undefined) {
    const [min, max] =
      typeof latency === "number" ? [latency, latency] : Array.isArray(latency) ? latency : [];
    if (!(isDelay(min) && isDelay(max) && min <= max)) {
      throw new RangeError(
        `faults.latencyMs must be milliseconds (a number >= 0) or a [min, max] range with min <= max`,
      );
    }
  }
  const retry = f.retryAfterSeconds;
  if (retry !== undefined && retry !== null && !(Number.isInteger(retry) && retry >= 0)) {
    throw new RangeError(`faults.retryAfterSeconds must be a whole number of seconds >= 0, or null`);
  }
  validateMatch("faults.match", f.match);
}

function validateMatch(name: string, match: FaultMatch | undefined): void {
  if (match === undefined) return;
  if (typeof match !== "object" || match === null || Array.isArray(match)) {
    throw new RangeError(`${name} must be an object with optional method and path`);
  }
  for (const key of ["method", "path"] as const) {
    if (match[key] !== undefined && typeof match[key] !== "string") {
      throw new RangeError(`${name}.${key} must be a string`);
    }
  }
}

/** Throws a RangeError when an enqueued fault is malformed. */
export function validateFault(f: Fault): void {
  if (typeof f !== "object" || f === null || Array.isArray(f)) {
    throw new RangeError(`a fault must be an object`);
  }
  if ("status" in f) {
    if (!FAULT_STATUSES.includes(f.status)) {
      throw new RangeError(
        `fault status must be one of ${FAULT_STATUSES.join(", ")}, got ${String(f.status)}`,
      );
    }
    if (f.after !== undefined && f.after !== "processing") {
      throw new RangeError(`a status fault's after must be "processing" or absent`);
    }
    for (const key of ["retryAfter", "body", "contentType"] as const) {
      if (f[key] !== undefined && typeof f[key] !== "string") {
        throw new RangeError(`fault ${key} must be a string`);
      }
    }
  } else if ("drop" in f) {
    if (f.drop !== true || (f.after !== undefined && f.after !== "processing")) {
      throw new RangeError(`a drop fault is { drop: true } or { drop: true, after: "processing" }`);
    }
  } else if ("malformed" in f) {
    if (!MALFORMED_KINDS.includes(f.malformed)) {
      throw new RangeError(
        `fault malformed must be one of ${MALFORMED_KINDS.join(", ")}, got ${String(f.malformed)}`,
      );
    }
  } else if ("delayMs" in f) {
    if (!isDelay(f.delayMs)) throw new RangeError(`fault delayMs must be a number >= 0`);
  } else {
    throw new RangeError(`a fault has a status, drop: true, malformed, or delayMs`);
  }
  validateMatch("fault match", f.match);
}

function isDelay(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}
