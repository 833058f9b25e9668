import { formatProblems } from "../../model";
import type { Problem, WireError } from "../../model";

/** A response to write: status, headers and an optional body. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** The JSON content type of every JSON answer. */
export const JSON_TYPE = "application/json";

/** A JSON reply. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** An error reply with the service's error body `{"error": {"code", "message"}}`. */
export function errorReply(
  status: number,
  code: string,
  message: string,
  options: {
    fields?: Record<string, string[]>;
    top?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
): Reply {
  const body: WireError = {
    error: { code, message, ...(options.fields ? { fields: options.fields } : {}) },
    ...options.top,
  };
  return json(status, body, options.headers);
}

/** A 204 reply without a body. */
export function noContent(): Reply {
  return { status: 204, headers: {} };
}

/** The 404 answer: missing, or not visible to the caller (the service does not tell them apart). */
export function notFound(message = "Not found."): Reply {
  return errorReply(404, "not_found", message);
}

/**
 * A 400 `validation_error`: `fields` maps each field (wire name) to its messages and `message`
 * lists them all, one problem per line.
 */
export function validationError(problems: readonly Problem[]): Reply {
  const fields: Record<string, string[]> = {};
  for (const p of problems) (fields[p.field] ??= []).push(`${p.allowed} (got ${p.value})`);
  return errorReply(400, "validation_error", formatProblems(problems), { fields });
}

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
