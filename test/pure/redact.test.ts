import { createRedactor, previewBody, redact } from "../../src/api/redact";

const KEY = "sk_live_abcdef0123456789";

describe("redact", () => {
  it("replaces the given secrets", () => {
    expect(redact(`key ${KEY} and again ${KEY}`, [KEY])).toBe("key [REDACTED] and again [REDACTED]");
  });

  it("replaces a URL-encoded secret", () => {
    const key = "a/b+c=d secret";
    expect(redact(`?k=${encodeURIComponent(key)}`, [key])).not.toContain(encodeURIComponent(key));
  });

  it("replaces any Bearer token", () => {
    expect(redact("Authorization: Bearer abc.def-ghi")).toBe("Authorization: Bearer [REDACTED]");
  });

  it("replaces other Authorization header values", () => {
    expect(redact("authorization=Basic dXNlcjpwYXNz")).toBe("authorization=[REDACTED]");
  });

  it("replaces URL user-info", () => {
    expect(redact("see https://user:pa55@host.example/x")).toBe("see https://[REDACTED]@host.example/x");
  });

  it("replaces key-looking URL path segments (endpoints embedding a key)", () => {
    expect(redact("https://nd-123-456-789.p2pify.com/3c6e0b8a9c15224a8228b9a98ca1531d/rpc")).toBe(
      "https://nd-123-456-789.p2pify.com/[REDACTED]/rpc",
    );
  });

  it("keeps resource ids and ordinary paths", () => {
    const text = "https://api.example.com/v1/networks/NW-123-456-789012-3/ and /v1/nodes/";
    expect(redact(text)).toBe(text);
  });

  it("replaces secret query parameters", () => {
    expect(redact("https://h/x?api_key=abc123&page=2&token=zz")).toBe(
      "https://h/x?api_key=[REDACTED]&page=2&token=[REDACTED]",
    );
  });

  it("replaces credential fields of JSON text", () => {
    expect(redact('{"auth_password":"p@ss","auth_key":"k","name":"n"}')).toBe(
      '{"auth_password":"[REDACTED]","auth_key":"[REDACTED]","name":"n"}',
    );
  });

  it("accepts an extra list of strings; empty ones are ignored", () => {
    expect(redact("alpha beta gamma", ["beta", "", undefined])).toBe("alpha [REDACTED] gamma");
  });

  it("works on a copy", () => {
    const original = `token ${KEY}`;
    redact(original, [KEY]);
    expect(original).toBe(`token ${KEY}`);
  });

  it("createRedactor remembers its secrets", () => {
    const r = createRedactor([KEY]);
    expect(r(`x${KEY}y`)).toBe("x[REDACTED]y");
  });

  it("previewBody redacts before cutting, so half a key never shows", () => {
    const body = `${"x".repeat(190)}${KEY}${"y".repeat(100)}`;
    const preview = previewBody(body, createRedactor([KEY]), 200);
    expect(preview).not.toContain(KEY.slice(0, 10));
    expect(preview.length).toBeLessThanOrEqual(201);
  });
});

describe("redact: credential fields of JSON text", () => {
  const NAMES = [
    "auth_password",
    "auth_key",
    "auth_username",
    "password",
    "passwd",
    "api_key",
    "apiKey",
    "token",
    "secret",
    "access_token",
    "accessToken",
    "refresh_token",
    "client_secret",
    "private_key",
  ];

  it.each(NAMES)("hides a complete %s value", (name) => {
    expect(redact(`{"${name}":"v-abc123","name":"n"}`)).toBe(`{"${name}":"[REDACTED]","name":"n"}`);
  });

  it.each(NAMES)("hides a %s value cut short by the end of the text", (name) => {
    expect(redact(`{"details":{"${name}":"pw-abc123`)).toBe(`{"details":{"${name}":"[REDACTED]`);
    expect(redact(`{"details":{"${name}": "pw-ab\\"c`)).toBe(`{"details":{"${name}": "[REDACTED]`);
  });

  it("handles escaped quotes and backslashes inside values", () => {
    expect(redact('{"auth_password":"a\\"b\\\\","x":"y"}')).toBe('{"auth_password":"[REDACTED]","x":"y"}');
    expect(redact('{"auth_password":"a\\\\"}')).toBe('{"auth_password":"[REDACTED]"}');
  });

  it("allows whitespace around the colon, and single quotes", () => {
    expect(redact('{ "auth_key" :\n\t"k-123" }')).toBe('{ "auth_key" :\n\t"[REDACTED]" }');
    expect(redact("{'password': 'hunter2', 'user': 'u'}")).toBe("{'password': '[REDACTED]', 'user': 'u'}");
  });

  it("hides fields nested one level deep, and JSON escaped inside a JSON string", () => {
    const body = JSON.stringify({
      details: { auth_username: "user-name", auth_password: "pw", region: "r" },
    });
    expect(redact(body)).toBe(
      '{"details":{"auth_username":"[REDACTED]","auth_password":"[REDACTED]","region":"r"}}',
    );
    const nested = JSON.stringify({ message: JSON.stringify({ auth_key: "k-123", id: "ND-123-456-789" }) });
    const out = redact(nested);
    expect(out).not.toContain("k-123");
    expect(out).toContain("ND-123-456-789");
  });

  it("keeps other fields, validation messages (lists) and resource ids", () => {
    const text = '{"id":"ND-123-456-789","network":"NW-100-000-1","auth_key":["This field is required."]}';
    expect(redact(text)).toBe(text);
  });
});

describe("redact: headers and URLs", () => {
  it("replaces Token/Digest/Basic schemes and quoted header values", () => {
    expect(redact("Authorization: Token abc123, next")).toBe("Authorization: [REDACTED], next");
    expect(redact(`{"Authorization": "Basic dXNlcjpwYXNz"}`)).toBe(`{"Authorization": "[REDACTED]"}`);
    expect(redact("authorization:Bearer abc")).toBe("authorization:Bearer [REDACTED]");
    expect(redact("x_authorization: kept")).toBe("x_authorization: kept");
  });

  it("keeps the part after the last @ of user info, and nested URLs' user info", () => {
    expect(redact("https://u:p@ss@host.example/x")).toBe("https://[REDACTED]@host.example/x");
    expect(redact("https://proxy.example/https://u:pw@target.example/")).toBe(
      "https://proxy.example/https://[REDACTED]@target.example/",
    );
  });

  it("replaces key-like host labels, query names and values, fragments; keeps ordinary hosts", () => {
    expect(redact("https://3c6e0b8a9c15224a8228b9a98ca1531d.nodes.example.com/")).toBe(
      "https://[REDACTED].nodes.example.com/",
    );
    expect(redact("wss://ws-nd-123-456-789.p2pify.com/ws and https://beacon-nd-123-456-789.p2pify.com")).toBe(
      "wss://ws-nd-123-456-789.p2pify.com/ws and https://beacon-nd-123-456-789.p2pify.com",
    );
    expect(redact("https://h.example/x?3c6e0b8a9c15224a8228b9a98ca1531d&page=2")).toBe(
      "https://h.example/x?[REDACTED]&page=2",
    );
    expect(redact("https://h.example/x#access_token=abc&state=1")).toBe(
      "https://h.example/x#access_token=[REDACTED]&state=1",
    );
    expect(redact("see (https://h.example/3c6e0b8a9c15224a8228b9a98ca1531d).")).toBe(
      "see (https://h.example/[REDACTED]",
    );
  });

  it("replaces key-like segments of a path on its own (no scheme), keeps ordinary paths", () => {
    expect(redact("/3c6e0b8a9c15224a8228b9a98ca1531d")).toBe("/[REDACTED]");
    expect(redact("GET /v1/3c6e0b8a9c15224a8228b9a98ca1531d/rpc -> 401")).toBe(
      "GET /v1/[REDACTED]/rpc -> 401",
    );
    expect(redact('{"path":"/v1/nodes/ND-123-456-789/"}')).toBe('{"path":"/v1/nodes/ND-123-456-789/"}');
    expect(redact("//u:p@h.example/x")).toBe("//[REDACTED]@h.example/x");
    expect(redact("a/3c6e0b8a9c15224a8228b9a98ca1531d 1/2")).toBe("a/3c6e0b8a9c15224a8228b9a98ca1531d 1/2");
  });

  it("replaces a secret query parameter after ; even when other delimiters precede it", () => {
    expect(redact("?x=1;key=2")).toBe("?x=1;key=[REDACTED]");
    expect(redact("GET /v1/nodes?a;key=zz")).toBe("GET /v1/nodes?a;key=[REDACTED]");
  });

  it("replaces overlapping occurrences of known secrets whole", () => {
    expect(redact("aaaaaaaaaaa", ["aaaaaaaa"])).toBe("[REDACTED]");
    expect(redact("abcabcabc-x", ["abcabc", "cab"])).toBe("[REDACTED]-x");
  });
});

describe("previewBody: redacts the whole body, then cuts", () => {
  const MAX = 200;

  it("never shows any 4 characters of a key placed at any offset around the cut", () => {
    const redactor = createRedactor([KEY]);
    for (let offset = MAX - KEY.length - 2; offset <= MAX + 2; offset++) {
      for (const filler of ["x", " ", "\n\t "]) {
        const body = `${filler.repeat(offset)}${KEY}${"y".repeat(300)}`;
        const preview = previewBody(body, redactor, MAX);
        expect(preview.length).toBeLessThanOrEqual(MAX + 1);
        for (let k = 0; k + 4 <= KEY.length; k++) expect(preview).not.toContain(KEY.slice(k, k + 4));
      }
    }
  });

  it("never shows part of a key placed behind whitespace that collapses (any offset around 4096)", () => {
    const redactor = createRedactor([KEY]);
    for (let offset = 4000; offset <= 4200; offset++) {
      const body = `${" ".repeat(offset)}${KEY}`;
      const preview = previewBody(body, redactor, MAX);
      for (let k = 0; k + 4 <= KEY.length; k++) expect(preview).not.toContain(KEY.slice(k, k + 4));
    }
  });

  it("shows a truncated credential field as redacted", () => {
    const preview = previewBody('{"details":{"auth_password":"pw-abc123', (t) => redact(t), MAX);
    expect(preview).toBe('{"details":{"auth_password":"[REDACTED]');
  });

  it("never splits a surrogate pair at the cut", () => {
    const preview = previewBody(`${"x".repeat(MAX - 1)}😀😀`, (t) => t, MAX);
    expect(preview).toBe(`${"x".repeat(MAX - 1)}…`);
  });
});

describe("credential assignments in free text", () => {
  it.each([
    ["down; auth_key=c1f0c9f07613e88bbe2fec95b2ebbc7b", "down; auth_key=[REDACTED]"],
    ["x api_key=abc123 y", "x api_key=[REDACTED] y"],
    ["password:hunter2hunter2, next", "password:[REDACTED], next"],
    ["apiKey: got a value; expected a string", "apiKey: got a value; expected a string"],
    ["auth_password = pass-word-pass", "auth_password = [REDACTED]"],
    ["?api_key=abc", "?api_key=[REDACTED]"],
    ["code: validation_error", "code: validation_error"],
    ["see https://a.example/c", "see https://a.example/c"],
  ])("%s", (input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});
