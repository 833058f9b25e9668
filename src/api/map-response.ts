/**
 * Mapping a successful answer: a body of the wrong shape becomes an `invalid_response`
 * {@link ApiError} that names the wrong fields, here and nowhere else.
 */
import { ApiError, createApiError } from "./errors";
import { ResponseShapeError } from "./mapping";
import { isIdempotent } from "./retry";
import type { ApiResponse, RequestSpec } from "./transport";
import type { Redacting } from "./validation";

/** The note on an error of a non-idempotent request that may have been processed. */
export const MAY_HAVE_BEEN_PROCESSED_NOTE =
  "The request reached the service and its answer does not say it was refused, so it may have been processed: it is not repeated automatically.";

/**
 * Maps a successful response with `map`; a {@link ResponseShapeError} becomes an
 * `invalid_response` {@link ApiError} that names the wrong fields (with `mayHaveBeenProcessed`
 * for a non-idempotent `method`: the service answered 2xx, so it did something).
 */
export function mapResponse<T>(
  t: Redacting,
  spec: Pick<RequestSpec, "operation" | "resourceId"> & { method?: RequestSpec["method"] },
  response: ApiResponse,
  map: (body: unknown, text: string) => T,
): T {
  try {
    return map(response.body, response.text);
  } catch (error) {
    if (!(error instanceof ResponseShapeError)) throw error;
    throw invalidResponse(t, spec, response, `unexpected response shape: ${error.problems.join("; ")}`);
  }
}

/** An `invalid_response` error for a successful response whose content is unusable. */
export function invalidResponse(
  t: Redacting,
  spec: Pick<RequestSpec, "operation" | "resourceId"> & { method?: RequestSpec["method"] },
  response: Pick<ApiResponse, "status" | "attempts">,
  detail: string,
  code = "unexpected_shape",
): ApiError {
  return createApiError(
    {
      kind: "invalid_response",
      code,
      status: response.status,
      operation: spec.operation,
      resourceId: spec.resourceId,
      detail,
      attempts: response.attempts,
      // A non-idempotent request answered with an unusable success body was processed, or may have been.
      mayHaveBeenProcessed: spec.method !== undefined && !isIdempotent(spec.method) ? true : undefined,
      hint:
        spec.method !== undefined && !isIdempotent(spec.method) ? MAY_HAVE_BEEN_PROCESSED_NOTE : undefined,
    },
    t.redact,
  );
}
