import { deriveSeed } from "../data/derive";
import type { Rng } from "../data/rng";
import { createRng } from "../data/rng";
import {
  FAUCET_ONLY_MALFORMED_KINDS,
  GENERIC_MALFORMED_KINDS,
  MALFORMED_KINDS,
  validateFault,
  validateFaultOptions,
} from "./fault-options";
import type { Fault, FaultMatch, FaultOptions, FaultStatus, MalformedKind } from "./fault-options";
import { faultReply, statusReply } from "./fault-replies";
import type { Reply } from "./reply";
import { FAUCET_TEMPLATE, matchRoute } from "./routes";

/** The statuses a random 5xx fault draws from, evenly. */
const RANDOM_5XX: readonly FaultStatus[] = [503, 502, 504];
/** The statuses a random 5xx-after-processing fault draws from, evenly. */
const RANDOM_5XX_AFTER_PROCESSING: readonly FaultStatus[] = [502, 504];

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

/** Whether a request fits a match; no match fits every request. */
function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  if (!match) return true;
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.path !== undefined && !path.startsWith(match.path)) return false;
  return true;
}

/** Whether a request is a faucet send (`POST /v1/faucet/{chain}`). */
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
