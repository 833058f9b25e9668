import type { Reply } from "./reply";
import { errorReply } from "./reply";
import type { Rng } from "./rng";
import { createRng, deriveSeed } from "./rng";
import type { Fault, FaultMatch, FaultOptions, FaultStatus } from "./types";

/** What to do with a request besides (or instead of) serving it. */
export type FaultAction =
  { kind: "serve" } | { kind: "reply"; reply: Reply } | { kind: "drop" } | { kind: "drop-after-processing" };

/** The fault decision for one request: wait `delayMs`, then act. */
export interface FaultDecision {
  delayMs: number;
  action: FaultAction;
  /** The fault's name for the request log, when one applies. */
  label?: string;
}

const FAULT_STATUSES: readonly FaultStatus[] = [429, 500, 502, 503, 504];
const RANDOM_5XX: readonly FaultStatus[] = [503, 502, 504];

/** Throws a RangeError when a fault option is out of range. */
export function validateFaultOptions(f: FaultOptions): void {
  for (const key of ["rate429", "rate5xx", "dropRate"] as const) {
    const v = f[key];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) {
      throw new RangeError(`faults.${key} must be a probability between 0 and 1, got ${String(v)}`);
    }
  }
  const latency = f.latencyMs;
  if (latency !== undefined) {
    const [min, max] = typeof latency === "number" ? [latency, latency] : latency;
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
}

/** Throws a RangeError when an enqueued fault is malformed. */
export function validateFault(f: Fault): void {
  if ("status" in f) {
    if (!FAULT_STATUSES.includes(f.status)) {
      throw new RangeError(
        `fault status must be one of ${FAULT_STATUSES.join(", ")}, got ${String(f.status)}`,
      );
    }
  } else if ("drop" in f) {
    if (f.drop !== true || (f.after !== undefined && f.after !== "processing")) {
      throw new RangeError(`a drop fault is { drop: true } or { drop: true, after: "processing" }`);
    }
  } else if ("delayMs" in f) {
    if (!isDelay(f.delayMs)) throw new RangeError(`fault delayMs must be a number >= 0`);
  } else {
    throw new RangeError(`a fault has a status, drop: true, or delayMs`);
  }
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

/**
 * Decides the fault of each request: the first queued one-shot fault that matches, else the
 * random faults (latency, then one draw for drop / 429 / 5xx) from a generator seeded
 * independently of the data.
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
    this.options = { ...options };
  }

  /** Queues one-shot faults (all are checked before any is queued). */
  enqueue(list: readonly Fault[]): void {
    list.forEach(validateFault);
    this.queue.push(...list.map((f) => ({ ...f })));
  }

  /** The fault decision for a request. */
  decide(method: string, path: string): FaultDecision {
    const index = this.queue.findIndex((f) => matches(f.match, method, path));
    if (index >= 0) {
      const [fault] = this.queue.splice(index, 1);
      if ("status" in fault) {
        const reply = faultReply(fault.status, fault.retryAfter);
        if (fault.body !== undefined) {
          reply.body = fault.body;
          reply.headers["Content-Type"] =
            fault.contentType ?? (fault.body.trimStart().startsWith("<") ? "text/html" : "application/json");
        } else if (fault.contentType !== undefined) {
          reply.headers["Content-Type"] = fault.contentType;
        }
        return { delayMs: 0, action: { kind: "reply", reply }, label: String(fault.status) };
      }
      if ("drop" in fault) {
        return fault.after === "processing"
          ? { delayMs: 0, action: { kind: "drop-after-processing" }, label: "drop-after-processing" }
          : { delayMs: 0, action: { kind: "drop" }, label: "drop" };
      }
      return { delayMs: fault.delayMs, action: { kind: "serve" }, label: "delay" };
    }
    return this.random();
  }

  private random(): FaultDecision {
    const { latencyMs, rate429 = 0, rate5xx = 0, dropRate = 0, retryAfterSeconds } = this.options;
    let delayMs = 0;
    if (typeof latencyMs === "number") delayMs = latencyMs;
    else if (latencyMs) delayMs = this.rng.int(Math.ceil(latencyMs[0]), Math.floor(latencyMs[1]));
    const latency = delayMs > 0 ? "latency" : undefined;
    const retryAfter = typeof retryAfterSeconds === "number" ? String(retryAfterSeconds) : undefined;
    const r = this.rng.next();
    if (r < dropRate) return { delayMs, action: { kind: "drop" }, label: "drop" };
    if (r < dropRate + rate429) {
      return { delayMs, action: { kind: "reply", reply: faultReply(429, retryAfter) }, label: "429" };
    }
    if (r < dropRate + rate429 + rate5xx) {
      const status = this.rng.pick(RANDOM_5XX);
      const reply = faultReply(status, status === 503 ? retryAfter : undefined);
      return { delayMs, action: { kind: "reply", reply }, label: String(status) };
    }
    return { delayMs, action: { kind: "serve" }, label: latency };
  }
}
