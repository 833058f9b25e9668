/**
 * A 404 is the service's own "does not exist" only when the same API base answers the node list:
 * a wrong API URL (a path prefix such as `/api/v2`, a proxy) may answer 404 with a JSON error too.
 */
import { PATHS } from "../model";
import { ApiError, createApiError } from "./errors";
import { request } from "./request";
import type { Transport } from "./transport";
import { apiUrl } from "./url";

/** The hint of a 404 that is not the service's: the API URL is wrong. */
export function wrongApiUrlHint(t: Pick<Transport, "base">): string {
  return `The API URL (${t.base.href}) looks wrong: it must be the service's base URL, to which /v1/... paths are appended.`;
}

/**
 * Confirms that a "does not exist" answer about `path` came from the service itself, by asking the
 * same API base for the first page of nodes: when that answers the paginated list the spec gives,
 * the base URL is right and the object is gone; the original error is returned. Otherwise
 * (another 404, an HTML page, a wrong shape) the API URL is wrong: throws an `invalid_response`
 * error (`unconfirmed_not_found`) that names both paths and ends with `conclusion` (e.g. "the
 * network is not taken as gone"). The probe gets what is left of the call's deadline.
 */
export async function confirmNotFound(
  t: Transport,
  notFound: ApiError,
  startedAt: number,
  path: string,
  conclusion: string,
): Promise<ApiError> {
  const probeUrl = apiUrl(t.base, PATHS.nodes);
  let problem: string | undefined;
  const left = t.deadlineMs - (t.now() - startedAt);
  try {
    if (left <= 0)
      throw createApiError({
        kind: "timeout",
        code: "deadline_exceeded",
        operation: notFound.operation,
        detail: "no time left",
        attempts: 0,
      });
    const probe = await request(
      { ...t, deadlineMs: left },
      {
        operation: notFound.operation,
        resourceId: notFound.resourceId,
        method: "GET",
        url: probeUrl,
      },
    );
    const body = probe.body as { results?: unknown } | undefined;
    if (typeof body !== "object" || body === null || !Array.isArray(body.results)) {
      problem = `GET ${t.base.href}${PATHS.nodes} answered ${probe.status} without a list of nodes`;
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = `GET ${t.base.href}${PATHS.nodes} failed too (${error.status ?? error.kind} ${error.code})`;
  }
  if (problem === undefined) return notFound;
  throw createApiError(
    {
      kind: "invalid_response",
      code: "unconfirmed_not_found",
      status: notFound.status,
      operation: notFound.operation,
      resourceId: notFound.resourceId,
      detail: `the service answered 404 for ${t.base.href}${path}, and ${problem}; ${conclusion}`,
      hint: wrongApiUrlHint(t),
      attempts: notFound.attempts,
    },
    t.redact,
  );
}
