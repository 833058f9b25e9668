import { createRedactor, previewBody, redact } from "../../src/api";

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
