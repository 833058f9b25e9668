import type * as pulumi from "@pulumi/pulumi";
import { checkApiUrl, guardInputValue, isApiError, redact } from "../api";
import { formatProblems, Problem } from "../model";
import { BLANK_API_URL_REASON, settingValue, UNKNOWN } from "../settings";

/** A `check` failure as the dynamic provider protocol carries it. */
type CheckFailure = pulumi.dynamic.CheckFailure;

/**
 * Inputs as `check` receives them: any of the resource's fields, of any type, or not known yet
 * ({@link UNKNOWN}) during preview. `check` validates them; the other methods get checked inputs.
 */
export type UncheckedInputs<T> = { [K in keyof T]?: unknown };

/** What a provider's `check` answers: the SDK's `CheckResult`, always with both fields. */
export type Checked<T> = Required<pulumi.dynamic.CheckResult<T>>;

/** Turns model problems into `check` failures naming the rule. */
export function toFailures(problems: Problem[]): CheckFailure[] {
  return problems.map((p) => ({
    property: p.field,
    reason: formatProblems([{ ...p, value: guardInputValue(p.value) }]),
  }));
}

/** Checks optional `apiUrl`/`apiKey` inputs (HTTPS rule, non-empty key); unknowns pass. */
export function checkCredentialInputs(news: { apiUrl?: unknown; apiKey?: unknown }): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { apiUrl, apiKey } = news;
  if (apiUrl !== undefined && apiUrl !== UNKNOWN) {
    const reason =
      typeof apiUrl !== "string"
        ? "apiUrl must be a string"
        : settingValue(apiUrl) === undefined
          ? BLANK_API_URL_REASON
          : checkApiUrl(apiUrl);
    // A key pasted into the URL (or the two swapped) is never echoed back.
    const key = typeof apiKey === "string" && apiKey !== UNKNOWN ? [apiKey, apiKey.trim()] : [];
    if (reason) failures.push({ property: "apiUrl", reason: redact(reason, key) });
  }
  if (apiKey !== undefined && apiKey !== UNKNOWN && settingValue(apiKey) === undefined) {
    failures.push({
      property: "apiKey",
      reason: "apiKey: expected a non-empty string (pass it as a secret)",
    });
  }
  return failures;
}

/**
 * Wraps an error for the user. API errors already name the operation, the resource id, the
 * service's status, code and message, and carry no credential: they are kept and a hint is
 * appended. Other errors (settings, unexpected ones) are prefixed with the operation and id.
 */
export function describeError(err: unknown, operation: string, resourceId: string, hint?: string): Error {
  const base = isApiError(err)
    ? err.message
    : `${operation} ${resourceId}: ${err instanceof Error ? err.message : String(err)}`;
  const wrapped = new Error(hint ? `${base}\n${hint}` : base);
  wrapped.name = err instanceof Error && err.name ? err.name : "Error";
  return wrapped;
}
