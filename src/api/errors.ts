import { checkId, Problem } from "../model/rules";
import { IdKind } from "../model/values";
import { guardInputValue, redact, Redactor } from "./redact";

/**
 * What went wrong: what the service answered (`unauthorized` 401, `forbidden` 403, `not_found`
 * 404, `validation` 400/422, `conflict` 409, `rate_limited` 429, `unavailable` 5xx, `unknown`
 * any other status), `timeout` (an attempt or the call's deadline), `network` (no HTTP answer),
 * `invalid_input` (refused before sending), `invalid_response` (not the JSON expected).
 */
// prettier-ignore
export type ApiErrorKind = "unauthorized" | "forbidden" | "not_found" | "validation" | "conflict" | "rate_limited"
  | "unavailable" | "timeout" | "network" | "invalid_input" | "invalid_response" | "unknown";

/** Everything an {@link ApiError} is built from: its fields, and the `detail` and `hint` of its message. */
export type ApiErrorInit = Omit<ApiError, keyof Error | "attempts" | "toJSON"> & {
  /** What happened, e.g. the service's `error.message`. */
  detail: string;
  /** HTTP attempts made; default 0. */
  attempts?: number;
  /** Advice appended to the message. */
  hint?: string;
};

/** A limit of a call that a user can raise: the one that ran out names the error's {@link ApiError.limit}. */
export type CallLimit = "timeoutMs" | "deadlineMs" | "maxRetries";

/**
 * An error of the service client. The message reads
 * `<operation> <resourceId>: <status> <code>: <message>` plus a hint where useful. Credentials
 * are redacted from every text field when the error is built, and the error keeps no reference
 * to the request, its headers or the API key. `name` is the class name (`NotFoundError`).
 */
export class ApiError extends Error {
  /** What went wrong; see {@link ApiErrorKind}. */
  readonly kind: ApiErrorKind;
  /** The HTTP status, when the service answered. */
  readonly status?: number;
  /** The service's `error.code`, or a local code such as `invalid_id` or `timeout`. */
  readonly code: string;
  /** Per-field messages (the service's `error.fields`, or local validation problems). */
  readonly fields?: Record<string, string[]>;
  /** The client operation, e.g. `deleteNetwork`. */
  readonly operation: string;
  /** The id the operation was about. */
  readonly resourceId?: string;
  /** Faucet 429: when the next request is possible (as the service sent it). */
  readonly nextFaucetAvailable?: string;
  /**
   * True when a write may have been applied despite the error: the faucet's POST after it was
   * sent, a PATCH that changes a network or a DELETE after an attempt got no answer (a timeout, a
   * lost connection). Such a write is not sent again; read the object back to see what it holds.
   */
  readonly mayHaveBeenProcessed?: boolean;
  /** The server-requested wait in milliseconds (`Retry-After`), when given. */
  readonly retryAfterMs?: number;
  /** HTTP attempts made (0 when the client refused the input). */
  readonly attempts: number;
  /** The limit that ended the call, when one did: raising it may let the call succeed. */
  readonly limit?: CallLimit;
  /**
   * The service's `error.message` (up to 16,384 characters), redacted but otherwise as sent (it may hold
   * control characters; `message` quotes it escaped and capped). Not enumerable: logs and `JSON.stringify`
   * show only the capped form.
   */
  declare readonly serverMessage?: string;

  /** Builds an error, every text through `redactor` (default {@link redact}; pass one that knows the key). */
  constructor(init: ApiErrorInit, redactor: Redactor = (text) => redact(text)) {
    super(redactor(formatApiErrorMessage(init)));
    this.name = new.target.name;
    this.kind = init.kind;
    this.code = redactor(init.code);
    this.operation = init.operation;
    this.attempts = init.attempts ?? 0;
    if (init.status !== undefined) this.status = init.status;
    if (init.resourceId !== undefined) this.resourceId = redactor(init.resourceId);
    if (init.fields !== undefined)
      this.fields = Object.fromEntries(
        Object.entries(init.fields).map(([field, list]) => [
          redactor(field),
          list.map((m) => redactor(String(m))),
        ]),
      );
    if (init.nextFaucetAvailable !== undefined) this.nextFaucetAvailable = redactor(init.nextFaucetAvailable);
    if (init.mayHaveBeenProcessed !== undefined) this.mayHaveBeenProcessed = init.mayHaveBeenProcessed;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.limit !== undefined) this.limit = init.limit;
    if (init.serverMessage !== undefined) {
      const value = redactor(init.serverMessage);
      Object.defineProperty(this, "serverMessage", { value, enumerable: false, writable: false });
    }
  }

  /** A plain, credential-free copy for logs and `JSON.stringify` (`serverMessage` left out). */
  toJSON(): Record<string, unknown> {
    // Own enumerable fields only: `name`, `kind`, `code`, … (`message` is not enumerable).
    return { message: this.message, ...(this as object) };
  }
}

/** An error class of one kind: its constructor takes everything but `kind`. */
interface ApiErrorClass<K extends ApiErrorKind> {
  new (init: Omit<ApiErrorInit, "kind">, redactor?: Redactor): ApiError & { readonly kind: K };
}

/** The base of the error classes of one kind. */
function ofKind<K extends ApiErrorKind>(kind: K): ApiErrorClass<K> {
  return class extends ApiError {
    declare readonly kind: K;
    constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
      super({ ...init, kind }, redactor);
    }
  } as ApiErrorClass<K>;
}

/** 401: the API key is missing or invalid. */
export class UnauthorizedError extends ofKind("unauthorized") {}
/** 403: the API key may not perform this operation. */
export class ForbiddenError extends ofKind("forbidden") {}
/** 404: the object does not exist, or the caller may not see it. */
export class NotFoundError extends ofKind("not_found") {}
/** 400 or 422: the service rejected the request's content; see `fields`. */
export class ValidationError extends ofKind("validation") {}
/** 409: the request conflicts with the object's state (e.g. a network that still has nodes). */
export class ConflictError extends ofKind("conflict") {}
/** 429: rate limited; `retryAfterMs` / `nextFaucetAvailable` say when to try again. */
export class RateLimitedError extends ofKind("rate_limited") {}
/** 5xx: the service (or a proxy in front of it) failed. */
export class UnavailableError extends ofKind("unavailable") {}
/** An attempt timed out, or the overall deadline passed. */
export class TimeoutError extends ofKind("timeout") {}
/** No HTTP answer: connection refused, reset or dropped, DNS or TLS failure. */
export class NetworkError extends ofKind("network") {}
/** The client refused an input (an id, a filter, an address, an option) before sending anything. */
export class InvalidInputError extends ofKind("invalid_input") {}
/** The service answered with something other than the JSON expected. */
export class InvalidResponseError extends ofKind("invalid_response") {}

// prettier-ignore
const CLASSES: { [K in Exclude<ApiErrorKind, "unknown">]: ApiErrorClass<K> } = {
  unauthorized: UnauthorizedError, forbidden: ForbiddenError, not_found: NotFoundError, validation: ValidationError,
  conflict: ConflictError, rate_limited: RateLimitedError, unavailable: UnavailableError, timeout: TimeoutError,
  network: NetworkError, invalid_input: InvalidInputError, invalid_response: InvalidResponseError,
};

/** Builds the {@link ApiError} subclass that matches `init.kind` (`ApiError` itself for `unknown`). */
export function createApiError(init: ApiErrorInit, redactor?: Redactor): ApiError {
  if (init.kind === "unknown") return new ApiError(init, redactor);
  const { kind, ...rest } = init;
  return new CLASSES[kind](rest, redactor);
}

/** Formats the message of an error: `<operation> <resourceId>: <status> <code>: <detail> (<hint>)`. */
function formatApiErrorMessage(init: ApiErrorInit): string {
  const subject = init.resourceId ? `${init.operation} ${init.resourceId}` : init.operation;
  const status = init.status !== undefined ? `${init.status} ` : "";
  const fields = Object.entries(init.fields ?? {})
    .map(([field, messages]) => `\n  ${field}: ${messages.join("; ")}`)
    .join("");
  const hint = init.hint ? `\n${init.hint}` : "";
  return `${subject}: ${status}${init.code}: ${init.detail}${fields}${hint}`;
}

/** True for any error of this client. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** An {@link InvalidInputError} listing every problem, nothing sent; the client's `redactor` hides its key. */
export function invalidInput(
  operation: string,
  problems: readonly Problem[],
  options: {
    resourceId?: string;
    code?: string;
    summary?: string;
    attempts?: number;
    redactor?: Redactor;
  } = {},
): InvalidInputError {
  const { resourceId, code = "invalid_input", summary, attempts = 0, redactor } = options;
  const detail = summary ?? "invalid input, nothing was sent";
  // Null prototype: a field named `constructor` or `__proto__` is a field like any other.
  const fields: Record<string, string[]> = Object.create(null);
  for (const p of problems) (fields[p.field] ??= []).push(`got ${guardInputValue(p.value)}; ${p.allowed}`);
  return new InvalidInputError({ operation, resourceId, code, detail, fields, attempts }, redactor);
}

/** Throws an `InvalidInputError` (`invalid_id`, no key shown) unless `id` is a `kind` id, safe in a URL path. */
export function requireId(t: { redact: Redactor }, operation: string, kind: IdKind, id: unknown): void {
  const problem = checkId(kind, "id", id);
  if (problem) throw invalidInput(operation, [problem], { code: "invalid_id", redactor: t.redact });
}

/** Throws an `InvalidInputError` listing every problem (without the API key), when there is any. */
export function requireNoProblems(
  t: { redact: Redactor },
  operation: string,
  problems: readonly (Problem | undefined)[],
  summary?: string,
): void {
  const found = problems.filter((p): p is Problem => p !== undefined);
  if (found.length > 0) throw invalidInput(operation, found, { summary, redactor: t.redact });
}
