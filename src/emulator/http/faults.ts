import { createRng, deriveSeed } from "../data/random";
import { JSON_TYPE, errorReply, type Reply } from "./reply";
import { FAUCET_TEMPLATE, NETWORK_TEMPLATE, matchRoute } from "./routes";

/**
 * Random faults: probabilities in `[0, 1]`, one seeded draw per matching request, tried in the order
 * `dropRate`, `rate429`, `rate5xx` (not processed), then processed: `dropAfterProcessingRate`,
 * `rate5xxAfterProcessing`, `malformedRate`.
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

const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/**
 * An unreadable `200`: `html` (a CDN's page), `truncated-json` (cut in half, still labelled JSON);
 * on the faucet only: `non-integer-amount` (`amountSent: 0.5`), `missing-transaction`.
 */
const MALFORMED_KINDS = ["html", "truncated-json", "non-integer-amount", "missing-transaction"] as const;
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

const MAX_ROUTE_DELAY_MS = 600_000; // 10 minutes

// prettier-ignore
const RATES = ["rate429", "rate5xx", "dropRate", "dropAfterProcessingRate", "rate5xxAfterProcessing", "malformedRate"] as const;
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
const isDelay = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isOneOf = (list: readonly unknown[], v: unknown) => list.includes(v);

function check(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(message);
}

function checkMatch(name: string, match: FaultMatch | undefined): void {
  if (match === undefined) return;
  check(isObject(match), `${name} must be an object with optional method and path`);
  const { method, path } = match;
  check(method === undefined || /^[A-Za-z]+$/.test(String(method)), `${name}.method must be an HTTP method`);
  check(path === undefined || /^\//.test(String(path)), `${name}.path must be a path prefix starting with /`);
}

/** Throws a RangeError naming the first fault option out of range. */
export function validateFaultOptions(f: FaultOptions): void {
  check(isObject(f), `faults must be an object`);
  for (const key of RATES) {
    const v = f[key];
    const ok = v === undefined || (typeof v === "number" && v >= 0 && v <= 1);
    check(ok, `faults.${key} must be a probability between 0 and 1, got ${String(v)}`);
  }
  const [min, max] = typeof f.latencyMs === "number" ? [f.latencyMs, f.latencyMs] : (f.latencyMs ?? [0, 0]);
  const latency = isDelay(min) && isDelay(max) && min <= max;
  check(
    latency,
    `faults.latencyMs must be milliseconds (a number >= 0) or a [min, max] range with min <= max`,
  );
  const retry = f.retryAfterSeconds;
  const retryOk = retry == null || (Number.isInteger(retry) && retry >= 0);
  check(retryOk, `faults.retryAfterSeconds must be a whole number of seconds >= 0, or null`);
  checkMatch("faults.match", f.match);
}

/** Throws a RangeError when an enqueued fault is malformed. */
function validateFault(f: Fault): void {
  check(isObject(f), `a fault must be an object`);
  const { after, match } = f as { after?: unknown; match?: FaultMatch };
  check(after === undefined || after === "processing", `a fault's after must be "processing" or absent`);
  if ("status" in f) {
    check(isOneOf(FAULT_STATUSES, f.status), `fault status must be one of ${FAULT_STATUSES.join(", ")}`);
    for (const key of ["retryAfter", "body", "contentType"] as const)
      check(f[key] === undefined || typeof f[key] === "string", `fault ${key} must be a string`);
  } else if ("drop" in f) {
    check(f.drop === true, `a drop fault is { drop: true }`);
  } else if ("malformed" in f) {
    check(
      isOneOf(MALFORMED_KINDS, f.malformed),
      `fault malformed must be one of ${MALFORMED_KINDS.join(", ")}`,
    );
  } else {
    check(
      isDelay((f as { delayMs?: unknown }).delayMs),
      `a fault has a status, drop: true, malformed, or delayMs`,
    );
  }
  checkMatch("fault match", match);
}

/** Throws a RangeError unless `delays` has only `faucetMs` / `networkUpdateMs` in range. */
export function validateRouteDelays(delays: RouteDelays): void {
  check(isObject(delays), `routeDelays must be an object with faucetMs and/or networkUpdateMs`);
  for (const [key, v] of Object.entries(delays)) {
    const known = key === "faucetMs" || key === "networkUpdateMs";
    check(known, `unknown route delay ${key}; expected faucetMs or networkUpdateMs`);
    const ok = v === undefined || (isDelay(v) && v <= MAX_ROUTE_DELAY_MS);
    check(ok, `routeDelays.${key} must be milliseconds from 0 to ${MAX_ROUTE_DELAY_MS}`);
  }
}

const isFaucetSend = (method: string, path: string) =>
  method === "POST" && matchRoute(path)?.route.template === FAUCET_TEMPLATE;

/** The delay of a request's operation before it is processed (0 for operations without one). */
export function routeDelayMs(delays: RouteDelays, method: string, path: string): number {
  if (isFaucetSend(method, path)) return delays.faucetMs ?? 0;
  const update = method === "PATCH" && matchRoute(path)?.route.template === NETWORK_TEMPLATE;
  return update ? (delays.networkUpdateMs ?? 0) : 0;
}

/** Wait `delayMs`; answer `instead` of processing (`"drop"`: no answer), or process, then answer `after`. */
interface FaultDecision {
  delayMs: number;
  label?: string;
  instead?: Reply | "drop";
  after?: Reply | "drop" | { malformed: MalformedKind };
}

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  return (
    (match?.method === undefined || match.method.toUpperCase() === method) &&
    (match?.path === undefined || path.startsWith(match.path))
  );
}

/** What a CDN or captive portal answers with `200` instead of the API's JSON. */
const MALFORMED_HTML =
  "<!DOCTYPE html>\r\n<html>\r\n<head><title>Just a moment...</title></head>\r\n" +
  "<body>\r\n<h1>Checking your browser before accessing the site.</h1>\r\n</body>\r\n</html>\r\n";

/** The answer of an injected status: the service's JSON error, or a gateway's HTML page for 502/504. */
export function faultReply(status: FaultStatus, retryAfter?: string): Reply {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": retryAfter };
  if (status === 502 || status === 504) {
    const title = status === 502 ? "502 Bad Gateway" : "504 Gateway Time-out";
    return {
      status,
      headers: { "Content-Type": "text/html", ...headers },
      body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
    };
  }
  const when =
    retryAfter !== undefined && /^\d+$/.test(retryAfter)
      ? ` Expected available in ${retryAfter} second${retryAfter === "1" ? "" : "s"}.`
      : "";
  const [code, message] = {
    429: ["throttled", `Request was throttled.${when}`],
    500: ["server_error", "A server error occurred."],
    503: ["service_unavailable", "Service temporarily unavailable, try again later."],
  }[status];
  return errorReply(status, code, message, { headers });
}

/** A successful JSON answer made unreadable, or undefined when the kind does not apply to it. */
export function malformedReply(kind: MalformedKind, real: Reply): Reply | undefined {
  if (real.status < 200 || real.status > 299 || real.body === undefined) return undefined;
  let object: Record<string, unknown>;
  try {
    object = JSON.parse(real.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!isObject(object)) return undefined;
  const jsonReply = (body: string): Reply => ({ status: 200, headers: { "Content-Type": JSON_TYPE }, body });
  if (kind === "html") return { status: 200, headers: { "Content-Type": "text/html" }, body: MALFORMED_HTML };
  if (kind === "truncated-json") return jsonReply(real.body.slice(0, Math.max(1, real.body.length >> 1)));
  if (kind === "non-integer-amount")
    return "amountSent" in object ? jsonReply(JSON.stringify({ ...object, amountSent: 0.5 })) : undefined;
  if (!("transaction" in object)) return undefined;
  const { transaction: _dropped, ...rest } = object;
  return jsonReply(JSON.stringify(rest));
}

function statusReply(fault: Extract<Fault, { status: FaultStatus }>): Reply {
  const reply = faultReply(fault.status, fault.retryAfter);
  if (fault.body === undefined) return reply;
  reply.body = fault.body;
  reply.headers["Content-Type"] =
    fault.contentType ?? (fault.body.trimStart().startsWith("<") ? "text/html" : JSON_TYPE);
  return reply;
}

/** The fault of each request: the first queued fault that matches, else the seeded random ones. */
export class FaultInjector {
  private options: FaultOptions = {};
  private readonly rng;
  private readonly queue: Fault[] = [];

  constructor(seed: number, options: FaultOptions = {}) {
    this.rng = createRng(deriveSeed(seed, "faults"));
    this.set(options);
  }

  set(options: FaultOptions): void {
    validateFaultOptions(options);
    this.options = structuredClone(options) as FaultOptions;
  }

  get(): FaultOptions {
    return structuredClone(this.options) as FaultOptions;
  }

  /** Queues one-shot faults (all are checked before any is queued). */
  enqueue(list: readonly Fault[]): void {
    check(Array.isArray(list), `faults to queue must be a list`);
    list.forEach(validateFault);
    this.queue.push(...structuredClone(list));
  }

  get queued(): number {
    return this.queue.length;
  }

  clear(): void {
    this.queue.length = 0;
  }

  decide(method: string, path: string): FaultDecision {
    const faucetOnly = (f: Fault) =>
      "malformed" in f && MALFORMED_KINDS.indexOf(f.malformed) >= 2 && !isFaucetSend(method, path);
    const index = this.queue.findIndex((f) => matches(f.match, method, path) && !faucetOnly(f));
    if (index >= 0) {
      const [fault] = this.queue.splice(index, 1);
      if ("delayMs" in fault) return { delayMs: fault.delayMs, label: "delay" };
      if ("malformed" in fault) return { delayMs: 0, after: fault, label: `malformed-${fault.malformed}` };
      const outcome = "status" in fault ? statusReply(fault) : "drop";
      const name = "status" in fault ? String(fault.status) : "drop";
      return fault.after
        ? { delayMs: 0, after: outcome, label: `${name}-after-processing` }
        : { delayMs: 0, instead: outcome, label: name };
    }
    if (!matches(this.options.match, method, path)) return { delayMs: 0 };
    const { latencyMs: latency, retryAfterSeconds: retry } = this.options;
    const delayMs =
      typeof latency === "number"
        ? latency
        : latency
          ? this.rng.int(Math.ceil(latency[0]), Math.floor(latency[1]))
          : 0;
    const random = this.random(method, path, retry == null ? undefined : String(retry));
    const label = [delayMs > 0 ? "latency" : undefined, random.label].filter(Boolean).join("+");
    return { ...random, delayMs, label: label || undefined };
  }

  private random(method: string, path: string, retryAfter?: string): Omit<FaultDecision, "delayMs"> {
    const r = this.rng.next();
    let bound = 0;
    const hit = (rate: number | undefined) => r < (bound += rate ?? 0);
    const o = this.options;
    if (hit(o.dropRate)) return { instead: "drop", label: "drop" };
    if (hit(o.rate429)) return { instead: faultReply(429, retryAfter), label: "429" };
    if (hit(o.rate5xx)) {
      const status = this.rng.pick([503, 502, 504] as const);
      return { instead: faultReply(status, status === 503 ? retryAfter : undefined), label: String(status) };
    }
    if (hit(o.dropAfterProcessingRate)) return { after: "drop", label: "drop-after-processing" };
    if (hit(o.rate5xxAfterProcessing)) {
      const status = this.rng.pick([502, 504] as const);
      return { after: faultReply(status), label: `${status}-after-processing` };
    }
    if (hit(o.malformedRate)) {
      const malformed = this.rng.pick(MALFORMED_KINDS.slice(0, isFaucetSend(method, path) ? 4 : 2));
      return { after: { malformed }, label: `malformed-${malformed}` };
    }
    return {};
  }
}
