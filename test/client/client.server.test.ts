/** The client over real HTTP: each status mapped to its error, foreign bodies, timeouts; the key never shown. */
import util from "node:util";
import {
  ApiError,
  ConflictError,
  ForbiddenError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from "../../src/api";
import { wireNode, withScriptedServer } from "../helpers/client";

const API_KEY = "raw-server-key-Zx81Qp0Lm7Vb3Nc5";
const NODE_ID = "ND-123-456-789";
const NETWORK_ID = "NW-123-456-7";

const { server, client, fails, errors } = withScriptedServer(API_KEY);

function errorBody(code: string, message: string, extra: object = {}) {
  return { error: { code, message, ...extra } };
}

describe("each error status is mapped", () => {
  it("400 with fields → ValidationError with fields", async () => {
    const fields = { name: ["This field may not be blank."] };
    server.script({ status: 400, body: errorBody("validation_error", "Invalid input.", { fields }) });
    const e = await fails(client().updateNetwork(NETWORK_ID, { name: "x" }));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({ kind: "validation", status: 400, code: "validation_error" });
    expect(e).toMatchObject({ operation: "updateNetwork", resourceId: NETWORK_ID });
    expect(e.fields).toEqual(fields);
    for (const token of ["updateNetwork", NETWORK_ID, "400", "validation_error", "name"])
      expect(e.message).toContain(token);
    expect(server.hits).toHaveLength(1);
  });

  it("401 → UnauthorizedError; a key echoed by the server is redacted", async () => {
    server.script({ status: 401, body: errorBody("not_authenticated", `Invalid token ${API_KEY}.`) });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e).toMatchObject({ status: 401, code: "not_authenticated" });
    expect(e).toMatchObject({ operation: "getNode", resourceId: NODE_ID });
    expect(e.message).toContain("Invalid token [REDACTED].");
    expect(server.hits[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    [403, ForbiddenError],
    [409, ConflictError],
    [429, RateLimitedError],
    [500, UnavailableError],
    [502, UnavailableError],
    [503, UnavailableError],
    [504, UnavailableError],
  ] as const)("%i → %p, keeping the status after every retry", async (status, type) => {
    server.always({ status, body: errorBody("nope", "Delete all nodes of the network first.") });
    const e = await fails(client({ retry: { maxRetries: 1, baseDelayMs: 1 } }).deleteNetwork(NETWORK_ID));
    expect(e).toBeInstanceOf(type);
    expect(e).toMatchObject({ status, code: "nope" });
  });
});

describe("unexpected bodies", () => {
  it("an HTML page from a proxy: says what came back, redacted", async () => {
    const html = `<html><body><h1>502 Bad Gateway</h1><p>upstream said Authorization: Bearer ${API_KEY}</p></body></html>`;
    server.script({ status: 502, text: html, headers: { "content-type": "text/html" } });
    const e = await fails(client({ retry: false }).getNode(NODE_ID));
    expect(e).toBeInstanceOf(UnavailableError);
    expect(e).toMatchObject({ status: 502, code: "non_json_body" });
    for (const token of ["text/html", "<h1>502 Bad Gateway"]) expect(e.message).toContain(token);
  });

  it("truncated JSON: on success an invalid_response, not retried; on an error status the status's kind", async () => {
    const json = { "content-type": "application/json" };
    server.script({ status: 200, text: '{"id": "ND-123-456-789", "name": "tru', headers: json });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toMatchObject({ kind: "invalid_response", code: "invalid_json" });
    for (const token of ["application/json", '\\"name\\": \\"tru"']) expect(e.message).toContain(token);
    expect(server.hits).toHaveLength(1);
    server.script({ status: 409, text: '{"error": {"code": "confl', headers: json });
    const conflict = await fails(client().deleteNetwork(NETWORK_ID));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.message).toContain("application/json");
  });
});

describe("timeouts and connections", () => {
  it("a server that never answers: TimeoutError; a timed-out GET is retried", async () => {
    server.script({ hang: true });
    const e = await fails(client({ timeoutMs: 100, retry: false }).getNode(NODE_ID));
    expect(e.kind).toBe("timeout");
    expect(e.message).toMatch(/\b100 ms\b/);
    server.script({ hang: true }, { status: 200, body: wireNode() });
    expect((await client({ timeoutMs: 100 }).getNode(NODE_ID)).id).toBe(NODE_ID);
  });

  it("the call's deadline bounds all attempts", async () => {
    server.always({ hang: true });
    const c = client({ timeoutMs: 100, deadlineMs: 250, retry: { maxRetries: 10, baseDelayMs: 1 } });
    const e = await fails(c.getNode(NODE_ID));
    expect(e).toMatchObject({ kind: "timeout", limit: "deadlineMs" });
    expect(e.message).toMatch(/\b250 ms\b/);
    expect(server.hits.length).toBeLessThanOrEqual(3);
  });

  it("GETs reuse one connection; the faucet's POST opens its own and closes it", async () => {
    const faucet = { status: 200, body: { amountSent: "5", transaction: "0xabc" } };
    const node = { status: 200, body: wireNode() };
    server.script(node, node, faucet, node);
    const c = client();
    await c.getNode(NODE_ID);
    await c.getNode(NODE_ID);
    await c.requestTestTokens("0x52908400098527886e0f7030069857d2e4169ee7");
    await c.getNode(NODE_ID);
    const [get1, get2, post, get3] = server.hits;
    expect(get2.port).toBe(get1.port);
    expect(get3.port).toBe(get1.port);
    expect(post.port).not.toBe(get1.port);
    expect(post.headers.connection).toBe("close");
  });
});

// withScriptedServer audits the message, stack, string, JSON and inspection of each error after all.
it("the API key is absent from every error's hidden properties too; its JSON keeps the message", () => {
  expect(errors.length).toBeGreaterThan(10);
  for (const error of errors) {
    const e = error as ApiError;
    expect(util.inspect(e, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.parse(JSON.stringify(e)).message).toBe(e.message);
  }
});
