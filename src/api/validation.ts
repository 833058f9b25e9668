/** Local checks of inputs, done before anything is sent; each failure is an `InvalidInputError`. */
import { IdKind, Problem, checkId } from "../model";
import { invalidInput } from "./errors";
import type { Redactor } from "./redact";

/** What the checks need of the transport: its redactor, which knows the API key. */
export interface Redacting {
  redact: Redactor;
}

/**
 * Throws an `InvalidInputError` (nothing sent) unless `id` has the shape of an identifier
 * of `kind` (`ND-123-456-789`, `NW-123-456-7`). A valid id is safe as a URL path segment. The
 * error never shows the API key, even when the key was passed as the id.
 */
export function requireId(t: Redacting, operation: string, kind: IdKind, id: unknown, field = "id"): string {
  const problem = checkId(kind, field, id);
  if (problem) throw invalidInput(operation, [problem], { code: "invalid_id", redactor: t.redact });
  return id as string;
}

/** Throws an `InvalidInputError` listing every problem (without the API key), when there is any. */
export function requireNoProblems(
  t: Redacting,
  operation: string,
  problems: readonly Problem[],
  summary?: string,
): void {
  if (problems.length > 0) {
    throw invalidInput(operation, problems, { summary, redactor: t.redact });
  }
}
