import { createRng, deriveSeed } from "../data/random";
import type { Fault, FaultMatch, FaultOptions, FaultStatus, MalformedKind } from "./faults";
import { MALFORMED_KINDS, check, isObject, validateFault, validateFaultOptions } from "./faults";
import type { Reply } from "./reply";
import { JSON_TYPE, errorReply } from "./reply";
import { FAUCET_TEMPLATE, matchRoute } from "./routes";

const FAUCET_ONLY: readonly MalformedKind[] = MALFORMED_KINDS.slice(2);

/**
 * What to do with a request: wait `delayMs`; answer `instead` of processing it (`"drop"`: close
 * without an answer); or process it, then answer `after` (a `malformed` kind mangles the answer).
 */
export interface FaultDecision {
  delayMs: number;
  label?: string;
  instead?: Reply | "drop";
  after?: Reply | "drop" | { malformed: MalformedKind };
}

const isFaucetSend = (method: string, path: string) =>
  method === "POST" && matchRoute(path)?.route.template === FAUCET_TEMPLATE;

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  return (
    (match?.method === undefined || match.method.toUpperCase() === method.toUpperCase()) &&
    (match?.path === undefined || path.startsWith(match.path))
  );
}

/** The page a CDN or captive portal answers with `200` instead of the API's JSON. */
export const MALFORMED_HTML =
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
  if (kind === "truncated-json")
    return jsonReply(real.body.slice(0, Math.max(1, Math.floor(real.body.length / 2))));
  if (kind === "non-integer-amount") {
    return "amountSent" in object ? jsonReply(JSON.stringify({ ...object, amountSent: 0.5 })) : undefined;
  }
  if (!("transaction" in object)) return undefined;
  const { transaction: _dropped, ...rest } = object;
  return jsonReply(JSON.stringify(rest));
}

function statusReply(fault: Extract<Fault, { status: FaultStatus }>): Reply {
  const reply = faultReply(fault.status, fault.retryAfter);
  if (fault.body !== undefined) reply.body = fault.body;
  const guessed =
    fault.body === undefined ? undefined : fault.body.trimStart().startsWith("<") ? "text/html" : JSON_TYPE;
  const type = fault.contentType ?? guessed;
  if (type !== undefined) reply.headers["Content-Type"] = type;
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
    const index = this.queue.findIndex(
      (f) =>
        matches(f.match, method, path) &&
        !("malformed" in f && FAUCET_ONLY.includes(f.malformed) && !isFaucetSend(method, path)),
    );
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
    const { latencyMs, retryAfterSeconds } = this.options;
    const delayMs =
      typeof latencyMs === "number"
        ? latencyMs
        : latencyMs
          ? this.rng.int(Math.ceil(latencyMs[0]), Math.floor(latencyMs[1]))
          : 0;
    const random = this.random(
      method,
      path,
      typeof retryAfterSeconds === "number" ? String(retryAfterSeconds) : undefined,
    );
    const labels = [delayMs > 0 ? "latency" : undefined, random.label].filter(Boolean);
    return { ...random, delayMs, label: labels.length > 0 ? labels.join("+") : undefined };
  }

  private random(
    method: string,
    path: string,
    retryAfter: string | undefined,
  ): Omit<FaultDecision, "delayMs"> {
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
      const malformed = this.rng.pick(
        isFaucetSend(method, path) ? MALFORMED_KINDS : MALFORMED_KINDS.slice(0, 2),
      );
      return { after: { malformed }, label: `malformed-${malformed}` };
    }
    return {};
  }
}
