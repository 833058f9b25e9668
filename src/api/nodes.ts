/**
 * The endpoints: nodes, listed (paginated) and retrieved (spec 4.1, 4.2); networks, read and updated (both
 * `PATCH`) and deleted (4.3, 4.4); the test-token faucet (4.5); and the one judge of a 404. The one place
 * pages are fetched: a listing follows `next` until it is null, fetching the pages it can predict ahead (up
 * to `maxConcurrentRequests`) within its call's deadline; callers get a page at a time.
 */
import {
  DEFAULT_FAUCET_CHAIN,
  NODE_FILTERS,
  NODE_FILTER_NAMES,
  checkAddress,
  checkFaucetChain,
  show,
  validateNetworkUpdate,
  validateNodeFilters,
} from "../model/rules";
import { secretValues } from "../model/node-fields";
import { ApiError, NotFoundError, invalidInput, requireId, requireNoProblems } from "./errors";
import { FOREIGN_404, type Answer } from "./attempt";
import { toFaucetResult, toNetwork, toNode } from "./mapping";
import type { Context } from "./options";
import { callError, mapAnswer, request, startCall, type Call, type CallOptions } from "./request";
import type { DeleteResult, FaucetResult, NetworkInfo, NetworkUpdate, Node, NodeFilters } from "./types";
import { apiUrl, PATHS, resolveLink } from "./url";

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
type ListingStats = { pages: number; attempts: number };

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
async function* paginate<T>(
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

/** Options of `listNodes`. */
export interface ListOptions extends CallOptions {
  /**
   * Whether pages are fetched ahead while you iterate (up to `maxConcurrentRequests`). Default
   * `true`; `false` requests each page only when the loop reaches it.
   */
  prefetch?: boolean;
}

/** Options of `listAllNodes`. */
export interface ListAllOptions extends CallOptions {
  /** Required bound on the nodes collected: more matching nodes is an error, never a silent cut. */
  limit: number;
}

/** Remembers the credentials of nodes just read, so that no later error shows them. */
export function learnNodeSecrets(t: Pick<Context, "learned">, nodes: readonly Node[]): void {
  for (const node of nodes) t.learned.learn(secretValues(node.details));
}

const learned = (t: Context, node: Node) => (learnNodeSecrets(t, [node]), node);

/** The error of a 404 that is not the service's "does not exist": the API URL is wrong. */
function wrongApiUrl(t: Context, call: Call, detail: string, cause: ApiError): ApiError {
  return callError(t, call, {
    kind: "invalid_response",
    code: FOREIGN_404,
    status: 404,
    detail: `${detail}: not the service's "does not exist"`,
    hint: `The API URL (${t.base.href}) looks wrong: it must be the service's base URL, to which /v1/... paths are appended.`,
    attempts: cause.attempts,
  });
}

/**
 * A 404 means "does not exist" only when its body is the service's error object and the same base answers
 * the node list (a wrong API URL or a proxy answers 404 too): `cause`, else the error naming the API URL.
 */
export async function judgeNotFound(t: Context, call: Call, cause: ApiError, method: string, path: string) {
  // Not the service's error object: no probe can make it "does not exist".
  if (cause.code === FOREIGN_404) {
    const body = cause.message.split("\n")[0].split(`${FOREIGN_404}: `)[1];
    return wrongApiUrl(t, call, `${method} ${t.base.href}${path} answered 404; ${body}`, cause);
  }
  let problem: string;
  try {
    const list = await request(t, call, { method: "GET", url: apiUrl(t.base, PATHS.nodes) });
    if (Array.isArray((list.body as { results?: unknown } | undefined)?.results)) return cause;
    problem = `answered ${list.status} without a list of nodes`;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Only a 404 or an answer that is no JSON says the URL is wrong; no answer, or a refusal, proves nothing.
    if (error.status !== 404 && error.kind !== "invalid_response") return cause;
    problem = `failed too (${error.status ?? error.kind} ${error.code})`;
  }
  return wrongApiUrl(
    t,
    call,
    `${method} ${t.base.href}${path} answered 404, and GET ${t.base.href}${PATHS.nodes} ${problem}`,
    cause,
  );
}

/** The query string of `GET /v1/nodes/` for `filters`, checked (every problem at once). */
function nodeQuery(t: Context, operation: string, filters: NodeFilters | undefined): string {
  if (filters === undefined || filters === null) return "";
  if (typeof filters !== "object" || Array.isArray(filters)) {
    const allowed = "expected an object of filters";
    requireNoProblems(t, operation, [{ field: "filters", value: show(filters), allowed }]);
  }
  const record = filters as Record<string, unknown>;
  requireNoProblems(t, operation, validateNodeFilters(record), "invalid filters, nothing was sent");
  const query = new URLSearchParams();
  for (const name of NODE_FILTER_NAMES) {
    const value = Object.hasOwn(record, name) ? record[name] : undefined;
    if (value !== undefined) query.set(NODE_FILTERS[name].query, String(value));
  }
  return query.toString();
}

/** A listing of nodes: a 404 of the node list itself (which always exists) means a wrong API URL. */
async function* listing(t: Context, call: Call, query: string, extra: object, stats?: ListingStats) {
  const map = (item: unknown, path: string) => learned(t, toNode(item, path));
  try {
    yield* paginate(t, call, { firstUrl: apiUrl(t.base, PATHS.nodes, query), map, ...extra }, stats);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const detail = `GET ${t.base.href}${PATHS.nodes} answered 404 (${error.code}), and the node list always exists there`;
    throw wrongApiUrl(t, call, detail, error);
  }
}

/** The nodes visible to the caller's organization, fetched as the caller iterates; wrong filters throw here. */
export function listNodes(t: Context, filters?: NodeFilters, options?: ListOptions): AsyncIterable<Node> {
  const call = startCall(t, "listNodes", options);
  const prefetch = (options as ListOptions | undefined)?.prefetch;
  if (prefetch !== undefined && typeof prefetch !== "boolean") {
    const allowed = "expected true or false";
    requireNoProblems(t, call.operation, [{ field: "prefetch", value: show(prefetch), allowed }]);
  }
  const pages = listing(t, call, nodeQuery(t, call.operation, filters), { prefetch });
  return (async function* () {
    for await (const page of pages) yield* page;
  })();
}

/** Every matching node, up to `limit`: more fail, after the first page's `count` or node `limit + 1`. */
export async function listAllNodes(t: Context, filters: NodeFilters | undefined, options: ListAllOptions) {
  const call = startCall(t, "listAllNodes", options);
  const limit = (options as ListAllOptions | undefined)?.limit;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) {
    const allowed = "expected a positive integer: the most nodes to collect (a bound is required)";
    requireNoProblems(t, call.operation, [{ field: "limit", value: show(limit), allowed }]);
  }
  const query = nodeQuery(t, call.operation, filters);
  const stats: ListingStats = { pages: 0, attempts: 0 };
  const filtered = query ? ` the filters (${decodeURIComponent(query)})` : "";
  const tooMany = (summary: string) =>
    invalidInput(call.operation, [], {
      code: "limit_exceeded",
      summary,
      attempts: stats.attempts,
      redactor: t.redact,
    });
  const checkCount = (count: number) => {
    if (count > (limit as number))
      throw tooMany(
        `more than ${limit} nodes match${filtered}: the first page counts ${count}; narrow the filters or raise limit to at least ${count} (stopped after the first page)`,
      );
  };
  const nodes: Node[] = [];
  for await (const page of listing(t, call, query, { stopAfterItems: limit, checkCount }, stats)) {
    if (nodes.length + page.length > (limit as number))
      throw tooMany(
        `more than ${limit} nodes match${filtered}; narrow the filters or raise limit (stopped after ${stats.pages} page${stats.pages === 1 ? "" : "s"})`,
      );
    nodes.push(...page);
  }
  return nodes;
}

/** One node by id (`ND-…`), checked before any request; a 404 is judged by {@link judgeNotFound}. */
export async function getNode(t: Context, id: string, options?: CallOptions): Promise<Node> {
  const call = startCall(t, "getNode", options, id);
  requireId(t, call.operation, "node", id);
  try {
    const answer = await request(t, call, { method: "GET", url: apiUrl(t.base, PATHS.node(id)) });
    return mapAnswer(t, call, answer, (a) => learned(t, toNode(a.body)));
  } catch (error) {
    if (error instanceof NotFoundError) throw await judgeNotFound(t, call, error, "GET", PATHS.node(id));
    throw error;
  }
}

const UPDATE_FIELDS = ["name", "project"] as const;

function networkCall(t: Context, method: string, id: string, options: CallOptions | undefined): Call {
  const call = startCall(t, method, options, id);
  requireId(t, call.operation, "network", id);
  return call;
}

async function patchNetwork(t: Context, call: Call, id: string, body: Record<string, unknown>) {
  try {
    const answer = await request(t, call, { method: "PATCH", url: apiUrl(t.base, PATHS.network(id)), body });
    const network = mapAnswer(t, call, answer, (a) => toNetwork(a.body));
    learnNodeSecrets(t, network.nodes);
    return network;
  } catch (error) {
    if (error instanceof NotFoundError) throw await judgeNotFound(t, call, error, "PATCH", PATHS.network(id));
    throw error;
  }
}

/** Reads a network with its nodes: a `PATCH` of `{}`, the only call that returns a Network (no GET). */
export async function readNetwork(t: Context, id: string, options?: CallOptions): Promise<NetworkInfo> {
  return patchNetwork(t, networkCall(t, "readNetwork", id, options), id, {});
}

/** Changes a network's `name` and/or `project` (only the given ones are sent; with neither, reads it). */
export async function updateNetwork(t: Context, id: string, update: NetworkUpdate, options?: CallOptions) {
  const call = networkCall(t, "updateNetwork", id, options);
  if (typeof update !== "object" || update === null || Array.isArray(update)) {
    const allowed = `expected an object with ${UPDATE_FIELDS.join(" and/or ")}`;
    requireNoProblems(t, call.operation, [{ field: "update", value: show(update), allowed }]);
  }
  const given = update as unknown as Record<string, unknown>;
  const unknown = Object.keys(given).filter(
    (k) => given[k] !== undefined && !(UPDATE_FIELDS as readonly string[]).includes(k),
  );
  const allowed = `not an updatable field; expected ${UPDATE_FIELDS.join(" or ")}`;
  requireNoProblems(t, call.operation, [
    ...unknown.map((field) => ({ field, value: show(given[field]), allowed })),
    ...validateNetworkUpdate(given),
  ]);
  const body: Record<string, unknown> = {};
  for (const field of UPDATE_FIELDS)
    if (Object.hasOwn(given, field) && given[field] !== undefined) body[field] = given[field];
  return patchNetwork(t, call, id, body);
}

/** Deletes a network: `deleted`, or `alreadyGone` when the service itself says it does not exist. */
export async function deleteNetwork(t: Context, id: string, options?: CallOptions): Promise<DeleteResult> {
  const call = networkCall(t, "deleteNetwork", id, options);
  try {
    await request(t, call, { method: "DELETE", url: apiUrl(t.base, PATHS.network(id)) });
    return { status: "deleted" };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const judged = await judgeNotFound(t, call, error, "DELETE", PATHS.network(id));
    if (judged !== error) throw judged;
    return { status: "alreadyGone" };
  }
}

/** Asks the faucet of `chain` (`POST /v1/faucet/{chain}`, never idempotent) for test tokens to `address`. */
export async function requestTestTokens(
  t: Context,
  address: string,
  chain: string = DEFAULT_FAUCET_CHAIN,
  options?: CallOptions,
): Promise<FaucetResult> {
  const call = startCall(t, "requestTestTokens", options, address);
  requireNoProblems(t, call.operation, [checkAddress("address", address), checkFaucetChain("chain", chain)]);
  const url = apiUrl(t.base, PATHS.faucet(chain));
  const answer = await request(t, call, { method: "POST", url, body: { address } });
  return mapAnswer(t, call, answer, (a) => toFaucetResult(a.body, a.text), true);
}
