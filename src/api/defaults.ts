/** The redaction's own constants. */

/** The text that replaces a credential in errors and logs. */
export const REDACTED = "[REDACTED]";

/** How many characters of an unexpected response body an error message quotes. */
export const BODY_PREVIEW_CHARS = 200;
