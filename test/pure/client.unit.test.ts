import util from "node:util";
import { ApiError, InvalidInputError, NodeServiceClient } from "../../src/api";
import {
  FakeAnswer,
  collect,
  recordingFetch,
  rejection,
  testClient,
  wireNetwork,
  wireNode,
} from "../helpers/client";

const API_KEY = "unit-test-key-0123456789abcdef";
const NETWORK_ID = "NW-123-456-7";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";

function client(answer?: Parameters<typeof recordingFetch>[0], apiUrl = "https://api.example.com") {
  const { fetch, calls } = recordingFetch(answer);
  return { client: testClient(apiUrl, API_KEY, { fetch }), calls };
}

function page(results: unknown[], next: string | null, count = results.length): FakeAnswer {
  return { status: 200, body: { count, next, previous: null, results } };
}

describe("local validation sends no request", () => {
  type Case = readonly [string, (c: NodeServiceClient) => unknown, readonly string[]];
  const row = (name: string, call: Case[1], field: string): Case => [name, call, [field]];
  const cases: Case[] = [
    ["getNode ND-1?x=y", (c) => c.getNode("ND-1?x=y"), ["id"]],
    ["getNode ../x", (c) => c.getNode("../x"), ["id"]],
    ["readNetwork NW-1/../nodes", (c) => c.readNetwork("NW-1/../nodes"), ["id"]],
    ["updateNetwork NW-1%2F", (c) => c.updateNetwork("NW-1%2F", { name: "x" }), ["id"]],
    ["deleteNetwork empty", (c) => c.deleteNetwork(""), ["id"]],
    ["deleteNetwork non-string", (c) => c.deleteNetwork(42 as unknown as string), ["id"]],
    [
      "listNodes, every bad filter, thrown at the call",
      (c) => c.listNodes({ region: "mars-1", project: "NW-1", colour: "red" } as never),
      ["colour", "project", "region"],
    ],
    [
      "updateNetwork: name, project and unknown fields",
      (c) => c.updateNetwork(NETWORK_ID, { name: " ", project: "RG-1", protocol: "bsc" } as never),
      ["name", "project", "protocol"],
    ],
    ...["Sepolia", "../nodes", "", "a/b"].map((chain) =>
      row(`chain ${chain}`, (c) => c.requestTestTokens(ADDRESS, chain), "chain"),
    ),
    ...[undefined, {}, { limit: 0 }, { limit: -1 }, { limit: 1.5 }, { limit: "5" }].map((o) =>
      row(`limit ${JSON.stringify(o)}`, (c) => c.listAllNodes({}, o as never), "limit"),
    ),
    ...[-1, 0, NaN, Infinity, "1s"].flatMap((deadlineMs) => [
      row(
        `listAllNodes deadlineMs ${deadlineMs}`,
        (c) => c.listAllNodes({}, { limit: 10, deadlineMs } as never),
        "deadlineMs",
      ),
      row(
        `listNodes deadlineMs ${deadlineMs}`,
        (c) => c.listNodes({}, { deadlineMs } as never),
        "deadlineMs",
      ),
    ]),
  ];
  it.each(cases)("%s", async (_name, call, fields) => {
    const { client: c, calls } = client();
    const error = (await rejection(() => call(c))) as ApiError;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ kind: "invalid_input", attempts: 0 });
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(fields);
    expect(calls).toHaveLength(0);
  });
});

describe("requests", () => {
  it("sends the Bearer key, JSON accept, and appends /v1/ to a path prefix", async () => {
    const { client: c, calls } = client(
      () => ({ status: 200, body: wireNode() }),
      "https://api.example.com/base/",
    );
    const node = await c.getNode("ND-123-456-789");
    expect(node.id).toBe("ND-123-456-789");
    expect(calls[0].url).toBe("https://api.example.com/base/v1/nodes/ND-123-456-789/");
    expect(calls[0].init.method).toBe("GET");
    expect(calls[0].init.headers.Authorization).toBe(`Bearer ${API_KEY}`);
    expect(calls[0].init.headers.Accept).toBe("application/json");
    expect(calls[0].init.redirect).toBe("manual");
  });

  it('maps every filter to its query name; archive becomes "true"/"false"; undefined filters are left out', async () => {
    const { client: c, calls } = client(() => page([], null));
    const same = { project: "PR-1-2", organization: "RG-1-2", network: "NW-1-2", region: "us-east-1" };
    const more = { provider: "aws", protocol: "ethereum", role: "peer", type: "dedicated", name: "a b&c" };
    const renamed = { publicNetwork: "ethereum-mainnet", projectType: "public", orderBy: "-created_at" };
    await collect(c.listNodes({ ...same, ...more, ...renamed, archive: false, status: "running" } as never));
    const url = new URL(calls[0].url);
    expect(url.pathname).toBe("/v1/nodes/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ...same,
      ...more,
      archive: "false",
      public_network: "ethereum-mainnet",
      project_type: "public",
      status: "running",
      order_by: "-created_at",
    });
    await collect(c.listNodes({ archive: true, name: undefined }));
    expect(new URL(calls[1].url).search).toBe("?archive=true");
  });

  it("readNetwork and updateNetwork PATCH a JSON body of only the given fields, {} to read", async () => {
    const { client: c, calls } = client(() => ({ status: 200, body: wireNetwork() }));
    expect((await c.readNetwork(NETWORK_ID)).publicNetwork).toBe("ethereum-mainnet");
    await c.updateNetwork(NETWORK_ID, { name: "Renamed" });
    await c.updateNetwork(NETWORK_ID, { project: "PR-9-9", name: undefined });
    await c.updateNetwork(NETWORK_ID, {});
    expect(calls.map((call) => call.init.body)).toEqual([
      "{}",
      '{"name":"Renamed"}',
      '{"project":"PR-9-9"}',
      "{}",
    ]);
    for (const { init, url } of calls) {
      expect([init.method, init.headers["Content-Type"]]).toEqual(["PATCH", "application/json"]);
      expect(url).toBe(`https://api.example.com/v1/networks/${NETWORK_ID}/`);
    }
  });

  it.each([
    [
      "a 2xx with a non-JSON body",
      { status: 200, text: "<html>hi</html>", headers: { "content-type": "text/html" } },
      { kind: "invalid_response", status: 200, code: "invalid_json" },
      /text\/html, 15 characters.*"<html>hi<\/html>"/,
    ],
    [
      "a 2xx of the wrong shape",
      { status: 200, body: { id: "ND-1-2-3" } },
      { kind: "invalid_response" },
      /node\.name/,
    ],
    [
      "a redirect",
      { status: 302, text: "", headers: { location: "https://evil.example/x" } },
      { kind: "unknown", code: "unexpected_redirect" },
      /evil\.example/,
    ],
  ])(
    "%s is an error naming what came, of its kind; sent once, a redirect not followed",
    async (_what, answer, fields, text) => {
      const { client: c, calls } = client(() => answer);
      const error = (await rejection(c.getNode("ND-1-2-3"))) as ApiError;
      expect(error).toMatchObject(fields);
      expect(error.message).toMatch(text);
      expect(calls).toHaveLength(1);
    },
  );

  it("the faucet result keeps amountSent exact; the chain is in the path", async () => {
    const { client: c, calls } = client(() => ({
      status: 200,
      text: '{"amountSent": 123456789012345678901, "transaction": "https://explorer.example/tx/0xabc"}',
    }));
    expect(await c.requestTestTokens(ADDRESS)).toEqual({
      amountSent: "123456789012345678901",
      transaction: "https://explorer.example/tx/0xabc",
    });
    expect(JSON.parse(calls[0].init.body!)).toEqual({ address: ADDRESS });
    await c.requestTestTokens(ADDRESS, "hoodi");
    expect(calls[1].url).toBe("https://api.example.com/v1/faucet/hoodi");
  });

  it("the client never shows its key", () => {
    const { client: c } = client();
    expect(util.inspect(c, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(c)).not.toContain(API_KEY);
  });
});

describe("pagination", () => {
  const nodes = [1, 2, 3, 4, 5].map((i) => wireNode({ id: `ND-1-1-${i}`, name: `n${i}` }));

  it.each([
    ["absolute next links are followed until null", "", ["https://api.example.com/v1/nodes/?page=2"]],
    [
      "relative next links (path-absolute and query-only) are followed",
      "/base",
      ["/base/v1/nodes/?page=2", "?page=3"],
    ],
    [
      "a next link on a foreign host is fetched from the configured origin",
      "",
      [
        "https://evil.example/v1/nodes/?page=2",
        "http://api.example.com/v1/nodes/?page=3",
        "//evil.example/v1/nodes/?page=4",
      ],
    ],
  ])("%s", async (_what, prefix, links) => {
    const answers = [...links, null].map((next, i) => page(nodes.slice(i, i + 1), next));
    const { client: c, calls } = client((_url, i) => answers[i], `https://api.example.com${prefix}`);
    const got = await collect(c.listNodes());
    expect(got.map((n) => n.id)).toEqual(nodes.slice(0, answers.length).map((n) => n.id));
    expect(calls.map((call) => call.url)).toEqual(
      answers.map((_, i) => `https://api.example.com${prefix}/v1/nodes/${i ? `?page=${i + 1}` : ""}`),
    );
  });

  it("a next link that loops is an error", async () => {
    const answers = [
      page(nodes.slice(0, 1), "https://api.example.com/v1/nodes/?page=2"),
      page(nodes.slice(1, 2), "https://api.example.com/v1/nodes/?page=2"),
    ];
    const { client: c, calls } = client((_url, i) => answers[i]);
    const error = (await rejection(collect(c.listNodes()))) as ApiError;
    expect(error.code).toBe("pagination_loop");
    expect(calls).toHaveLength(2);
  });

  it("results not an array, an empty first page whose count is too large to use, or a next link that is not HTTP: a clear error", async () => {
    for (const [body, token] of [
      [{ count: 1, next: null, results: { id: "x" } }, '"results"'],
      [{ count: Number.MAX_VALUE, next: null, results: [] }, "count"],
      [{ count: 2, next: "javascript:alert(1)", results: nodes.slice(0, 1) }, '"next"'],
    ] as const) {
      const { client: c } = client(() => ({ status: 200, body }));
      const error = (await rejection(collect(c.listNodes()))) as ApiError;
      expect(error.kind).toBe("invalid_response");
      expect(error.message).toContain(token);
    }
  });
});
