/** Pages fetched ahead: the items and order of a `next` walk, bounded in flight, stopped early, or a walk. */
import fc from "fast-check";
import { NodeServiceClient } from "../../src/api";
import type { FetchLike, FetchResponseLike } from "../../src/api";
import { holdsAsync } from "../helpers/arbitraries";
import { testClient, wireNode } from "../helpers/client";

const BASE = "https://api.example.com";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function nodeId(i: number): string {
  return `ND-${100 + Math.floor(i / 1000)}-456-${String(i % 1000).padStart(3, "0")}`;
}

interface ServerOptions {
  total: number;
  pageSize: number;
  /** The link of page n (n >= 2). */
  link?: (n: number) => string;
  /** Latency of a call, ms. */
  latency?: (url: string, index: number) => number;
  /** A failing status for this call, if any (retried by the client). */
  fault?: (url: string, index: number) => number | undefined;
  /** The count reported on page n. */
  count?: (n: number) => number;
}

function ok(status: number, body: unknown): FetchResponseLike {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { get: (h) => (h.toLowerCase() === "content-type" ? "application/json" : null) },
    text: async () => text,
  };
}

/**
 * A paginated server over a fake fetch (`?protocol=ethereum&page=n&x=1` links by default): its
 * fetch, the URLs asked, and `peak`, the most fetches in flight at once.
 */
function server(o: ServerOptions) {
  const link = o.link ?? ((n: number) => `${BASE}/v1/nodes/?protocol=ethereum&page=${n}&x=1`);
  const urls: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const fetch: FetchLike = async (url) => {
    const index = urls.push(url) - 1;
    inFlight++;
    peak = Math.max(peak, inFlight);
    try {
      await sleep(o.latency?.(url, index) ?? 1);
      const status = o.fault?.(url, index);
      if (status !== undefined) return ok(status, { error: { code: "internal", message: "boom" } });
      let n = 1;
      for (let k = 2; k <= Math.max(2, Math.ceil(o.total / o.pageSize)); k++) if (link(k) === url) n = k;
      const results = [];
      for (let i = (n - 1) * o.pageSize; i < Math.min(o.total, n * o.pageSize); i++) {
        results.push(wireNode({ id: nodeId(i), name: `node ${i}` }));
      }
      const last = n * o.pageSize >= o.total;
      return ok(200, {
        count: o.count?.(n) ?? o.total,
        next: last ? null : link(n + 1),
        previous: null,
        results,
      });
    } finally {
      inFlight--;
    }
  };
  return { fetch, urls, peak: () => peak };
}

const client = (fetch: FetchLike, maxConcurrentRequests = 8): NodeServiceClient =>
  testClient(BASE, "unit-test-key-0123456789abcdef", {
    fetch,
    maxConcurrentRequests,
    retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 10 },
  });

const ids = (total: number) => Array.from({ length: total }, (_, i) => nodeId(i));
const filters = { protocol: "ethereum" } as const;
/** The ids a listing of up to 1000 nodes gives, with `concurrency` pages in flight at most. */
const listed = async (fetch: FetchLike, concurrency: number) =>
  (await client(fetch, concurrency).listAllNodes(filters, { limit: 1000 })).map((n) => n.id);

describe("pages fetched ahead", () => {
  it.each([4, 1])(
    "returns the items of a sequential walk, in order, each page once, %i at most in flight",
    async (concurrency) => {
      const s = server({ total: 205, pageSize: 10, latency: (_u, i) => 1 + ((i * 7) % 5) });
      expect(await listed(s.fetch, concurrency)).toEqual(ids(205));
      expect(s.urls).toHaveLength(21);
      expect(new Set(s.urls).size).toBe(21);
      expect(s.peak()).toBe(concurrency);
    },
  );

  it("the bound holds across every call of one client", async () => {
    const s = server({ total: 60, pageSize: 5, latency: () => 3 });
    const c = client(s.fetch, 3);
    const all = await Promise.all([1, 2, 3].map(() => c.listAllNodes(filters, { limit: 100 })));
    for (const nodes of all) expect(nodes.map((n) => n.id)).toEqual(ids(60));
    expect(s.peak()).toBe(3);
  });

  it("same order as the sequential walk under random faults and latencies", async () => {
    await holdsAsync(
      { numRuns: 25 },
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: 1, max: 6 }),
      fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 200, maxLength: 200 }),
      async (total, pageSize, concurrency, faults, delays) => {
        const base = { total, pageSize, latency: (_u: string, i: number) => delays[i % 200] };
        const expected = await listed(server(base).fetch, 1);
        const s = server({ ...base, fault: (_u, i) => (faults[i % 200] && i % 3 !== 2 ? 503 : undefined) });
        const got = await listed(s.fetch, concurrency);
        expect(got).toEqual(expected);
        expect(got).toEqual(ids(total));
        expect(s.peak()).toBeLessThanOrEqual(concurrency);
      },
    );
  }, 60_000);

  it("keeps yielding in order with a window of at most maxConcurrentRequests pages; stops when the consumer stops", async () => {
    const s = server({ total: 1000, pageSize: 10 });
    const got: string[] = [];
    let worst = 0;
    for await (const node of client(s.fetch, 4).listNodes(filters)) {
      got.push(node.id);
      if (got.length % 10 === 1) {
        await sleep(5); // a slow consumer: pages ahead arrive and wait
        worst = Math.max(worst, s.urls.length - Math.ceil(got.length / 10));
      }
      if (got.length === 155) break;
    }
    await sleep(30);
    expect(got).toEqual(ids(155));
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(4);
    expect(s.urls.length).toBeLessThanOrEqual(Math.ceil(155 / 10) + 4);
  });
});

describe("falling back to walking next", () => {
  const hundred = { total: 100, pageSize: 10, latency: () => 2 };

  it("a link without a page number", async () => {
    const s = server({ ...hundred, link: (n) => `${BASE}/v1/nodes/?cursor=c${n * 13}` });
    expect(await listed(s.fetch, 8)).toEqual(ids(100));
    expect(s.peak()).toBe(1);
  });

  it("count changes between pages", async () => {
    const shifting = server({ ...hundred, count: (n) => (n === 2 ? 101 : 100) });
    expect(await listed(shifting.fetch, 8)).toEqual(ids(100));
    // Pages 2..9 were fetched ahead; once page 2 reported another count the rest were dropped and
    // the walk fetched pages 3.. again, one at a time.
    expect(shifting.urls.length).toBeGreaterThan(10);
    const after = shifting.urls.slice(9);
    expect(after).toEqual(
      Array.from({ length: after.length }, (_, i) => `${BASE}/v1/nodes/?protocol=ethereum&page=${i + 3}&x=1`),
    );
  });

  it("a next link that is not the predicted one", async () => {
    // Page 4 links to page 6 (an odd server): the walk follows it, not the prediction.
    const link = (n: number) => `${BASE}/v1/nodes/?protocol=ethereum&page=${n}&x=1`;
    const base = server({ total: 100, pageSize: 10, link });
    const odd: FetchLike = async (url, init) => {
      const response = await base.fetch(url, init);
      if (url !== link(4)) return response;
      const body = JSON.parse(await response.text()) as { next: string };
      return ok(200, { ...body, next: link(6) });
    };
    expect(await listed(odd, 3)).toEqual([...ids(40), ...ids(100).slice(50)]);
  });
});
