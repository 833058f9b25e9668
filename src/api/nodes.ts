/** Node endpoints: list (paginated) and retrieve (spec 4.1, 4.2). */
import { NODE_FILTERS, NODE_FILTER_NAMES, PATHS, Problem, show, validateNodeFilters } from "../model";
import { toNode } from "./mapping";
import { ListingStats, paginate } from "./pagination";
import { mapResponse } from "./answer";
import { request } from "./request";
import { Transport, learnNodeSecrets } from "./transport";
import type { Node, NodeFilters } from "./types";
import { confirmNotFound, wrongApiUrlHint } from "./confirm-not-found";
import { NotFoundError, createApiError } from "./errors";
import { apiUrl } from "./url";
import { Redacting, invalidInput, requireId, requireNoProblems } from "./errors";

/** Options of {@link listAllNodes}. */
export interface ListAllOptions {
  /**
   * Required upper bound on the nodes collected. When more nodes match, the call fails instead of
   * returning a truncated list.
   */
  limit: number;
  /** Overall deadline of the whole listing, ms. Default 600000 (`DEFAULT_LIST_DEADLINE_MS`). */
  deadlineMs?: number;
}

/** Options of {@link listNodes}. */
export interface ListOptions {
  /** Overall deadline of the whole listing, ms. Default 600000 (`DEFAULT_LIST_DEADLINE_MS`). */
  deadlineMs?: number;
  /**
   * Whether pages are fetched ahead while you iterate (up to `maxConcurrentRequests` at once).
   * Default `true`. `false`: each page is requested only when the iteration reaches it, so a loop
   * that stops within the first page makes exactly one request and leaves nothing in flight.
   */
  prefetch?: boolean;
}

/**
 * Checks the filters (every problem at once) and turns them into the query string of
 * `GET /v1/nodes/`, in the table's order; `archive` becomes `"true"`/`"false"`. Throws an
 * `InvalidInputError` when a filter is unknown or invalid.
 */
export function nodeQuery(t: Redacting, operation: string, filters: NodeFilters | undefined): string {
  if (filters === undefined || filters === null) return "";
  if (typeof filters !== "object" || Array.isArray(filters)) {
    throw invalidInput(
      operation,
      [
        {
          field: "filters",
          value: show(filters),
          allowed: "expected an object of filters",
        },
      ],
      { redactor: t.redact },
    );
  }
  const record = filters as Record<string, unknown>;
  requireNoProblems(t, operation, validateNodeFilters(record), "invalid filters, nothing was sent");
  const query = new URLSearchParams();
  for (const name of NODE_FILTER_NAMES) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    if (value === undefined) continue;
    query.set(NODE_FILTERS[name].query, typeof value === "boolean" ? String(value) : (value as string));
  }
  return query.toString();
}

/**
 * Lists the nodes visible to the caller's organization, page by page as the caller iterates.
 * Filters are validated synchronously, before any request: an invalid filter throws here.
 */
export function listNodes(
  t: Transport,
  filters?: NodeFilters,
  options: ListOptions = {},
): AsyncIterable<Node> {
  const operation = "listNodes";
  const prefetch = (options as ListOptions | undefined)?.prefetch;
  requireNoProblems(t, operation, [
    ...deadlineProblems((options as ListOptions | undefined)?.deadlineMs),
    ...(prefetch === undefined || typeof prefetch === "boolean"
      ? []
      : [{ field: "prefetch", value: show(prefetch), allowed: "expected true or false" }]),
  ]);
  const query = nodeQuery(t, operation, filters);
  const pages = paginate(t, {
    operation,
    firstUrl: apiUrl(t.base, PATHS.nodes, query),
    map: (item, path) => learned(t, toNode(item, path)),
    deadlineMs: options?.deadlineMs,
    prefetch,
  });
  return (async function* () {
    try {
      yield* pages;
    } catch (error) {
      throw listNotFound(t, error);
    }
  })();
}

/**
 * Collects every matching node, up to the required `limit`. When more than `limit` nodes match,
 * fails (never truncates silently), asking to narrow the filters or raise the limit: at once when
 * the first page's `count` is above `limit`, otherwise as soon as the node past `limit` arrives.
 */
export async function listAllNodes(
  t: Transport,
  filters: NodeFilters | undefined,
  options: ListAllOptions,
): Promise<Node[]> {
  const operation = "listAllNodes";
  const limit = (options as ListAllOptions | undefined)?.limit;
  const deadlineMs = (options as ListAllOptions | undefined)?.deadlineMs;
  const problems: Problem[] = [];
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) {
    problems.push({
      field: "limit",
      value: show(limit),
      allowed: "expected a positive integer: the most nodes to collect (a bound is required)",
    });
  }
  problems.push(...deadlineProblems(deadlineMs));
  requireNoProblems(t, operation, problems);
  const nodes: Node[] = [];
  const query = nodeQuery(t, operation, filters);
  const stats: ListingStats = { pages: 0, attempts: 0 };
  const filtered = query ? ` the filters (${decodeURIComponent(query)})` : "";
  const limitExceeded = (summary: string) =>
    invalidInput(operation, [], {
      code: "limit_exceeded",
      summary,
      attempts: stats.attempts,
      redactor: t.redact,
    });
  try {
    await collect();
  } catch (error) {
    throw listNotFound(t, error);
  }
  return nodes;

  async function collect(): Promise<void> {
    for await (const node of paginate(
      t,
      {
        operation,
        firstUrl: apiUrl(t.base, PATHS.nodes, query),
        map: (item, path) => learned(t, toNode(item, path)),
        deadlineMs,
        stopAfterItems: limit,
        // The first page already says the listing cannot fit: fail before walking it.
        checkCount: (count) => {
          if (count > (limit as number)) {
            throw limitExceeded(
              `more than ${limit} nodes match${filtered}: the first page counts ${count}; narrow the filters or raise limit to at least ${count} (stopped after the first page)`,
            );
          }
        },
      },
      stats,
    )) {
      if (nodes.length === limit) {
        throw limitExceeded(
          `more than ${limit} nodes match${filtered}; narrow the filters or raise limit (stopped after ${stats.pages} page${stats.pages === 1 ? "" : "s"})`,
        );
      }
      nodes.push(node);
    }
  }
}

/**
 * Retrieves one node by id (`ND-…`); the id is checked before any request. A `NotFoundError` is
 * thrown only for the service's own "does not exist" answer, confirmed against the same API base;
 * a 404 from a wrong API URL is an `invalid_response` error that says the API URL looks wrong.
 */
export async function getNode(t: Transport, id: string): Promise<Node> {
  const operation = "getNode";
  requireId(t, operation, "node", id);
  const spec = { operation, resourceId: id };
  const startedAt = t.now();
  let response;
  try {
    response = await request(t, { ...spec, method: "GET", url: apiUrl(t.base, PATHS.node(id)) });
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw await confirmNotFound(t, error, startedAt, PATHS.node(id), "the node is not taken as missing");
    }
    throw error;
  }
  return mapResponse(t, spec, response, (body) => learned(t, toNode(body)));
}

/**
 * A 404 of the node list itself (`GET /v1/nodes/` always exists) means the API URL is wrong,
 * whatever the body says: an `invalid_response` error that says so. Other errors pass.
 */
export function listNotFound(t: Transport, error: unknown): unknown {
  if (!(error instanceof NotFoundError)) return error;
  return createApiError(
    {
      kind: "invalid_response",
      code: "unexpected_not_found",
      status: error.status,
      operation: error.operation,
      detail: `GET ${t.base.href}${PATHS.nodes} answered 404 (${error.code}): the node list always exists at that path`,
      hint: wrongApiUrlHint(t),
      attempts: error.attempts,
    },
    t.redact,
  );
}

function learned(t: Transport, node: Node): Node {
  learnNodeSecrets(t, [node]);
  return node;
}

/** The problem with a listing's `deadlineMs` option, if any. */
function deadlineProblems(deadlineMs: unknown): Problem[] {
  if (deadlineMs === undefined) return [];
  if (typeof deadlineMs === "number" && Number.isFinite(deadlineMs) && deadlineMs > 0) return [];
  return [
    {
      field: "deadlineMs",
      value: show(deadlineMs),
      allowed: "expected a positive, finite number of milliseconds",
    },
  ];
}
