import { isApiError } from "../api";
import { checkApiUrl } from "../api";
import { formatProblems, Problem } from "../model";
import { UNKNOWN } from "./unknown";

/** A `check` failure as the dynamic provider protocol carries it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** The result of a provider's `check`. */
export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/** Turns model problems into `check` failures naming the rule. */
export function toFailures(problems: Problem[]): CheckFailure[] {
  return problems.map((p) => ({ property: p.field, reason: formatProblems([p]) }));
}

/** Checks optional `apiUrl`/`apiKey` inputs (HTTPS rule, non-empty key); unknowns pass. */
export function checkCredentialInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { apiUrl, apiKey } = news;
  if (apiUrl !== undefined && apiUrl !== UNKNOWN) {
    const reason = typeof apiUrl === "string" ? checkApiUrl(apiUrl) : "apiUrl must be a string";
    if (reason) failures.push({ property: "apiUrl", reason });
  }
  if (apiKey !== undefined && apiKey !== UNKNOWN && (typeof apiKey !== "string" || apiKey.trim() === "")) {
    failures.push({ property: "apiKey", reason: "apiKey: expected a non-empty string (pass it as a secret)" });
  }
  return failures;
}

/**
 * Wraps an error for the user: the operation, the resource id, the service's status, code and
 * message, and a hint. API errors are already free of credentials; others are reduced to their message.
 */
export function describeError(err: unknown, operation: string, resourceId: string, hint?: string): Error {
  const base = isApiError(err) ? err.message : err instanceof Error ? err.message : String(err);
  const prefix = base.includes(resourceId) ? "" : `${resourceId}: `;
  const message = `${operation} ${prefix}${base}${hint ? `\n${hint}` : ""}`;
  const wrapped = new Error(message);
  wrapped.name = isApiError(err) ? err.name : "Error";
  return wrapped;
}
