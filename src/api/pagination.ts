/**
 * The one place pages are fetched. Callers get an async iterator of items and never see pages, so
 * a change to how pages are fetched (page size, cursor style) does not touch them.
 */
import { ResponseShapeError } from "./mapping";
import { Transport, invalidResponse, request } from "./request";
import { resolveLink } from "./url";

/** What to paginate. */
export interface PageSource<T> {
  /** The client operation, for error messages. */
  operation: string;
  /** The absolute URL of the first page (on the configured origin). */
  firstUrl: string;
  /** Maps one raw item of `results`; `path` names it for error messages (`results[3]`). */
  map: (item: unknown, path: string) => T;
}

/**
 * Yields every item of a paginated list (`{count, next, previous, results}`), fetching pages
 * lazily as the caller iterates and following `next` until it is `null`. A `next` link (absolute
 * or relative) is resolved against the page that carried it, and only its path and query are
 * used, on the configured origin: the API key never goes to another host or scheme. A `next` that
 * points at an already fetched page, or a body without a `results` array, is an
 * `invalid_response` error.
 */
export async function* paginate<T>(t: Transport, source: PageSource<T>): AsyncGenerator<T, void, undefined> {
  const spec = { operation: source.operation };
  const seen = new Set<string>();
  let url: string | undefined = source.firstUrl;
  let pageNumber = 0;
  while (url !== undefined) {
    seen.add(url);
    pageNumber++;
    const response = await request(t, { ...spec, method: "GET", url });
    const body = response.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw invalidResponse(
        t,
        spec,
        response,
        `page ${pageNumber}: expected a JSON object with a results array, got ${body === undefined ? "an empty body" : Array.isArray(body) ? "an array" : typeof body}`,
      );
    }
    const page = body as { results?: unknown; next?: unknown };
    if (!Array.isArray(page.results)) {
      throw invalidResponse(
        t,
        spec,
        response,
        `page ${pageNumber}: "results" is not an array (got ${page.results === null ? "null" : typeof page.results})`,
      );
    }
    let next: string | undefined;
    if (typeof page.next === "string" && page.next !== "") {
      try {
        next = resolveLink(t.base, url, page.next);
      } catch {
        throw invalidResponse(t, spec, response, `page ${pageNumber}: "next" is not a URL reference`);
      }
      if (seen.has(next)) {
        throw invalidResponse(
          t,
          spec,
          response,
          `page ${pageNumber}: "next" points back to a page already fetched (${new URL(next).pathname}${new URL(next).search}); the listing would never end`,
          "pagination_loop",
        );
      }
    } else if (page.next !== null && page.next !== undefined && page.next !== "") {
      throw invalidResponse(t, spec, response, `page ${pageNumber}: "next" is neither a string nor null`);
    }
    const items: T[] = [];
    try {
      page.results.forEach((item, i) => items.push(source.map(item, `page ${pageNumber} results[${i}]`)));
    } catch (error) {
      if (!(error instanceof ResponseShapeError)) throw error;
      throw invalidResponse(t, spec, response, `unexpected response shape: ${error.problems.join("; ")}`);
    }
    yield* items;
    url = next;
  }
}
