/**
 * The known-secrets pass of `redact`: each given secret, also URL-encoded and JSON-escaped.
 * Linear time.
 */
import { REDACTED } from "../defaults";
import { secretForms } from "../../model";
import { occurrences, replaceSpans, unionSpans } from "./spans";

/** Known secrets, URL-encoded and JSON-escaped too; overlapping occurrences become one. */
export function redactKnown(text: string, secrets: ReadonlyArray<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length === 0) continue;
    for (const form of secretForms(secret)) forms.add(form);
  }
  let spans: number[] = [];
  for (const form of forms) spans = unionSpans(spans, occurrences(text, form));
  return replaceSpans(text, spans, REDACTED);
}
