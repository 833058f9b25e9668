/**
 * The one place pages are fetched: a listing follows `next` until it is null, fetching the pages it can
 * predict ahead (up to `maxConcurrentRequests`) within its call's deadline; callers get a page at a time.
 */
import { ApiError } from "./errors";
import type { Context } from "./options";
import { invalidAnswer, mapAnswer, request, type Call } from "./request";
import type { Answer } from "./attempt";
import { resolveLink } from "./url";

/** Most pages a listing fetches when its first page gives no usable `count`. */
const MAX_LIST_PAGES = 10_000;
/** Pages a listing fetches past what its first page's `count` promises (nodes added meanwhile). */
const LIST_SLACK_PAGES = 5;

/** What to list. */
export interface PageSource<T> {
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
export interface ListingStats {
  pages: number;
  attempts: number;
}

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
  const first = Number(number);
  const pages = Math.ceil(Math.max(0, count - pageSize) / pageSize);
  return Array.from({ length: pages }, (_, i) => `${before}${first + i}${after}`);
}

/**
 * The pages fetched ahead: up to `size` in flight or waiting, in order. The walk takes one only
 * when the link it follows is exactly the predicted one, so the items are those of the plain
 * walk; on any surprise it closes the window and walks `next` one page at a time.
 */
class PageWindow {
  private readonly queue: { url: string; answer: Promise<Answer> }[] = [];
  private next = 0;

  constructor(
    private readonly links: string[],
    private readonly size: number,
    private readonly pageSize: number,
    private readonly stopAfterItems: number | undefined,
    private readonly start: (url: string) => Promise<Answer>,
  ) {}

  /** The fetched-ahead answer of `url` when it is the next one predicted. */
  take(url: string): Promise<Answer> | undefined {
    return this.queue[0]?.url === url ? this.queue.shift()?.answer : undefined;
  }

  /** Starts pages until `size` are in flight or waiting. */
  fill(): void {
    while (this.queue.length < this.size && this.next < this.links.length) {
      // The pages before this one already hold more than `stopAfterItems` items: stop.
      if (this.stopAfterItems !== undefined && this.pageSize * (this.next + 1) > this.stopAfterItems) return;
      const url = this.links[this.next++];
      const answer = this.start(url);
      // Taken (and awaited) in order later, or dropped: never an unhandled rejection.
      answer.catch(() => undefined);
      this.queue.push({ url, answer });
    }
  }

  close(): void {
    this.next = this.links.length;
    this.queue.length = 0;
  }
}

/**
 * Yields the items of a paginated list (`{count, next, previous, results}`) a page at a time as the caller
 * iterates (10,000 items cost 100 async steps, not 10,000), following `next` (absolute or relative, always
 * fetched from the configured origin). A listing always ends: it is bounded by what the first page's `count`
 * promises (plus a few pages of slack), and an empty page that links on, a `next` back to a fetched page, or
 * a body without a `results` array is an `invalid_response` error (`pagination_stalled`, `pagination_loop`,
 * `pagination_overrun`, `unexpected_shape`).
 */
export async function* paginate<T>(
  t: Context,
  call: Call,
  source: PageSource<T>,
  stats: ListingStats = { pages: 0, attempts: 0 },
): AsyncGenerator<T[], void, undefined> {
  const seen = new Set<string>();
  const get = (url: string) => request(t, call, { method: "GET", url });
  let url: string | undefined = source.firstUrl;
  let window: PageWindow | undefined;
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
      const pending = window?.take(url);
      if (!pending) window?.close();
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
        invalidAnswer(t, call, { status, attempts, code, detail: `page ${n}: ${detail}` });
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
      if (n === 1 && typeof page.count === "number" && page.count > 0 && results.length === 0) {
        throw fail(
          `empty while its count says ${page.count} nodes match; the listing cannot be trusted`,
          "pagination_stalled",
        );
      }
      if (n === 1 && isCount(page.count)) {
        const pages = page.count === 0 ? 1 : Math.ceil(page.count / Math.max(1, results.length));
        const size = Math.max(1, results.length);
        bound = {
          pages: pages + LIST_SLACK_PAGES,
          items: page.count + LIST_SLACK_PAGES * size,
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
        if (seen.has(next)) {
          throw fail(
            `"next" points back to a page already fetched (${shown.pathname}${shown.search}); the listing would never end`,
            "pagination_loop",
          );
        }
        if (results.length === 0)
          throw fail("empty but links to another page; the listing would never end", "pagination_stalled");
      } else if (page.next !== null && page.next !== undefined && page.next !== "") {
        throw fail(`"next" is neither a string nor null`);
      }
      items += results.length;
      if (items > bound.items || (next !== undefined && stats.pages >= bound.pages)) {
        const detail = `after ${stats.pages} pages and ${items} nodes the service still links to another page, but ${bound.reason}; stopping so the listing ends`;
        throw invalidAnswer(t, call, { status, attempts, code: "pagination_overrun", detail });
      }
      if (n === 1) {
        if (isCount(page.count)) source.checkCount?.(page.count);
        firstCount = page.count;
        const links =
          next && isCount(page.count) ? predictedPages(next, page.count, results.length) : undefined;
        const size = source.prefetch === false ? 1 : t.maxConcurrentRequests;
        if (links && links[0] === next && size > 1) {
          window = new PageWindow(links, size, results.length, source.stopAfterItems, get);
        }
      } else if (page.count !== firstCount) {
        // The pages shifted under the listing: walk `next` from here.
        window?.close();
        window = undefined;
      }
      window?.fill();
      yield mapAnswer(t, call, { ...answer, attempts: stats.attempts }, () =>
        results.map((item, i) => source.map(item, `page ${n} results[${i}]`)),
      );
      url = next;
    }
  } finally {
    // A consumer that stops early (or an error) drops the pages fetched ahead.
    window?.close();
  }
}
