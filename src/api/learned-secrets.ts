/**
 * Credentials a client has seen in the service's answers (node passwords, keys, user names and
 * endpoint URLs), so that a later error that echoes one of them (a proxy page, a validation
 * message quoting a field) never shows it, even when it does not look like a credential. The
 * generic patterns of `redact.ts` cannot recognise a bare password; the client can, once it has
 * read it.
 *
 * Lookup is by token: the text is cut at whitespace, quotes and brackets, and each piece (and each
 * part of it between `= & ? # @ / :`) is looked up in a set, so the cost is linear in the text,
 * whatever the number of credentials known.
 */
import { REDACTED } from "./defaults";
import { spliced } from "./redact/chars";

/** Most credentials remembered per client; the oldest are forgotten first. */
export const MAX_LEARNED_SECRETS = 20_000;

/** Shortest value remembered: shorter ones would redact ordinary words. */
const MIN_SECRET_LENGTH = 6;

function isOuterDelimiter(c: number): boolean {
  return (
    c <= 32 ||
    c === 34 || // "
    c === 39 || // '
    c === 96 || // `
    c === 60 || // <
    c === 62 || // >
    c === 40 || // (
    c === 41 || // )
    c === 91 || // [
    c === 93 || // ]
    c === 123 || // {
    c === 125 || // }
    c === 44 || // ,
    c === 59 // ;
  );
}

function isInnerDelimiter(c: number): boolean {
  return c === 61 || c === 38 || c === 63 || c === 35 || c === 64 || c === 47 || c === 58; // = & ? # @ / :
}

/** A bounded set of credentials seen by one client. */
export class LearnedSecrets {
  private readonly values = new Set<string>();

  /** Remembers credentials (strings of 6 characters or more, without whitespace at the ends). */
  learn(values: ReadonlyArray<string | undefined>): void {
    for (const raw of values) {
      if (typeof raw !== "string") continue;
      const value = raw.trim();
      if (value.length < MIN_SECRET_LENGTH || value.length > 2048) continue;
      // Re-insert to mark it recent.
      this.values.delete(value);
      this.values.add(value);
      const slash = value.replace(/\/+$/, "");
      if (slash !== value && slash.length >= MIN_SECRET_LENGTH) this.values.add(slash);
    }
    while (this.values.size > MAX_LEARNED_SECRETS) {
      const oldest = this.values.values().next().value as string;
      this.values.delete(oldest);
    }
  }

  /** How many credentials are remembered. */
  get size(): number {
    return this.values.size;
  }

  /** `text` with every remembered credential that stands as a token replaced by `[REDACTED]`. Linear time. */
  redact(text: string): string {
    if (this.values.size === 0) return text;
    const parts: string[] = [];
    let last = 0;
    const n = text.length;
    let i = 0;
    while (i < n) {
      while (i < n && isOuterDelimiter(text.charCodeAt(i))) i++;
      const start = i;
      while (i < n && !isOuterDelimiter(text.charCodeAt(i))) i++;
      if (i === start) continue;
      // Trailing sentence punctuation is not part of a credential.
      let end = i;
      while (end > start && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 58)) end--;
      const run = text.slice(start, end);
      if (this.values.has(run)) {
        parts.push(text.slice(last, start), REDACTED);
        last = end;
        continue;
      }
      // Parts of the run between = & ? # @ / : (a password after `user:`, a key in a path).
      let s = start;
      for (let k = start; k <= end; k++) {
        if (k < end && !isInnerDelimiter(text.charCodeAt(k))) continue;
        if (k - s >= MIN_SECRET_LENGTH) {
          if (this.values.has(text.slice(s, k))) {
            parts.push(text.slice(last, s), REDACTED);
            last = k;
          }
        }
        s = k + 1;
      }
    }
    return spliced(text, parts, last);
  }
}
