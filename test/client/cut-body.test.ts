/** A body cut off mid-stream fails at once as body_interrupted: retried for GETs, never the faucet's POST. */
import net from "node:net";
import { NodeServiceClient } from "../../src/api";
import { failureRecorder, testClient, wireNode } from "../helpers/client";

const API_KEY = "cut-body-test-key-Hs72Lq0Wm4Zt8Pn1";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
/** Far above the jest timeout of each test (5 s): a call that waited for it would fail the test. */
const LONG_TIMEOUT_MS = 20_000;
jest.setTimeout(5_000);

/** How a raw server ends each answer after the status line, headers and a part of the body. */
type Ending = (socket: net.Socket) => void;

interface RawServer {
  url: string;
  /** Request lines received (one per attempt). */
  requests: string[];
  /** The head (request line and headers) of each request. */
  heads: string[];
  close(): Promise<void>;
}

/** A raw TCP server on 127.0.0.1 port 0 that answers every request with `head` + `part`, then `end`s. */
async function rawServer(head: string, part: string, end: Ending): Promise<RawServer> {
  const requests: string[] = [];
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const headEnd = received.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(received.slice(0, headEnd))?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      requests.push(received.slice(0, received.indexOf("\r\n")));
      heads.push(received.slice(0, headEnd));
      received = "";
      socket.write(head + part, () => end(socket));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    requests,
    heads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const JSON_HEAD = (length: number) =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
const CHUNKED_HEAD =
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";

const endings: [string, string, string, Ending][] = [
  ["closed after 6 of 1000 bytes", JSON_HEAD(1000), '{"id":', (s) => s.end()],
  ["reset after 6 of 1000 bytes", JSON_HEAD(1000), '{"id":', (s) => s.resetAndDestroy()],
  ["closed in the middle of a chunked body", CHUNKED_HEAD, '6\r\n{"id":\r\n', (s) => s.end()],
];

const errors: unknown[] = [];
const fails = failureRecorder(errors);
let server: RawServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  for (const e of errors) expect(JSON.stringify(e) + String(e)).not.toContain(API_KEY);
});

function client(url: string): NodeServiceClient {
  return testClient(url, API_KEY, {
    timeoutMs: LONG_TIMEOUT_MS,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
  });
}

describe("a body cut off mid-stream fails at once, not after the per-attempt timeout", () => {
  it.each(endings)(
    "%s: a GET fails as body_interrupted after every attempt",
    async (_what, head, part, end) => {
      server = await rawServer(head, part, end);
      const e = await fails(client(server.url).getNode("ND-123-456-789"));
      expect(e.kind).toBe("network");
      expect(e.code).toBe("body_interrupted");
      expect(e.message).toContain(`GET ${server.url}/v1/nodes/ND-123-456-789/`);
      expect(e.attempts).toBe(3);
      expect(server.requests).toHaveLength(3);
    },
  );

  it.each(endings)(
    "%s: the faucet's POST is sent once and may have been processed",
    async (_what, head, part, end) => {
      server = await rawServer(head, part, end);
      const e = await fails(client(server.url).requestTestTokens(ADDRESS));
      expect(e.kind).toBe("network");
      expect(e.code).toBe("body_interrupted");
      expect(e.mayHaveBeenProcessed).toBe(true);
      expect(e.attempts).toBe(1);
      expect(server.requests).toEqual(["POST /v1/faucet/goerli HTTP/1.1"]);
      // A POST is never sent on a reused connection the server may be closing.
      expect(server.heads[0]).toMatch(/\r\nconnection: close(\r\n|$)/i);
    },
  );

  it("a listing whose second page is cut off fails at once; its first page was read", async () => {
    const page1 = JSON.stringify({
      count: 2,
      next: "/v1/nodes/?page=2",
      previous: null,
      results: [wireNode({ id: "ND-100-000-1" })],
    });
    let n = 0;
    server = await rawServer("", "", (s) => {
      n++;
      if (n === 1) s.end(JSON_HEAD(Buffer.byteLength(page1)) + page1);
      else s.end(JSON_HEAD(4000) + '{"count":2,"next":null,"results":[');
    });
    const [seen, listing] = [[] as string[], client(server.url).listNodes()];
    const iterate = async () => {
      for await (const node of listing) seen.push(node.id);
    };
    expect((await fails(iterate())).code).toBe("body_interrupted");
    expect(seen).toEqual(["ND-100-000-1"]);
  });

  it("a whole body that the server closes right after is read as it is", async () => {
    const body = JSON.stringify(wireNode());
    server = await rawServer(JSON_HEAD(Buffer.byteLength(body)), body, (s) => s.end());
    const node = await client(server.url).getNode("ND-123-456-789");
    expect(node.id).toBe("ND-123-456-789");
    expect(server.requests).toHaveLength(1);
    // A GET keeps its connection for the next request (the server may still close it).
    expect(server.heads[0]).toMatch(/\r\nconnection: keep-alive(\r\n|$)/i);
  });
});
