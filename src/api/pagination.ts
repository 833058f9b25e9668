/**
 * The one place pages are fetched. Callers get an async iterator of items and never see pages, so
 * a change to how pages are fetched (page size, cursor style) does not touch them.
 */
import { DEFAULT_LIST_DEADLINE_MS, LIST_SLACK_PAGES, MAX_LIST_PAGES } from "./defaults";
import { ApiError, createApiError } from "./errors";
import { invalidResponse, mapResponse } from "./answer";
import { request } from "./request";
import { PageFetch, PageWindow, pageTemplate } from "./page-window";
import type { ApiResponse, Transport } from "./transport";
import { resolveLink } from "./url";

/** What to paginate. */
export interface PageSource<T> {
  /** The client operation, for error messages. */
  operation: string;
  /** The absolute URL of the first page (on the configured origin). */
  firstUrl: string;
  /** Maps one raw item of `results`; `path` names it for error messages (`results[3]`). */
  map: (item: unknown, path: string) => T;
  /** Overall deadline of the whole listing, ms. Default `DEFAULT_LIST_DEADLINE_MS`. */
  deadlineMs?: number;
  /**
   * The listing's consumer stops after this many items (a `limit`): pages that start past it are
   * not fetched ahead.
   */
  stopAfterItems?: number;
  /**
   * `false`: no page is fetched ahead; each page is requested only when the iteration reaches it,
   * so a consumer that stops within the first page makes exactly one request and leaves nothing in
   * flight. Default `true` (up to `maxConcurrentRequests` pages ahead; see `page-window.ts`).
   */
  prefetch?: boolean;
  /**
   * Called with the first page's `count`, when it is usable (a non-negative integer), before any
   * item is yielded or any page fetched ahead; the error it throws (e.g. the count is above the
   * consumer's `limit`) ends the listing at once.
   */
  checkCount?: (count: number, stats: ListingStats) => void;
}

/** What a listing has done so far: pages fetched and HTTP attempts made (retries included). */
export interface ListingStats {
  pages: number;
  attempts: number;
}

/** The bound a listing must stay within, set from the first page. */
interface Bound {
  maxPages: number;
  maxItems: number;
  /** Why, for the error message. */
  reason: string;
}

/** True for a `count` a listing can rely on: a non-negative safe integer. */
function isUsableCount(count: unknown): count is number {
  return typeof count === "number" && Number.isSafeInteger(count) && count >= 0;
}

function boundFrom(count: unknown, pageSize: number): Bound {
  if (!isUsableCount(count)) {
    return {
      maxPages: MAX_LIST_PAGES,
      maxItems: Number.POSITIVE_INFINITY,
      reason: `the first page gave no usable count, so at most ${MAX_LIST_PAGES} pages are fetched`,
    };
  }
  const pages = count === 0 ? 1 : Math.ceil(count / Math.max(1, pageSize));
  return {
    maxPages: pages + LIST_SLACK_PAGES,
    maxItems: count + LIST_SLACK_PAGES * Math.max(1, pageSize),
    reason: `the first page's count (${count}) promised ${pages} page${pages === 1 ? "" : "s"} of ${pageSize}`,
  };
}

/**
 * Yields every item of a paginated list (`{count, next, previous, results}`), fetching pages
 * lazily as the caller iterates and following `next` until it is `null`. When the first page's
 * `count` and the page number of its `next` (`?page=N`) make the remaining pages known, up to
 * `maxConcurrentRequests` of them are fetched ahead (see `page-window.ts`), unless the source
 * says `prefetch: false` (then each page is requested only when the iteration reaches it); the items and their
 * order stay those of the plain walk, and any surprise falls back to it. A `next` link (absolute
 * or relative) is resolved against the page that carried it, and only its path and query are
 * used, on the configured origin: the API key never goes to another host or scheme.
 *
 * A listing always ends. It is bounded by what the first page's `count` promises (plus a few
 * pages of slack for nodes added meanwhile), by an overall deadline, and it refuses an empty page
 * that links to another, a `next` that points at an already fetched page, or a body without a
 * `results` array: each is an `invalid_response` error (`pagination_overrun`,
 * `pagination_stalled`, `pagination_loop`), and a listing past its deadline is a `timeout` error
 * (`listing_deadline_exceeded`). `stats`, when given, is kept up to date.
 */
export async function* paginate<T>(
  t: Transport,
  source: PageSource<T>,
  stats: ListingStats = { pages: 0, attempts: 0 },
): AsyncGenerator<T, void, undefined> {
  const spec = { operation: source.operation };
  const listDeadlineMs = source.deadlineMs ?? DEFAULT_LIST_DEADLINE_MS;
  const start = t.now();
  const seen = new Set<string>();
  let url: string | undefined = source.firstUrl;
  let bound: Bound | undefined;
  let items = 0;
  const fail = (response: Pick<ApiResponse, "status">, detail: string, code: string): ApiError =>
    invalidResponse(t, spec, { status: response.status, attempts: stats.attempts }, detail, code);
  let window: PageWindow | undefined;
  let firstCount: unknown;
  const startFetch = (next: string, remaining: number): PageFetch => ({
    url: next,
    remaining,
    response: request(
      { ...t, deadlineMs: Math.min(t.deadlineMs, remaining) },
      { ...spec, method: "GET", url: next },
    ),
  });
  try {
    while (url !== undefined) {
      seen.add(url);
      const pageNumber = stats.pages + 1;
      const remaining = listDeadlineMs - (t.now() - start);
      if (remaining <= 0) throw listingDeadline(t, source.operation, listDeadlineMs, stats);
      let fetch = window?.take(url);
      if (fetch === undefined) {
        window?.close();
        window = undefined;
        fetch = startFetch(url, remaining);
      }
      let response: ApiResponse;
      try {
        response = await fetch.response;
      } catch (error) {
        if (error instanceof ApiError) stats.attempts += error.attempts;
        if (
          error instanceof ApiError &&
          error.code === "deadline_exceeded" &&
          fetch.remaining < t.deadlineMs
        ) {
          throw listingDeadline(t, source.operation, listDeadlineMs, stats);
        }
        throw error;
      }
      stats.pages++;
      stats.attempts += response.attempts;
      const body = response.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw fail(
          response,
          `page ${pageNumber}: expected a JSON object with a results array, got ${body === undefined ? "an empty body" : Array.isArray(body) ? "an array" : typeof body}`,
          "unexpected_shape",
        );
      }
      const page = body as { results?: unknown; next?: unknown; count?: unknown };
      if (!Array.isArray(page.results)) {
        throw fail(
          response,
          `page ${pageNumber}: "results" is not an array (got ${page.results === null ? "null" : typeof page.results})`,
          "unexpected_shape",
        );
      }
      if (bound === undefined) {
        bound = boundFrom(page.count, page.results.length);
        if (typeof page.count === "number" && page.count > 0 && page.results.length === 0) {
          throw fail(
            response,
            `page 1 is empty while its count says ${page.count} nodes match; the listing cannot be trusted`,
            "pagination_stalled",
          );
        }
      }
      let next: string | undefined;
      if (typeof page.next === "string" && page.next !== "") {
        try {
          next = resolveLink(t.base, url, page.next);
        } catch {
          throw fail(response, `page ${pageNumber}: "next" is not a URL reference`, "unexpected_shape");
        }
        if (seen.has(next)) {
          throw fail(
            response,
            `page ${pageNumber}: "next" points back to a page already fetched (${new URL(next).pathname}${new URL(next).search}); the listing would never end`,
            "pagination_loop",
          );
        }
        if (page.results.length === 0) {
          throw fail(
            response,
            `page ${pageNumber} is empty but links to another page; the listing would never end`,
            "pagination_stalled",
          );
        }
      } else if (page.next !== null && page.next !== undefined && page.next !== "") {
        throw fail(response, `page ${pageNumber}: "next" is neither a string nor null`, "unexpected_shape");
      }
      items += page.results.length;
      if (items > bound.maxItems || (next !== undefined && stats.pages >= bound.maxPages)) {
        throw fail(
          response,
          `after ${stats.pages} pages and ${items} nodes the service still links to another page, but ${bound.reason}; stopping so the listing ends`,
          "pagination_overrun",
        );
      }
      if (pageNumber === 1) {
        if (isUsableCount(page.count)) source.checkCount?.(page.count, stats);
        firstCount = page.count;
        window = openWindow(t, source, page.count, page.results.length, next, (link) =>
          startFetch(link, listDeadlineMs - (t.now() - start)),
        );
      } else if (window !== undefined && page.count !== firstCount) {
        // The pages shifted under the listing: walk `next` from here.
        window.close();
        window = undefined;
      }
      window?.fill();
      const results = page.results;
      yield* mapResponse(t, spec, { ...response, attempts: stats.attempts }, () =>
        results.map((item, i) => source.map(item, `page ${pageNumber} results[${i}]`)),
      );
      url = next;
    }
  } finally {
    // A consumer that stops early (or an error) drops the pages fetched ahead.
    window?.close();
  }
}

/** The window of pages fetched ahead after page 1, when `count` and `next` make them known. */
function openWindow<T>(
  t: Transport,
  source: PageSource<T>,
  count: unknown,
  pageSize: number,
  next: string | undefined,
  start: (url: string) => PageFetch,
): PageWindow | undefined {
  const size = source.prefetch === false ? 1 : (t.maxConcurrentRequests ?? 1);
  if (size < 2 || next === undefined || pageSize === 0) return undefined;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count <= pageSize) return undefined;
  const template = pageTemplate(next);
  if (template === undefined || template.at(template.number) !== next) return undefined;
  return new PageWindow({ start, size, count, pageSize, stopAfterItems: source.stopAfterItems }, template);
}

function listingDeadline(t: Transport, operation: string, deadlineMs: number, stats: ListingStats): ApiError {
  return createApiError(
    {
      kind: "timeout",
      code: "listing_deadline_exceeded",
      operation,
      detail: `the listing's overall deadline of ${deadlineMs} ms passed after ${stats.pages} page${stats.pages === 1 ? "" : "s"}`,
      hint: "Narrow the filters, or raise the listing's deadlineMs.",
      attempts: stats.attempts,
    },
    t.redact,
  );
}
