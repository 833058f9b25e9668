import { FAUCET_TEMPLATE, NETWORK_TEMPLATE, matchRoute } from "./routes";

/**
 * Random faults. Rates are probabilities in `[0, 1]` drawn from a seeded generator, one draw per
 * matching request, in this order: `dropRate`, `rate429`, `rate5xx` (not processed), then
 * `dropAfterProcessingRate`, `rate5xxAfterProcessing`, `malformedRate` (processed first: a faucet
 * send is recorded, a rename applied).
 */
export interface FaultOptions {
  /** Delay before each request is served: milliseconds, or a `[min, max]` range. */
  latencyMs?: number | readonly [number, number];
  /** `429` without processing. */
  rate429?: number;
  /** `Retry-After` (seconds) on injected `429` and `503`; absent or `null`: no header. */
  retryAfterSeconds?: number | null;
  /** `503`, `502` or `504` without processing. */
  rate5xx?: number;
  /** The connection is destroyed without an answer (not processed). */
  dropRate?: number;
  /** Processed, then the connection is destroyed: the client cannot know the outcome. */
  dropAfterProcessingRate?: number;
  /** Processed, then `502` or `504` with a gateway's HTML page. */
  rate5xxAfterProcessing?: number;
  /** Processed, then a successful JSON answer becomes an unreadable `200` ({@link MalformedKind}). */
  malformedRate?: number;
  /** Which requests are faulted (default all); the others take no draw. */
  match?: FaultMatch;
}

/** Which requests a fault applies to; every given field must match. */
export interface FaultMatch {
  /** HTTP method, case-insensitive, e.g. `POST`. */
  method?: string;
  /** Prefix of the request path (without query), e.g. `/v1/networks/`. */
  path?: string;
}

/** The error statuses an enqueued fault may answer with. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/**
 * An unreadable `200`: `html` (a CDN's page), `truncated-json` (cut in half, still labelled JSON);
 * on the faucet only: `non-integer-amount` (`amountSent: 0.5`), `missing-transaction`.
 */
export const MALFORMED_KINDS = [
  "html",
  "truncated-json",
  "non-integer-amount",
  "missing-transaction",
] as const;
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

/**
 * A one-shot fault for {@link RunningEmulator.enqueueFaults}, taken by the first request it
 * matches (which then takes no random fault):
 * - `{ status }`: answer it unprocessed; `retryAfter` is sent as `Retry-After`, `body` and
 *   `contentType` replace the default (the service's JSON error; a gateway's HTML for 502/504);
 * - `{ drop: true }`: close the connection unprocessed;
 * - with `after: "processing"` either is done after the request is processed;
 * - `{ malformed }`: process, then answer an unreadable `200` (only a successful JSON answer);
 * - `{ delayMs }`: wait, then serve normally.
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

/** Fixed delays (ms) before particular operations are processed, to hold them in flight. */
export interface RouteDelays {
  /** `POST /v1/faucet/{chain}`. */
  faucetMs?: number;
  /** `PATCH /v1/networks/{id}/`. */
  networkUpdateMs?: number;
}

/** Longest route delay accepted (10 minutes). */
export const MAX_ROUTE_DELAY_MS = 600_000;

const RATES = [
  "rate429",
  "rate5xx",
  "dropRate",
  "dropAfterProcessingRate",
  "rate5xxAfterProcessing",
  "malformedRate",
] as const;
export const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
const isDelay = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

export function check(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(message);
}

function checkMatch(name: string, match: FaultMatch | undefined): void {
  if (match === undefined) return;
  check(isObject(match), `${name} must be an object with optional method and path`);
  for (const key of ["method", "path"] as const) {
    check(match[key] === undefined || typeof match[key] === "string", `${name}.${key} must be a string`);
  }
}

/** Throws a RangeError naming the first fault option out of range. */
export function validateFaultOptions(f: FaultOptions): void {
  check(isObject(f), `faults must be an object`);
  for (const key of RATES) {
    const v = f[key];
    check(
      v === undefined || (typeof v === "number" && v >= 0 && v <= 1),
      `faults.${key} must be a probability between 0 and 1, got ${String(v)}`,
    );
  }
  if (f.latencyMs !== undefined) {
    const [min, max] =
      typeof f.latencyMs === "number"
        ? [f.latencyMs, f.latencyMs]
        : Array.isArray(f.latencyMs)
          ? f.latencyMs
          : [];
    check(
      isDelay(min) && isDelay(max) && min <= max,
      `faults.latencyMs must be milliseconds (a number >= 0) or a [min, max] range with min <= max`,
    );
  }
  const retry = f.retryAfterSeconds;
  check(
    retry == null || (Number.isInteger(retry) && retry >= 0),
    `faults.retryAfterSeconds must be a whole number of seconds >= 0, or null`,
  );
  checkMatch("faults.match", f.match);
}

/** Throws a RangeError when an enqueued fault is malformed. */
export function validateFault(f: Fault): void {
  check(isObject(f), `a fault must be an object`);
  if ("status" in f) {
    check(
      FAULT_STATUSES.includes(f.status),
      `fault status must be one of ${FAULT_STATUSES.join(", ")}, got ${String(f.status)}`,
    );
    check(
      f.after === undefined || f.after === "processing",
      `a status fault's after must be "processing" or absent`,
    );
    for (const key of ["retryAfter", "body", "contentType"] as const) {
      check(f[key] === undefined || typeof f[key] === "string", `fault ${key} must be a string`);
    }
  } else if ("drop" in f) {
    check(
      f.drop === true && (f.after === undefined || f.after === "processing"),
      `a drop fault is { drop: true } or { drop: true, after: "processing" }`,
    );
  } else if ("malformed" in f) {
    check(
      MALFORMED_KINDS.includes(f.malformed),
      `fault malformed must be one of ${MALFORMED_KINDS.join(", ")}, got ${String(f.malformed)}`,
    );
  } else {
    check("delayMs" in f, `a fault has a status, drop: true, malformed, or delayMs`);
    check(isDelay((f as { delayMs: unknown }).delayMs), `fault delayMs must be a number >= 0`);
  }
  checkMatch("fault match", f.match);
}

/** Throws a RangeError unless `delays` has only `faucetMs` / `networkUpdateMs` in range. */
export function validateRouteDelays(delays: RouteDelays): void {
  check(isObject(delays), `routeDelays must be an object with faucetMs and/or networkUpdateMs`);
  for (const [key, v] of Object.entries(delays)) {
    check(
      key === "faucetMs" || key === "networkUpdateMs",
      `unknown route delay ${key}; expected faucetMs or networkUpdateMs`,
    );
    check(
      v === undefined || (isDelay(v) && v <= MAX_ROUTE_DELAY_MS),
      `routeDelays.${key} must be milliseconds from 0 to ${MAX_ROUTE_DELAY_MS}`,
    );
  }
}

/** The delay of a request's operation before it is processed (0 for operations without one). */
export function routeDelayMs(delays: RouteDelays, method: string, path: string): number {
  const template = matchRoute(path)?.route.template;
  if (method === "POST" && template === FAUCET_TEMPLATE) return delays.faucetMs ?? 0;
  if (method === "PATCH" && template === NETWORK_TEMPLATE) return delays.networkUpdateMs ?? 0;
  return 0;
}
