/** The API key check at preview makes one request (the first listing page) and fetches no page ahead. */
import type http from "node:http";
import { checkApiKeyOnce } from "../../src/provider/checks";
import { resolveCall } from "../../src/settings";
import { ScriptedServer, startScriptedServer, wireNode } from "../helpers/client";

let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer();
  server.fallback = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        count: 60,
        next: page < 6 ? `${server.url}/v1/nodes/?page=${page + 1}` : null,
        previous: null,
        results: Array.from({ length: 10 }, (_, i) => wireNode({ id: `ND-100-${page}-${i + 1}` })),
      }),
    );
  };
});
afterAll(() => server.close());

test("an accepted key: one request, and none after the check has answered", async () => {
  server.script();
  const failures = await checkApiKeyOnce(
    resolveCall({ apiUrl: server.url, apiKey: "key-check-test-key-Pq73" }, undefined),
  );
  expect(failures).toEqual([]);
  await server.settled(300);
  expect(server.hits.map((h) => `${h.method} ${h.url}`)).toEqual(["GET /v1/nodes/"]);
});
