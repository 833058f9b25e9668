import type { Reply } from "./reply";
import { errorReply } from "./reply";

/** The JSON object of a request body, or the error to answer. */
export type BodyResult = { value: Record<string, unknown> } | { reply: Reply };

/**
 * Reads a JSON object body. An empty body is `{}`. A non-empty body needs
 * `Content-Type: application/json` (else 415 `unsupported_media_type`), must parse (else 400
 * `parse_error`) and must be an object (else 400 `validation_error`).
 */
export function parseJsonObject(body: Buffer, contentType: string | undefined): BodyResult {
  const text = body.toString("utf8");
  if (text.trim() === "") return { value: {} };
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    return {
      reply: errorReply(
        415,
        "unsupported_media_type",
        `Unsupported media type "${mediaType}" in request; send JSON with Content-Type: application/json.`,
      ),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reply: errorReply(400, "parse_error", `JSON parse error - ${(error as Error).message}`) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "list" : typeof value;
    const message = `Invalid data. Expected a dictionary, but got ${got}.`;
    return {
      reply: errorReply(400, "validation_error", message, { fields: { non_field_errors: [message] } }),
    };
  }
  return { value: value as Record<string, unknown> };
}
