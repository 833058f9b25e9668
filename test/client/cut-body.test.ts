/** A body cut off mid-stream fails at once as body_interrupted: retried for GETs, never the faucet's POST. */
import type net from "node:net";
import { wireNode, withScriptedServer, type Script } from "../helpers/client";

const API_KEY = "cut-body-test-key-Hs72Lq0Wm4Zt8Pn1";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
/** Far above the jest timeout of each test (5 s): a call that waited for it would fail the test. */
const LONG_TIMEOUT_MS = 20_000;
jest.setTimeout(5_000);

const { server, client: scriptedClient, fails } = withScriptedServer(API_KEY);
const client = () =>
  scriptedClient({ timeoutMs: LONG_TIMEOUT_MS, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } });

/** Answers on the raw socket with `head` + `part` (status line, headers, a part of the body), then `end`s it. */
const raw =
  (head: string, part: string, end: (socket: net.Socket) => void): Script =>
  (req) =>
    req.socket.write(head + part, () => end(req.socket));

const JSON_HEAD = (length: number) =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
const CHUNKED_HEAD =
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";

const endings: [string, Script][] = [
  ["closed after 6 of 1000 bytes", raw(JSON_HEAD(1000), '{"id":', (s) => s.end())],
  ["reset after 6 of 1000 bytes", raw(JSON_HEAD(1000), '{"id":', (s) => s.resetAndDestroy())],
  ["closed in the middle of a chunked body", raw(CHUNKED_HEAD, '6\r\n{"id":\r\n', (s) => s.end())],
];

describe("a body cut off mid-stream fails at once, not after the per-attempt timeout", () => {
  it.each(endings)("%s: a GET fails as body_interrupted after every attempt", async (_what, ending) => {
    server.always(ending);
    const e = await fails(client().getNode("ND-123-456-789"));
    expect(e.kind).toBe("network");
    expect(e.code).toBe("body_interrupted");
    expect(e.message).toContain(`GET ${server.url}/v1/nodes/ND-123-456-789/`);
    expect(e.attempts).toBe(3);
    expect(server.hits).toHaveLength(3);
  });

  it.each(endings)(
    "%s: the faucet's POST is sent once and may have been processed",
    async (_what, ending) => {
      server.always(ending);
      const e = await fails(client().requestTestTokens(ADDRESS));
      expect(e.kind).toBe("network");
      expect(e.code).toBe("body_interrupted");
      expect(e.mayHaveBeenProcessed).toBe(true);
      expect(e.attempts).toBe(1);
      expect(server.hits.map((h) => `${h.method} ${h.url}`)).toEqual(["POST /v1/faucet/goerli"]);
    },
  );

  it("a listing whose second page is cut off fails at once; its first page was read", async () => {
    const page1 = {
      count: 2,
      next: "/v1/nodes/?page=2",
      previous: null,
      results: [wireNode({ id: "ND-100-000-1" })],
    };
    server.fallback = raw(JSON_HEAD(4000), '{"count":2,"next":null,"results":[', (s) => s.end());
    server.script({ status: 200, body: page1 });
    const [seen, listing] = [[] as string[], client().listNodes()];
    const iterate = async () => {
      for await (const node of listing) seen.push(node.id);
    };
    expect((await fails(iterate())).code).toBe("body_interrupted");
    expect(seen).toEqual(["ND-100-000-1"]);
  });

  it("a whole body that the server closes right after is read as it is", async () => {
    const body = JSON.stringify(wireNode());
    server.script(raw(JSON_HEAD(Buffer.byteLength(body)), body, (s) => s.end()));
    const node = await client().getNode("ND-123-456-789");
    expect(node.id).toBe("ND-123-456-789");
    expect(server.hits).toHaveLength(1);
  });
});
