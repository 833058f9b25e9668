/**
 * Pages fetched ahead of a listing. Once the first page's `count` and the page number of its
 * `next` link (`?page=N`) make the remaining pages known, their links are predicted (the same
 * link with only the page number changed) and up to `size` of them are fetched at once, in order.
 * The listing still walks `next` itself: it takes a fetched-ahead page only when the link it is
 * about to follow is exactly the predicted one, so the items and their order are those of the
 * plain walk. On any surprise (another link, a changed `count`) the listing closes the window and
 * walks `next` one page at a time.
 */
import type { ApiResponse } from "./transport";

/** One page fetched ahead: its link, the listing time left when it started, and its answer. */
export interface PageFetch {
  url: string;
  /** The listing deadline's time left when the request started, ms. */
  remaining: number;
  response: Promise<ApiResponse>;
}

/** What a window needs from the listing. */
export interface WindowSource {
  /** Starts the request of `url`. */
  start(url: string): PageFetch;
  /** Most pages in flight or fetched and not yet taken. */
  size: number;
  /** The first page's `count` and number of results. */
  count: number;
  pageSize: number;
  /** When given, pages starting after this many items are not fetched ahead (a `limit`). */
  stopAfterItems?: number;
}

/** The link of page `n`, given a link whose query names page `first` once; or undefined. */
export function pageTemplate(link: string): { number: number; at: (n: number) => string } | undefined {
  const queryAt = link.indexOf("?");
  if (queryAt < 0) return undefined;
  const query = link.slice(queryAt + 1);
  const matches = [...query.matchAll(/(^|&)page=([1-9][0-9]{0,8})(?=&|$)/g)];
  if (matches.length !== 1 || /(^|&)page(=|&|$)/.test(query.replace(matches[0][0], ""))) return undefined;
  const match = matches[0];
  const before = link.slice(0, queryAt + 1) + query.slice(0, match.index) + match[1] + "page=";
  const after = query.slice((match.index ?? 0) + match[0].length);
  return { number: Number(match[2]), at: (n: number) => `${before}${n}${after}` };
}

/** The pages fetched ahead of one listing. */
export class PageWindow {
  private readonly queue: PageFetch[] = [];
  private nextPage: number;
  private readonly lastPage: number;
  private closed = false;

  /**
   * `secondLink` is page 1's `next`; `template` its page numbering. The pages after page 1 are
   * those `count` still promises.
   */
  constructor(
    private readonly source: WindowSource,
    private readonly template: { number: number; at: (n: number) => string },
  ) {
    const left = Math.max(0, source.count - source.pageSize);
    this.nextPage = template.number;
    this.lastPage = template.number + Math.ceil(left / source.pageSize) - 1;
  }

  /** The fetched-ahead page of `url` when it is the next one predicted; otherwise undefined. */
  take(url: string): PageFetch | undefined {
    if (this.closed || this.queue[0]?.url !== url) return undefined;
    return this.queue.shift();
  }

  /** Starts pages until `size` are in flight or waiting, within the predicted pages and bounds. */
  fill(): void {
    while (!this.closed && this.queue.length < this.source.size && this.nextPage <= this.lastPage) {
      const itemsBefore = this.source.pageSize * (this.nextPage - this.template.number + 1);
      if (this.source.stopAfterItems !== undefined && itemsBefore > this.source.stopAfterItems) return;
      const fetch = this.source.start(this.template.at(this.nextPage));
      // Taken (and awaited) in order later, or dropped: never an unhandled rejection.
      fetch.response.catch(() => undefined);
      this.queue.push(fetch);
      this.nextPage++;
    }
  }

  /** Drops every page fetched ahead; the listing walks `next` from here on. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }
}
