/** Local checks of inputs, done before anything is sent; each failure is an `InvalidInputError`. */
import { IdKind, Problem, checkId } from "../model";
import { InvalidInputError } from "./errors";
import { Redactor, guardInputValue } from "./redact";

/** What the checks need of the transport: its redactor, which knows the API key. */
export interface Redacting {
  redact: Redactor;
}

/** Turns validation problems into an `ApiErrorInit`'s `fields`. */
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
