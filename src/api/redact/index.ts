/**
 * Redaction of credentials from text that may come from a server (error messages, response
 * bodies, URLs), so nothing here may take more than linear time in the length of that text.
 * There are no regular expressions: each pass is a hand-written scanner that looks at every
 * character a bounded number of times, and known secrets are found with Knuth-Morris-Pratt.
 */
export { guardInputValue } from "./input-guard";
export { isKeyLike } from "./key-like";
export { createRedactor, redact, type Redactor } from "./redact";
export { previewBody, sanitizeServerText } from "./text";
export { maskUrlCredentials, type MaskUrlOptions } from "./urls";
