import { Problem } from "../model";
import { Redactor, guardInputValue, redact } from "./redact";

/**
 * What went wrong, as a discriminator:
 * - `unauthorized` (401), `forbidden` (403), `not_found` (404), `validation` (400, 422),
 *   `conflict` (409), `rate_limited` (429), `unavailable` (5xx): the service answered so;
 * - `timeout`: an attempt or the overall deadline ran out; `network`: no HTTP answer at all;
 * - `invalid_input`: the client refused the input before sending anything;
 * - `invalid_response`: the service's answer was not the JSON expected (an HTML page, truncated
 *   JSON, a wrong shape);
 * - `unknown`: any other status.
 */
export type ApiErrorKind =
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "validation"
  | "conflict"
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "network"
  | "invalid_input"
  | "invalid_response"
  | "unknown";

/** Everything an {@link ApiError} is built from. */
export interface ApiErrorInit {
  /** The discriminator. */
  kind: ApiErrorKind;
  /** The service's `error.code`, or a local code such as `invalid_id` or `timeout`. */
  code: string;
  /** The client operation, e.g. `deleteNetwork`. */
  operation: string;
  /** What happened, e.g. the service's `error.message`. */
  detail: string;
  /** The HTTP status, when the service answered. */
  status?: number;
  /** The id the operation was about. */
  resourceId?: string;
  /** Per-field messages (the service's `error.fields`, or local validation problems). */
  fields?: Record<string, string[]>;
  /** Faucet 429: when the next request is possible (as the service sent it). */
  nextFaucetAvailable?: string;
  /** True when a non-idempotent request failed after it may have reached the service. */
  mayHaveBeenProcessed?: boolean;
  /** The server-requested wait, in milliseconds, when it gave one. */
  retryAfterMs?: number;
  /** HTTP attempts made (0 when nothing was sent). */
  attempts?: number;
  /** The service's full `error.message`, when longer or rawer than the one quoted in the message. */
  serverMessage?: string;
  /** Advice appended to the message. */
  hint?: string;
}

/**
 * An error of the service client. The message reads
 * `<operation> <resourceId>: <status> <code>: <message>` plus a hint where useful. Credentials
 * are redacted from every text field when the error is built, and the error keeps no reference
 * to the request, its headers or the API key.
 */
export class ApiError extends Error {
  /** What went wrong; see {@link ApiErrorKind}. */
  readonly kind: ApiErrorKind;
  /** The HTTP status, when the service answered. */
  readonly status?: number;
  /** The service's `error.code`, or a local code. */
  readonly code: string;
  /** Per-field messages of a validation error. */
  readonly fields?: Record<string, string[]>;
  /** The client operation, e.g. `deleteNetwork`. */
  readonly operation: string;
  /** The id the operation was about. */
  readonly resourceId?: string;
  /** Faucet 429: when the next request is possible. */
  readonly nextFaucetAvailable?: string;
  /** True when a non-idempotent request (the faucet) may have been processed despite the error. */
  readonly mayHaveBeenProcessed?: boolean;
  /** The server-requested wait in milliseconds (`Retry-After`), when given. */
  readonly retryAfterMs?: number;
  /** HTTP attempts made (0 when the client refused the input). */
  readonly attempts: number;
  /**
   * The service's full `error.message`, credentials redacted but otherwise as sent (it may be long
   * and hold control characters: the `message` quotes it escaped and capped). Not enumerable, so
   * logs and `JSON.stringify` show only the capped form.
   */
  declare readonly serverMessage?: string;

  /**
   * Builds an error; every text is passed through `redactor` (by default the generic credential
   * patterns of {@link redact}; pass one that also knows the API key).
   */
  constructor(init: ApiErrorInit, redactor: Redactor = (text) => redact(text)) {
    super(redactor(formatApiErrorMessage(init)));
    this.name = "ApiError";
    this.kind = init.kind;
    this.code = redactor(init.code);
    this.operation = init.operation;
    this.attempts = init.attempts ?? 0;
    if (init.status !== undefined) this.status = init.status;
    if (init.resourceId !== undefined) this.resourceId = redactor(init.resourceId);
    if (init.fields !== undefined) {
      this.fields = Object.fromEntries(
        Object.entries(init.fields).map(([field, messages]) => [
          redactor(field),
          messages.map((m) => redactor(String(m))),
        ]),
      );
    }
    if (init.nextFaucetAvailable !== undefined) this.nextFaucetAvailable = redactor(init.nextFaucetAvailable);
    if (init.mayHaveBeenProcessed !== undefined) this.mayHaveBeenProcessed = init.mayHaveBeenProcessed;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.serverMessage !== undefined) {
      Object.defineProperty(this, "serverMessage", {
        value: redactor(init.serverMessage),
        enumerable: false,
        writable: false,
      });
    }
  }

  /** A plain, credential-free copy for logs and `JSON.stringify`. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      code: this.code,
      status: this.status,
      operation: this.operation,
      resourceId: this.resourceId,
      fields: this.fields,
      nextFaucetAvailable: this.nextFaucetAvailable,
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
    };
  }
}

/** 401: the API key is missing or invalid. */
export class UnauthorizedError extends ApiError {
  declare readonly kind: "unauthorized";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "unauthorized" }, redactor);
    this.name = "UnauthorizedError";
  }
}

/** 403: the API key may not perform this operation. */
export class ForbiddenError extends ApiError {
  declare readonly kind: "forbidden";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "forbidden" }, redactor);
    this.name = "ForbiddenError";
  }
}

/** 404: the object does not exist, or the caller may not see it. */
export class NotFoundError extends ApiError {
  declare readonly kind: "not_found";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "not_found" }, redactor);
    this.name = "NotFoundError";
  }
}

/** 400 or 422: the service rejected the request's content; see `fields`. */
export class ValidationError extends ApiError {
  declare readonly kind: "validation";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "validation" }, redactor);
    this.name = "ValidationError";
  }
}

/** 409: the request conflicts with the object's state (e.g. a network that still has nodes). */
export class ConflictError extends ApiError {
  declare readonly kind: "conflict";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "conflict" }, redactor);
    this.name = "ConflictError";
  }
}

/** 429: rate limited; `retryAfterMs` / `nextFaucetAvailable` say when to try again. */
export class RateLimitedError extends ApiError {
  declare readonly kind: "rate_limited";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "rate_limited" }, redactor);
    this.name = "RateLimitedError";
  }
}

/** 5xx: the service (or a proxy in front of it) failed. */
export class UnavailableError extends ApiError {
  declare readonly kind: "unavailable";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "unavailable" }, redactor);
    this.name = "UnavailableError";
  }
}

/** An attempt timed out, or the overall deadline passed. */
export class TimeoutError extends ApiError {
  declare readonly kind: "timeout";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "timeout" }, redactor);
    this.name = "TimeoutError";
  }
}

/** No HTTP answer: connection refused, reset or dropped, DNS or TLS failure. */
export class NetworkError extends ApiError {
  declare readonly kind: "network";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "network" }, redactor);
    this.name = "NetworkError";
  }
}

/** The client refused an input (an id, a filter, an address, an option) before sending anything. */
export class InvalidInputError extends ApiError {
  declare readonly kind: "invalid_input";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "invalid_input" }, redactor);
    this.name = "InvalidInputError";
  }
}

/** The service answered with something other than the JSON expected. */
export class InvalidResponseError extends ApiError {
  declare readonly kind: "invalid_response";
  /** See {@link ApiError}. */
  constructor(init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) {
    super({ ...init, kind: "invalid_response" }, redactor);
    this.name = "InvalidResponseError";
  }
}

const CLASSES: Partial<
  Record<ApiErrorKind, new (init: Omit<ApiErrorInit, "kind">, redactor?: Redactor) => ApiError>
> = {
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  validation: ValidationError,
  conflict: ConflictError,
  rate_limited: RateLimitedError,
  unavailable: UnavailableError,
  timeout: TimeoutError,
  network: NetworkError,
  invalid_input: InvalidInputError,
  invalid_response: InvalidResponseError,
};

/** Builds the {@link ApiError} subclass that matches `init.kind`. */
export function createApiError(init: ApiErrorInit, redactor?: Redactor): ApiError {
  const Class = CLASSES[init.kind];
  if (!Class) return new ApiError(init, redactor);
  const { kind: _kind, ...rest } = init;
  return new Class(rest, redactor);
}

/** The kind of error an HTTP status means. */
export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 400 || status === 422) return "validation";
  if (status === 409) return "conflict";
  if (status === 429) return "rate_limited";
  if (status >= 500 && status <= 599) return "unavailable";
  return "unknown";
}

/** Formats the message of an error: `<operation> <resourceId>: <status> <code>: <detail> (<hint>)`. */
export function formatApiErrorMessage(init: ApiErrorInit): string {
  const subject = init.resourceId ? `${init.operation} ${init.resourceId}` : init.operation;
  const status = init.status !== undefined ? `${init.status} ` : "";
  const fields =
    init.fields && Object.keys(init.fields).length > 0
      ? `\n${Object.entries(init.fields)
          .map(([field, messages]) => `  ${field}: ${messages.join("; ")}`)
          .join("\n")}`
      : "";
  const hint = init.hint ? `\n${init.hint}` : "";
  return `${subject}: ${status}${init.code}: ${init.detail}${fields}${hint}`;
}

/** Turns validation problems into an {@link ApiErrorInit}'s `fields`. */
export function problemsToFields(problems: readonly Problem[]): Record<string, string[]> {
  // A null-prototype map: a field named `constructor` or `__proto__` is a field like any other.
  const fields = new Map<string, string[]>();
  for (const p of problems) {
    const list = fields.get(p.field) ?? [];
    list.push(`got ${guardInputValue(p.value)}; ${p.allowed}`);
    fields.set(p.field, list);
  }
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [field, list] of fields)
    Object.defineProperty(out, field, { value: list, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * An {@link InvalidInputError} listing every problem; nothing was sent (`attempts` 0 unless
 * given). Pass the client's `redactor` so that a key given in the wrong place is not echoed.
 */
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
  return new InvalidInputError(
    {
      operation,
      resourceId: options.resourceId,
      code: options.code ?? "invalid_input",
      detail: options.summary ?? "invalid input, nothing was sent",
      fields: problemsToFields(problems),
      attempts: options.attempts ?? 0,
    },
    options.redactor,
  );
}

/** True for any error of this client. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isKind<K extends ApiErrorKind>(kind: K) {
  return (error: unknown): error is ApiError & { kind: K } => isApiError(error) && error.kind === kind;
}

/** True for a 401 error. */
export const isUnauthorized = isKind("unauthorized");
/** True for a 403 error. */
export const isForbidden = isKind("forbidden");
/** True for a 404 error. */
export const isNotFound = isKind("not_found");
/** True for a 400/422 error of the service. */
export const isValidation = isKind("validation");
/** True for a 409 error. */
export const isConflict = isKind("conflict");
/** True for a 429 error. */
export const isRateLimited = isKind("rate_limited");
/** True for a 5xx error. */
export const isUnavailable = isKind("unavailable");
/** True for a timeout (attempt or deadline). */
export const isTimeout = isKind("timeout");
/** True for a connection or other network failure. */
export const isNetworkError = isKind("network");
/** True for an input the client refused before sending. */
export const isInvalidInput = isKind("invalid_input");
/** True for an unexpected response body. */
export const isInvalidResponse = isKind("invalid_response");
