import { FAUCET_ONLY_MALFORMED_KINDS, GENERIC_MALFORMED_KINDS, MALFORMED_KINDS } from "./malformed";
import type { Reply } from "./reply";
import { errorReply } from "./reply";
import type { Rng } from "./rng";
import { createRng, deriveSeed } from "./rng";
import { FAUCET_TEMPLATE, matchRoute } from "./routes";
import type { Fault, FaultMatch, FaultOptions, FaultStatus, MalformedKind } from "./types";

/**
 * What to do with a request besides (or instead of) serving it. The `*-after-processing` and
 * `malformed` kinds serve the request first, then replace its answer.
 */
export type FaultAction =
  | { kind: "serve" }
  | { kind: "reply"; reply: Reply }
  | { kind: "drop" }
  | { kind: "drop-after-processing" }
  | { kind: "reply-after-processing"; reply: Reply }
  | { kind: "malformed"; malformed: MalformedKind };

/** The fault decision for one request: wait `delayMs`, then act. */
export interface FaultDecision {
  delayMs: number;
  action: FaultAction;
  /** The fault's name for the request log, when one applies. */
  label?: string;
}

const FAULT_STATUSES: readonly FaultStatus[] = [429, 500, 502, 503, 504];
const RANDOM_5XX: readonly FaultStatus[] = [503, 502, 504];
const RANDOM_5XX_AFTER_PROCESSING: readonly FaultStatus[] = [502, 504];
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

/** The body the emulator answers for an injected status. */
export function faultReply(status: FaultStatus, retryAfter: string | undefined): Reply {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": retryAfter };
  switch (status) {
    case 429: {
      const when =
        retryAfter !== undefined && /^\d+$/.test(retryAfter)
          ? ` Expected available in ${retryAfter} seconds.`
          : "";
      return errorReply(429, "throttled", `Request was throttled.${when}`, { headers });
    }
    case 500:
      return errorReply(500, "server_error", "A server error occurred.", { headers });
    case 503:
      return errorReply(503, "service_unavailable", "Service temporarily unavailable, try again later.", {
        headers,
      });
    case 502:
    case 504: {
      const title = status === 502 ? "502 Bad Gateway" : "504 Gateway Time-out";
      return {
        status,
        headers: { "Content-Type": "text/html", ...headers },
        body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
      };
    }
  }
}

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  if (!match) return true;
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.path !== undefined && !path.startsWith(match.path)) return false;
  return true;
}

/** Whether a request is a faucet send (`POST /v1/faucet/goerli`). */
function isFaucetSend(method: string, path: string): boolean {
  return method === "POST" && matchRoute(path)?.route.template === FAUCET_TEMPLATE;
}

/** Whether a queued fault applies to a request. */
function applies(fault: Fault, method: string, path: string): boolean {
  if (!matches(fault.match, method, path)) return false;
  if ("malformed" in fault && FAUCET_ONLY_MALFORMED_KINDS.includes(fault.malformed)) {
    return isFaucetSend(method, path);
  }
  return true;
}

/** The reply of a status fault: the default body, or the one given. */
function statusReply(fault: Extract<Fault, { status: FaultStatus }>): Reply {
  const reply = faultReply(fault.status, fault.retryAfter);
  if (fault.body !== undefined) {
    reply.body = fault.body;
    reply.headers["Content-Type"] =
      fault.contentType ?? (fault.body.trimStart().startsWith("<") ? "text/html" : "application/json");
  } else if (fault.contentType !== undefined) {
    reply.headers["Content-Type"] = fault.contentType;
  }
  return reply;
}

/**
 * Decides the fault of each request: the first queued one-shot fault that matches, else the
 * random faults (latency, then one draw for drop / 429 / 5xx / the after-processing kinds) from
 * a generator seeded independently of the data.
 */
export class FaultInjector {
  private options: FaultOptions = {};
  private readonly rng: Rng;
  private readonly queue: Fault[] = [];

  constructor(seed: number, options: FaultOptions = {}) {
    this.rng = createRng(deriveSeed(seed, "faults"));
    this.set(options);
  }

  /** Replaces the random fault settings. */
  set(options: FaultOptions): void {
    validateFaultOptions(options);
    this.options = copyOptions(options);
  }

  /** The random fault settings in force (a copy). */
  get(): FaultOptions {
    return copyOptions(this.options);
  }

  /** Queues one-shot faults (all are checked before any is queued). */
  enqueue(list: readonly Fault[]): void {
    if (!Array.isArray(list)) throw new RangeError(`faults to queue must be a list`);
    list.forEach(validateFault);
    this.queue.push(...list.map((f) => ({ ...f, ...(f.match ? { match: { ...f.match } } : {}) })));
  }

  /** How many one-shot faults are queued. */
  get queued(): number {
    return this.queue.length;
  }

  /** Drops every queued one-shot fault. */
  clear(): void {
    this.queue.length = 0;
  }

  /** The fault decision for a request. */
  decide(method: string, path: string): FaultDecision {
    const index = this.queue.findIndex((f) => applies(f, method, path));
    if (index >= 0) {
      const [fault] = this.queue.splice(index, 1);
      if ("status" in fault) {
        const reply = statusReply(fault);
        return fault.after === "processing"
          ? {
              delayMs: 0,
              action: { kind: "reply-after-processing", reply },
              label: `${fault.status}-after-processing`,
            }
          : { delayMs: 0, action: { kind: "reply", reply }, label: String(fault.status) };
      }
      if ("drop" in fault) {
        return fault.after === "processing"
          ? { delayMs: 0, action: { kind: "drop-after-processing" }, label: "drop-after-processing" }
          : { delayMs: 0, action: { kind: "drop" }, label: "drop" };
      }
      if ("malformed" in fault) {
        return {
          delayMs: 0,
          action: { kind: "malformed", malformed: fault.malformed },
          label: `malformed-${fault.malformed}`,
        };
      }
      return { delayMs: fault.delayMs, action: { kind: "serve" }, label: "delay" };
    }
    if (!matches(this.options.match, method, path)) return { delayMs: 0, action: { kind: "serve" } };
    return this.random(method, path);
  }

  private random(method: string, path: string): FaultDecision {
    const { latencyMs, retryAfterSeconds } = this.options;
    let delayMs = 0;
    if (typeof latencyMs === "number") delayMs = latencyMs;
    else if (latencyMs) delayMs = this.rng.int(Math.ceil(latencyMs[0]), Math.floor(latencyMs[1]));
    const latency = delayMs > 0 ? "latency" : undefined;
    const label = (name: string) => (latency ? `${latency}+${name}` : name);
    const retryAfter = typeof retryAfterSeconds === "number" ? String(retryAfterSeconds) : undefined;
    const r = this.rng.next();
    let bound = 0;
    const hit = (rate: number | undefined) => r < (bound += rate ?? 0);
    if (hit(this.options.dropRate)) return { delayMs, action: { kind: "drop" }, label: label("drop") };
    if (hit(this.options.rate429)) {
      return { delayMs, action: { kind: "reply", reply: faultReply(429, retryAfter) }, label: label("429") };
    }
    if (hit(this.options.rate5xx)) {
      const status = this.rng.pick(RANDOM_5XX);
      const reply = faultReply(status, status === 503 ? retryAfter : undefined);
      return { delayMs, action: { kind: "reply", reply }, label: label(String(status)) };
    }
    if (hit(this.options.dropAfterProcessingRate)) {
      return { delayMs, action: { kind: "drop-after-processing" }, label: label("drop-after-processing") };
    }
    if (hit(this.options.rate5xxAfterProcessing)) {
      const status = this.rng.pick(RANDOM_5XX_AFTER_PROCESSING);
      return {
        delayMs,
        action: { kind: "reply-after-processing", reply: faultReply(status, undefined) },
        label: label(`${status}-after-processing`),
      };
    }
    if (hit(this.options.malformedRate)) {
      const kinds = isFaucetSend(method, path) ? MALFORMED_KINDS : GENERIC_MALFORMED_KINDS;
      const malformed = this.rng.pick(kinds);
      return { delayMs, action: { kind: "malformed", malformed }, label: label(`malformed-${malformed}`) };
    }
    return { delayMs, action: { kind: "serve" }, label: latency };
  }
}

function copyOptions(options: FaultOptions): FaultOptions {
  const copy: FaultOptions = { ...options };
  if (Array.isArray(options.latencyMs)) copy.latencyMs = [options.latencyMs[0], options.latencyMs[1]];
  if (options.match) copy.match = { ...options.match };
  return copy;
}
