/**
 * The one place pages are fetched: a listing follows `next` until it is null, fetching the pages it can
 * predict ahead (up to `maxConcurrentRequests`) within its call's deadline; callers get a page at a time.
 */
import { ApiError } from "./errors";
import type { Context } from "./options";
import { callError, mapAnswer, request, type Call } from "./request";
import type { Answer } from "./attempt";
import { resolveLink } from "./url";

/** Most pages a listing fetches when its first page gives no usable `count`. */
const MAX_LIST_PAGES = 10_000;
/** Pages a listing fetches past what its first page's `count` promises (nodes added meanwhile). */
const LIST_SLACK_PAGES = 5;

/** What to list. */
interface PageSource<T> {
  /** The absolute URL of the first page (on the configured origin). */
  firstUrl: string;
  /** Maps one raw item of `results`; `path` names it in errors (`page 2 results[3]`). */
  map: (item: unknown, path: string) => T;
  /** The consumer stops after this many items (a `limit`): pages past it are not fetched ahead. */
  stopAfterItems?: number;
  /** `false`: no page is fetched ahead, each is requested only when the iteration reaches it. */
  prefetch?: boolean;
  /** Told the first page's usable `count` before any item is yielded; what it throws ends the listing. */
  checkCount?: (count: number) => void;
}

/** Pages fetched and HTTP attempts made so far (retries included). */
export type ListingStats = { pages: number; attempts: number };

const isCount = (count: unknown): count is number =>
  typeof count === "number" && Number.isSafeInteger(count) && count >= 0;

/** Links after page 1, predicted from its `next` (`?page=N`, only N changing) and `count`; or undefined. */
function predictedPages(next: string, count: number, pageSize: number): string[] | undefined {
  const queryAt = next.indexOf("?");
  const query = next.slice(queryAt + 1);
  const matches = [...query.matchAll(/(^|&)page=([1-9][0-9]{0,8})(?=&|$)/g)];
  if (queryAt < 0 || matches.length !== 1 || /(^|&)page(=|&|$)/.test(query.replace(matches[0][0], "")))
    return undefined;
  const [whole, sep, number] = matches[0];
  const before = next.slice(0, queryAt + 1) + query.slice(0, matches[0].index) + sep + "page=";
  const after = query.slice((matches[0].index ?? 0) + whole.length);
  const pages = Math.ceil(Math.max(0, count - pageSize) / pageSize);
  return Array.from({ length: pages }, (_, i) => `${before}${Number(number) + i}${after}`);
}

/**
 * Yields a paginated list (`{count, next, results}`) a page at a time, following `next` on the configured
 * origin. It always ends: bounded by the first page's `count` (plus slack); an empty page that links on, a
 * loop or a body without `results` is an `invalid_response` error.
 */
export async function* paginate<T>(
  t: Context,
  call: Call,
  source: PageSource<T>,
  stats: ListingStats = { pages: 0, attempts: 0 },
): AsyncGenerator<T[], void, undefined> {
  const seen = new Set<string>();
  const get = (url: string) => request(t, call, { method: "GET", url });
  // The pages fetched ahead, in order: up to `windowSize` in flight or waiting. The walk takes one only when
  // the link it follows is exactly the predicted one, so the items are those of the plain walk; on any
  // surprise the window closes and the walk follows `next` one page at a time.
  let ahead: { url: string; answer: Promise<Answer> }[] = [];
  let [links, started, windowSize, pageSize] = [[] as string[], 0, 0, 0];
  const closeWindow = () => ([links, ahead] = [[], []]);
  let url: string | undefined = source.firstUrl;
  let bound = {
    pages: MAX_LIST_PAGES,
    items: Infinity,
    reason: `the first page gave no usable count, so at most ${MAX_LIST_PAGES} pages are fetched`,
  };
  let firstCount: unknown;
  let items = 0;
  try {
    while (url !== undefined) {
      seen.add(url);
      const n = stats.pages + 1;
      const pending = ahead[0]?.url === url ? ahead.shift()?.answer : undefined;
      if (!pending) closeWindow();
      let answer: Answer;
      try {
        answer = await (pending ?? get(url));
      } catch (error) {
        if (error instanceof ApiError) stats.attempts += error.attempts;
        throw error;
      }
      stats.pages++;
      stats.attempts += answer.attempts;
      const [status, attempts] = [answer.status, stats.attempts];
      const fail = (detail: string, code = "unexpected_shape") =>
        callError(t, call, {
          kind: "invalid_response",
          status,
          attempts,
          code,
          detail: `page ${n}: ${detail}`,
        });
      const body = answer.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        const got = body === undefined ? "an empty body" : Array.isArray(body) ? "an array" : typeof body;
        throw fail(`expected a JSON object with a results array, got ${got}`);
      }
      const page = body as { results?: unknown; next?: unknown; count?: unknown };
      const results = page.results;
      if (!Array.isArray(results))
        throw fail(`"results" is not an array (got ${results === null ? "null" : typeof results})`);
      // Any count above zero over an empty first page (even one too large to use) is a stall.
      if (n === 1 && typeof page.count === "number" && page.count > 0 && results.length === 0)
        throw fail(
          `empty while its count says ${page.count} nodes match; the listing cannot be trusted`,
          "pagination_stalled",
        );
      if (n === 1 && isCount(page.count)) {
        const pages = page.count === 0 ? 1 : Math.ceil(page.count / Math.max(1, results.length));
        bound = {
          pages: pages + LIST_SLACK_PAGES,
          items: page.count + LIST_SLACK_PAGES * Math.max(1, results.length),
          reason: `the first page's count (${page.count}) promised ${pages} page${pages === 1 ? "" : "s"} of ${results.length}`,
        };
      }
      let next: string | undefined;
      if (typeof page.next === "string" && page.next !== "") {
        try {
          next = resolveLink(t.base, url, page.next);
        } catch {
          throw fail(`"next" is not a URL reference`);
        }
        const shown = new URL(next);
        if (seen.has(next))
          throw fail(
            `"next" points back to a page already fetched (${shown.pathname}${shown.search}); the listing would never end`,
            "pagination_loop",
          );
        if (results.length === 0)
          throw fail("empty but links to another page; the listing would never end", "pagination_stalled");
      } else if (page.next !== null && page.next !== undefined && page.next !== "")
        throw fail(`"next" is neither a string nor null`);
      items += results.length;
      if (items > bound.items || (next !== undefined && stats.pages >= bound.pages)) {
        const detail = `after ${stats.pages} pages and ${items} nodes the service still links to another page, but ${bound.reason}; stopping so the listing ends`;
        throw callError(t, call, {
          kind: "invalid_response",
          status,
          attempts,
          code: "pagination_overrun",
          detail,
        });
      }
      if (n === 1) {
        if (isCount(page.count)) source.checkCount?.(page.count);
        firstCount = page.count;
        const predicted =
          next && isCount(page.count) ? predictedPages(next, page.count, results.length) : undefined;
        windowSize = source.prefetch === false ? 1 : t.maxConcurrentRequests;
        if (predicted && predicted[0] === next && windowSize > 1)
          [links, pageSize] = [predicted, results.length];
      } else if (page.count !== firstCount) {
        // The pages shifted under the listing: walk `next` from here.
        closeWindow();
      }
      // Starts pages until `windowSize` are in flight or waiting; none once the pages before it hold more than `stopAfterItems` items.
      while (ahead.length < windowSize && started < links.length) {
        if (source.stopAfterItems !== undefined && pageSize * (started + 1) > source.stopAfterItems) break;
        const link = links[started++];
        const fetched = get(link);
        // Taken (and awaited) in order later, or dropped: never an unhandled rejection.
        fetched.catch(() => undefined);
        ahead.push({ url: link, answer: fetched });
      }
      yield mapAnswer(t, call, { ...answer, attempts: stats.attempts }, () =>
        results.map((item, i) => source.map(item, `page ${n} results[${i}]`)),
      );
      url = next;
    }
  } finally {
    // A consumer that stops early (or an error) drops the pages fetched ahead.
    closeWindow();
  }
}
