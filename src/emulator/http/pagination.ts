import { PAGE_QUERY } from "../../model";

/** One page of a page-number paginated list, or `undefined` for an invalid page (404). */
export interface PageSlice<T> {
  items: T[];
  page: number;
  lastPage: number;
}

/**
 * Picks a page as Django REST framework's page-number pagination does: no `page` means 1,
 * `last` means the last page, anything that is not a positive integer or lies past the last
 * page is invalid. An empty list still has page 1 (empty).
 */
export function slicePage<T>(
  items: readonly T[],
  pageParam: string | undefined,
  pageSize: number,
): PageSlice<T> | undefined {
  const lastPage = Math.max(1, Math.ceil(items.length / pageSize));
  let page: number;
  if (pageParam === undefined) page = 1;
  else if (pageParam === "last") page = lastPage;
  else if (/^[0-9]{1,9}$/.test(pageParam)) page = Number(pageParam);
  else return undefined;
  if (page < 1 || page > lastPage) return undefined;
  return { items: items.slice((page - 1) * pageSize, page * pageSize), page, lastPage };
}

/**
 * The absolute `next` / `previous` links of a page: the request URL with `page` replaced and
 * every other parameter kept in place. The link to page 1 drops `page`, as the reference
 * implementation does.
 */
export function pageLinks(
  origin: string,
  path: string,
  rawQuery: string,
  slice: { page: number; lastPage: number },
): { next: string | null; previous: string | null } {
  const link = (page: number): string => {
    const params = new URLSearchParams(rawQuery);
    if (page === 1) params.delete(PAGE_QUERY);
    else params.set(PAGE_QUERY, String(page));
    const query = params.toString();
    return `${origin}${path}${query ? `?${query}` : ""}`;
  };
  return {
    next: slice.page < slice.lastPage ? link(slice.page + 1) : null,
    previous: slice.page > 1 ? link(slice.page - 1) : null,
  };
}
