/** What a listing fetches: over its limit it fails at the first page; prefetch: false fetches none ahead. */
import type http from "node:http";

import { wireNode, withScriptedServer } from "../helpers/client";

const API_KEY = "listing-bounds-key-Rt59Kd2Xp0Vn7Mc3";

const { server, client, fails } = withScriptedServer(API_KEY);

/** A page without a `count` field. */
const NO_COUNT = Symbol("no count");

/** Answers `GET /v1/nodes/?page=N` with page N of `pages` pages of `size` nodes, announcing `count`. */
function pagedNodes(pages: number, size: number, count: unknown = pages * size) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        ...(count === NO_COUNT ? {} : { count }),
        next: page < pages ? `/v1/nodes/?page=${page + 1}` : null,
        previous: page > 1 ? `/v1/nodes/?page=${page - 1}` : null,
        results: Array.from({ length: size }, (_, i) => wireNode({ id: `ND-100-${page}-${i + 1}` })),
      }),
    );
  };
}

describe("a collect-all whose first page announces more than its limit", () => {
  it("count 1,000,000,000 with limit 1000: limit_exceeded after the first page, naming both and the filters", async () => {
    server.always(pagedNodes(1_000_001, 1, 1_000_000_000));
    const e = await fails(client().listAllNodes({ protocol: "ethereum" }, { limit: 1000 }));
    expect(e.kind).toBe("invalid_input");
    expect(e.code).toBe("limit_exceeded");
    for (const token of ["1000000000", "1000", "protocol=ethereum"]) expect(e.message).toContain(token);
    expect(e.message).toMatch(/\blimit\b/);
    expect(e.attempts).toBe(1);
    await server.settled(150);
    expect(server.hits).toHaveLength(1);
  });

  it("a count equal to the limit is collected whole", async () => {
    server.always(pagedNodes(3, 2, 6));
    const nodes = await client().listAllNodes(undefined, { limit: 6 });
    expect(nodes).toHaveLength(6);
  });

  it.each([
    ["no count", NO_COUNT],
    ["a null count", null],
    ["a count that is not a number", "many"],
    ["a negative count", -1],
  ])("%s: fails once more than limit nodes arrived, as before", async (_what, count) => {
    server.always(pagedNodes(10, 2, count));
    const e = await fails(client({ maxConcurrentRequests: 1 }).listAllNodes(undefined, { limit: 3 }));
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toMatch(/more than 3 nodes match/);
    expect(e.attempts).toBe(2);
    expect(server.hits).toHaveLength(2);
  });
});

describe("prefetch: false fetches only the pages iterated into", () => {
  it.each([
    [{ prefetch: false }, "one request, none in the background", false],
    [{}, "by default, pages fetched ahead", true],
  ] as const)("the first node of a six-page listing, %j: %s", async (options, _what, ahead) => {
    server.always(pagedNodes(6, 10));
    for await (const _node of client({ maxConcurrentRequests: 8 }).listNodes(undefined, options)) break;
    await server.settled(200);
    expect(server.hits[0].url).toBe("/v1/nodes/");
    expect(server.hits.length > 1).toBe(ahead);
  });

  it("the whole listing: every page once, in order, one at a time", async () => {
    server.always(pagedNodes(4, 3));
    const ids: string[] = [];
    for await (const node of client({ maxConcurrentRequests: 8 }).listNodes(undefined, { prefetch: false })) {
      ids.push(node.id);
      // Time for any page fetched ahead to reach the server: none may.
      await new Promise((resolve) => setTimeout(resolve, 30));
      // Pages are requested only as the iteration reaches them.
      expect(server.hits.length).toBe(Math.floor(ids.length / 3) + (ids.length % 3 === 0 ? 0 : 1));
    }
    expect(ids).toHaveLength(12);
    const later = [2, 3, 4].map((page) => `/v1/nodes/?page=${page}`);
    expect(server.hits.map((h) => h.url)).toEqual(["/v1/nodes/", ...later]);
  });

  it("prefetch must be a boolean", async () => {
    server.script();
    const e = await fails((async () => client().listNodes(undefined, { prefetch: "no" as never }))());
    expect(e.kind).toBe("invalid_input");
    expect(e.message).toContain("prefetch");
    expect(server.hits).toHaveLength(0);
  });
});
