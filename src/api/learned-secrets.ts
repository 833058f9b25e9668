import { REDACTED } from "./defaults";

/** Credentials kept per client when it forgets the oldest (it holds up to a quarter more between trims). */
export const MAX_LEARNED_SECRETS = 20_000;

/** Characters of a token and of a part of one: where credentials are looked for, and cuts never fall. */
export const TOKEN = "[^\\x00-\\x20\"'`<>()[\\]{},;]";
export const PART = "[^\\x00-\\x20\"'`<>()[\\]{},;=&?#@/:]";

/** Shortest value remembered: shorter ones would redact ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Credentials a client has read in the service's answers (node passwords, keys, user names,
 * endpoint URLs), so that a later error echoing one never shows it, even when it does not look
 * like a credential. Found by token, in a set: the cost does not grow with their number.
 */
export class LearnedSecrets {
  private values = new Set<string>();

  /** Remembers credentials (strings of 6 to 2,048 characters, trimmed). */
  learn(values: ReadonlyArray<string | undefined>): void {
    for (const raw of values) {
      const value = typeof raw === "string" ? raw.trim() : "";
      if (value.length < MIN_SECRET_LENGTH || value.length > 2048) continue;
      this.values.delete(value); // re-inserted: the most recent
      this.values.add(value);
      const bare = value.replace(/(?<!\/)\/+$/, "");
      if (bare.length >= MIN_SECRET_LENGTH) this.values.add(bare);
    }
    // Trimmed in batches: deleting the oldest one by one costs a scan of the set's holes each time.
    if (this.values.size > MAX_LEARNED_SECRETS * 1.25)
      this.values = new Set([...this.values].slice(-MAX_LEARNED_SECRETS));
  }

  /**
   * `text` (bounded: a redactor cuts it first) with each remembered credential that stands as a
   * token, or as a part of one between `= & ? # @ / :`, replaced by `[REDACTED]`.
   */
  redact(text: string): string {
    if (this.values.size === 0) return text;
    return text.replace(new RegExp(`${TOKEN}+`, "g"), (run) => {
      const token = run.replace(/(?<![.:])[.:]+$/, ""); // sentence punctuation is not part of it
      if (this.values.has(token)) return REDACTED + run.slice(token.length);
      const parts = new RegExp(`${PART}{6,}`, "g");
      return token.replace(parts, (p) => (this.values.has(p) ? REDACTED : p)) + run.slice(token.length);
    });
  }
}
