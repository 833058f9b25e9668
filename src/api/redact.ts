/**
 * Redaction of credentials from text that may come from a server (error messages, bodies, URLs), and
 * the credentials a client learns from the service's answers. The text is cut first, so every pattern
 * here runs on bounded input; none nests quantifiers.
 */
import { unescape as looseDecode } from "querystring"; // decodes what it can (malformed: U+FFFD), never throws
import { SECRET_FIELD_NAMES, secretForms } from "../model/node-fields";

/** The text that replaces a credential in errors and logs. */
export const REDACTED = "[REDACTED]";
/** Longest text redacted; the rest is cut off (a server's error message is far shorter). */
export const MAX_REDACTED_CHARS = 16_384;
/** Credentials kept per client when it forgets the oldest (it holds up to a quarter more between trims). */
export const MAX_LEARNED_SECRETS = 20_000;
/** How far a cut moves on to keep a token whole (a learned credential is no longer). */
const CUT_MARGIN = 2_048;
/** Shortest value remembered: shorter ones would redact ordinary words. */
const MIN_SECRET_LENGTH = 6;

/** Returns `text` cut (with `…`) near `max` characters, with credentials replaced by `[REDACTED]`. */
export type Redactor = (text: string, max?: number) => string;

/** Characters of a token and of a part of one: where credentials are looked for, and cuts never fall. */
const TOKEN = "[^\\x00-\\x20\"'`<>()[\\]{},;]";
const PART = "[^\\x00-\\x20\"'`<>()[\\]{},;=&?#@/:]";

/**
 * Credentials a client has read in the service's answers, so that a later error echoing one never shows
 * it, even when it does not look like a credential. Found by token, in a set: the cost does not grow.
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

  /** `text` (cut first) with each credential that stands as a token, or a part between `= & ? # @ / :`, hidden. */
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

const [TOKEN_AFTER, PART_AFTER] = [new RegExp(`^${TOKEN}*`), new RegExp(`^${PART}*`)];

/** Where to cut `text` near `max`: never inside a token (a key, a learned credential) nor a known secret. */
function cutAt(text: string, max: number, forms: readonly string[]): number {
  if (text.length <= max) return text.length;
  // After the token, else after its part, else at `max` (in a part too long to be a learned secret).
  const ahead = text.slice(max, max + CUT_MARGIN + 1);
  const [token, part] = [TOKEN_AFTER, PART_AFTER].map((re) => (re.exec(ahead) ?? [""])[0].length);
  let end = max + (token <= CUT_MARGIN ? token : part <= CUT_MARGIN ? part : 0);
  for (let moved = true; moved;) {
    moved = false;
    for (const form of forms) {
      const from = Math.max(0, end - form.length + 1);
      const at = text.slice(from, end + form.length - 1).indexOf(form);
      if (at >= 0 && from + at < end) [end, moved] = [from + at, true];
    }
  }
  return end;
}

const BEARER = /\bbearer\s+[\w.~+/=-]+/gi;
/** An `Authorization` value and its scheme (`Basic …`); `Bearer` ones are left to {@link BEARER}. */
const AUTHORIZATION =
  /\b(authorization["']?\s*[:=]\s*["']?)(?!bearer\b)(?:(?:basic|token|digest)\s+(?!bearer\b))?[^\s,;"'}]+/gi;
/** Words that make a parameter name secret: its value is hidden, however short. */
const SECRET_WORD = /key|token|secret|passw|pwd|auth|sig|credential/i;
/** `?api_key=…`: the lookaheads check the name for a secret word, then read it once (no backtracking). */
const SECRET_PARAM = new RegExp(
  String.raw`([?&;](?=[^=&#\s"'<>?;]*?(?:${SECRET_WORD.source}))(?=([^=&#\s"'<>?;]*))\2=)[^&#\s"'<>]*`,
  "gi",
);
/** `token=…`, `password:…` in free text; not `name: value`, how messages list fields. */
const ASSIGNMENT = /(?<![\w.-])([\w.-]{1,64})( *(?:=|:(?! |\/\/)) *)(?!\[REDACTED\])([^\s"',;&)\]}]+)/g;
/** A quoted field name and its colon, in JSON or in JSON escaped in strings (`\"password\":\"`). */
const FIELD = /(?<!\\)(\\{0,7})(["'])([\w-]{1,64})\1\2\s*:\s*\1(["'])/g;
/** A field's value up to its closing quote (escaped as its name's), or to the end of a text cut short. */
const fieldValue = (escapes: number, q: string) =>
  new RegExp(escapes ? `[^]*?(?=(?<!\\\\)\\\\{${escapes}}${q}|$)` : `(?:\\\\[^]|[^${q}\\\\])*`, "y");
/** A URL (`scheme://…`) or a path on its own (`GET /v1/<key>`, `//host/…`) in free text. */
const URL_IN_TEXT =
  /(?<![a-z\d+.-])(?=[\d+.-]*[a-z])[a-z\d+.-]+:\/\/[^\s"'<>`]+|(?<![^\s"'<>`])\/[^\s"'<>`]*/gi;
/** Credential field names (lower case, without `-_.`), besides the node's secret fields. */
const CREDENTIAL_NAME =
  /pass(?:word|wd|phrase)|secret|(?:api|auth|private|access)key|credential|authorization|(?:token|key|pwd|signature)$|^(?:auth|pass|sig)$/;

function isCredentialName(name: string): boolean {
  const normal = name.toLowerCase().replace(/[-_.]/g, "");
  return CREDENTIAL_NAME.test(normal) || SECRET_FIELD_NAMES.has(normal);
}

/** String values of credential fields. */
function hideFields(text: string): string {
  let out = "";
  let last = 0;
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(text); m; m = FIELD.exec(text)) {
    if (!isCredentialName(m[3])) {
      FIELD.lastIndex = m.index + 1;
      continue;
    }
    const start = m.index + m[0].length;
    const value = fieldValue(m[1].length, m[4]);
    value.lastIndex = start;
    value.exec(text);
    out += text.slice(last, start) + REDACTED;
    last = FIELD.lastIndex = Math.max(value.lastIndex, start);
  }
  return out + text.slice(last);
}

/** `text` with each run of `hidden` characters, and of `forms` found in `hay`, replaced `by`. */
function hideForms(text: string, hay: string, forms: string[], hidden: Uint8Array, by: string): string {
  for (const form of forms) {
    for (let i = hay.indexOf(form); form && i >= 0; i = hay.indexOf(form, i + 1)) {
      hidden.fill(1, i, i + form.length);
    }
  }
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (!hidden[i]) out += text[i];
    else if (!hidden[i - 1]) out += by;
  }
  return out;
}

/** Known secrets; empty and missing ones are ignored. */
type Secrets = ReadonlyArray<string | undefined>;
/**
 * A {@link Redactor}: cuts the text, then hides what `learned` knows, `secrets` (also URL-encoded or JSON-escaped),
 * `Bearer` tokens, `Authorization` values, secret-named parameters, assignments and JSON fields, and credentials
 * in URLs ({@link maskUrlCredentials}). Resource ids stay.
 */
export function createRedactor(secrets: Secrets = [], learned?: Pick<LearnedSecrets, "redact">): Redactor {
  const forms = [...new Set(secrets.flatMap((s) => (typeof s === "string" && s ? secretForms(s) : [])))];
  return (text, max = MAX_REDACTED_CHARS) => {
    const whole = String(text);
    const end = cutAt(whole, count(max), forms);
    const head = learned ? learned.redact(whole.slice(0, end)) : whole.slice(0, end);
    let out = hideForms(head, head, forms, new Uint8Array(head.length), REDACTED)
      .replace(BEARER, `Bearer ${REDACTED}`)
      .replace(AUTHORIZATION, `$1${REDACTED}`)
      .replace(SECRET_PARAM, `$1${REDACTED}`)
      .replace(ASSIGNMENT, (all: string, name: string, op: string, value: string) =>
        value === "Bearer" || !isCredentialName(name) ? all : `${name}${op}${REDACTED}`,
      );
    out = hideFields(out).replace(URL_IN_TEXT, (url) => maskUrlCredentials(url, { replacement: REDACTED }));
    return end < whole.length ? `${out}…` : out;
  };
}

/** `text` redacted by a {@link createRedactor} of `secrets`. */
export function redact(text: string, secrets: Secrets = [], max?: number): string {
  return createRedactor(secrets)(text, max);
}

const count = (max: number) => (Number.isNaN(max) ? 0 : Math.max(0, Math.floor(max)));

/** The first `max` characters of a body for a message, redacted first, on one line; `…` marks a cut. */
export function previewBody(body: string, redactor: Redactor, max = 200): string {
  const limit = count(max);
  const raw = redactor(String(body), 2 * limit);
  const line = raw.replace(/\s+/g, " ").trim();
  if (line.length <= limit) return line;
  return `${line.slice(0, limit > 0 && /[\ud800-\udbff]/.test(line[limit - 1]) ? limit - 1 : limit)}…`;
}

/** Control, bidi and separator characters, and lone surrogates (`for…of` yields those alone). */
const UNSAFE_CHAR =
  // eslint-disable-next-line no-control-regex
  /^[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]$/;
const ESCAPES: Record<string, string | undefined> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Server text safe for a message: control, bidi and separator characters and lone surrogates escaped (`\n`,
 * `\u001b`), at most `maxChars` characters (never splitting an escape or a pair), then `… (N more characters)`.
 */
export function sanitizeServerText(text: string, maxChars: number): string {
  const s = String(text);
  const limit = count(maxChars);
  let out = "";
  let used = 0;
  for (const ch of s) {
    const shown =
      ESCAPES[ch] ?? (UNSAFE_CHAR.test(ch) ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : ch);
    if (out.length + shown.length > limit) break;
    out += shown;
    used += ch.length;
  }
  const more = [...s.slice(used)].length;
  return more === 0 ? out : `${out}… (${more} more character${more === 1 ? "" : "s"})`;
}

/** An input value as an "invalid input" message quotes it: only its length when it could be a credential. */
export function guardInputValue(shown: string): string {
  const text = String(shown);
  const quotable =
    text.length <= 42 && redact(text) === text && !(text.match(/[\w.~+/=-]{16,}/g) ?? []).some(isKeyLike);
  if (quotable || /^("?)0x[\da-f]{0,64}\1$/i.test(text)) return text;
  return `a value of ${text.length} characters (not shown: it may hold a credential)`;
}

/** Words of ordinary names: all letters, all digits, or up to 12 letters then up to 3 digits (`v1`). */
const ORDINARY_WORD = /^(?:[a-z]+|\d+|[a-z]{1,12}\d{1,3})$/i;

/** `text` decoded, without what was redacted already (so that redacting twice changes nothing). */
const plain = (text: string) => looseDecode(text).split(REDACTED).join("");

/** Whether `text` has a word no ordinary name has (`3c6e0b8a`, `p2pify`). */
function hasUnusualWord(text: string): boolean {
  return (plain(text).match(/[a-z\d]+/gi) ?? []).some((word) => !ORDINARY_WORD.test(word));
}

/** Looks like a key: 16+ characters, letters, digits and an unusual word (not `ND-123-456-789`). */
function isKeyLike(text: string): boolean {
  const p = plain(text);
  return p.length >= 16 && /[a-z]/i.test(p) && /\d/.test(p) && hasUnusualWord(p);
}

type Hide = (start: number, end: number) => void;

/** A path judged whole (a base64 key spans segments); if key-like, its odd segments but their `.json`. */
function markPath(path: string, at: number, hide: Hide): void {
  if (!isKeyLike(path)) return;
  for (const m of path.matchAll(/[^/]+/g)) {
    if (!/[+=]/.test(m[0]) && !hasUnusualWord(m[0])) continue;
    const extension = /.\.[a-z]{1,6}$/i.exec(m[0]);
    hide(at + m.index, at + m.index + (extension ? extension.index + 1 : m[0].length));
  }
}

/** Query or fragment parameters: key-like names and values, and values of secret-named ones. */
function markParams(params: string, at: number, pathLike: boolean, hide: Hide): void {
  for (const m of params.matchAll(/[^&;]+/g)) {
    const [param] = m;
    const [s, eq] = [at + m.index, param.indexOf("=")];
    if (eq < 0) {
      if (pathLike) markPath(param, s, hide);
      else if (isKeyLike(param)) hide(s, s + param.length);
      continue;
    }
    const keyLike = isKeyLike(param);
    if (keyLike && hasUnusualWord(param.slice(0, eq))) hide(s, s + eq);
    const value = param.slice(eq + 1);
    if (value && ((keyLike && hasUnusualWord(value)) || SECRET_WORD.test(looseDecode(param.slice(0, eq))))) {
      hide(s + eq + 1, s + param.length);
    }
  }
}

/** A URL's scheme, authority, path, query and fragment (RFC 3986, appendix B). */
const URI_PARTS = /^([^:/?#]+:)?(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#[^]*)?$/;

/** Marks what holds or looks like a credential in a URL or a path (see {@link maskUrlCredentials}). */
function markUrl(url: string, hide: Hide): void {
  const [, scheme = "", authority = "", path = "", query = "", fragment = ""] = URI_PARTS.exec(url) ?? [];
  const at = scheme.length;
  const userEnd = authority.lastIndexOf("@");
  if (userEnd >= 0) hide(at + 2, at + userEnd);
  const hostAt = Math.max(2, userEnd + 1);
  if (authority && authority[hostAt] !== "[") {
    for (const m of authority.slice(hostAt).matchAll(/[^.:]+/g)) {
      if (isKeyLike(m[0])) hide(at + hostAt + m.index, at + hostAt + m.index + m[0].length);
    }
  }
  const pathAt = at + authority.length;
  markPath(path, pathAt, hide);
  markParams(query.slice(1), pathAt + path.length + 1, false, hide);
  markParams(fragment.slice(1), url.length - fragment.length + 1, true, hide);
  for (const m of url.matchAll(/:\/\/([^/?#]*)@/g)) hide(m.index + 3, m.index + 3 + m[1].length);
}

/**
 * `url` with what holds or looks like a credential replaced by `replacement`: user info (of nested URLs too), key-like
 * host labels, path segments (`.json` stays), query and fragment parts, secret-named parameters' values, and `secrets`
 * (in any ASCII case with `ignoreCase`, as in host names); the whole URL when a known secret stays readable (an odd
 * encoding) or it is over 4,096 characters.
 */
export function maskUrlCredentials(
  url: string,
  options: { replacement: string; secrets?: ReadonlyArray<string>; ignoreCase?: boolean },
): string {
  const text = String(url);
  if (text.length > 4_096) return options.replacement;
  const fold = (s: string) => (options.ignoreCase ? s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : s);
  const secrets = (options.secrets ?? []).filter((s) => typeof s === "string" && s !== "");
  const forms = [...new Set(secrets.flatMap(secretForms).map(fold))];
  const hidden = new Uint8Array(text.length);
  markUrl(text, (start, end) => hidden.fill(1, start, end));
  const out = hideForms(text, fold(text), forms, hidden, options.replacement);
  const [folded, decoded] = [fold(out), fold(looseDecode(out))];
  const readable = forms.some((f) => folded.includes(f)) || secrets.some((s) => decoded.includes(fold(s)));
  return readable ? options.replacement : out;
}
