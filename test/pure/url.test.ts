import { apiUrl, checkApiUrl, isLoopbackHost, parseApiUrl } from "../../src/api/url";

describe("API URL rules", () => {
  it.each(["https://api.example.com", "https://10.0.0.1:8443/", "https://localhost"])("accepts %s", (url) => {
    expect(checkApiUrl(url)).toBeUndefined();
  });

  it.each([
    "http://localhost:8080",
    "http://127.0.0.1:1234",
    "http://127.45.6.7/",
    "http://[::1]:9000",
    "http://LOCALHOST",
  ])("allows plain http on loopback: %s", (url) => {
    expect(checkApiUrl(url)).toBeUndefined();
  });

  it.each(["http://api.example.com", "http://10.0.0.1", "http://128.0.0.1", "http://localhost.evil.com"])(
    "refuses plain http elsewhere, saying why and how to fix: %s",
    (url) => {
      const reason = checkApiUrl(url);
      expect(reason).toMatch(/plain http:\/\/ on a non-loopback host/);
      expect(reason).toMatch(/unencrypted/);
      expect(reason).toMatch(/use https:\/\//);
    },
  );

  it.each(["not a url", "api.example.com", "https://", ""])("refuses a malformed URL: %p", (url) => {
    expect(checkApiUrl(url)).toMatch(/not a valid absolute URL|missing/);
  });

  it("refuses other schemes, credentials, queries and fragments", () => {
    expect(checkApiUrl("ftp://api.example.com")).toMatch(/ftp:/);
    const reason = checkApiUrl("https://user:secretpass@api.example.com");
    expect(reason).toMatch(/credentials/);
    expect(reason).not.toContain("secretpass");
    expect(checkApiUrl("https://api.example.com/?x=1")).toMatch(/query/);
  });

  it("loopback detection", () => {
    expect(["localhost", "127.0.0.1", "127.255.255.254", "[::1]"].every(isLoopbackHost)).toBe(true);
    expect(["128.0.0.1", "127.0.0", "example.com", "::1x"].some(isLoopbackHost)).toBe(false);
  });

  it("keeps a path prefix and drops a trailing slash", () => {
    const base = parseApiUrl("https://api.example.com/platform/");
    expect(base).toEqual({
      origin: "https://api.example.com",
      basePath: "/platform",
      href: "https://api.example.com/platform",
    });
    expect(apiUrl(base, "/v1/nodes/", "page=2")).toBe("https://api.example.com/platform/v1/nodes/?page=2");
    expect(apiUrl(parseApiUrl("https://api.example.com/"), "/v1/nodes/")).toBe(
      "https://api.example.com/v1/nodes/",
    );
  });

  it("accepts a base URL given with its /v1 suffix", () => {
    expect(apiUrl(parseApiUrl("https://api.example.com/v1"), "/v1/nodes/")).toBe(
      "https://api.example.com/v1/nodes/",
    );
    expect(apiUrl(parseApiUrl("https://api.example.com/platform/v1/"), "/v1/nodes/")).toBe(
      "https://api.example.com/platform/v1/nodes/",
    );
  });

  describe("messages never echo what may be a credential", () => {
    const SECRET = "3c6e0b8a9c15224a8228b9a98ca1531d";

    it.each([
      [
        `https://api.example.com/?k=${SECRET}`,
        'the API URL "https://api.example.com/" has a query (?…), not shown',
      ],
      [
        `https://api.example.com/p#${SECRET}`,
        'the API URL "https://api.example.com/p" has a fragment (#…), not shown',
      ],
      [`https://api.example.com/p?${SECRET}#${SECRET}`, "has a query (?…) and a fragment (#…)"],
      [`https://${SECRET}@api.example.com/p`, 'the API URL "https://api.example.com/p" contains credentials'],
      [
        `https://u:${SECRET}@api.example.com/p?x=1`,
        'the API URL "https://api.example.com/p" contains credentials',
      ],
      [`http://api.example.com/?k=${SECRET}`, "use https://api.example.com ("],
      [`ftp://api.example.com/${SECRET}`, "the API URL uses the scheme ftp:"],
    ])("%s", (url, expected) => {
      const reason = checkApiUrl(url);
      expect(reason).toContain(expected);
      expect(reason).not.toContain(SECRET);
    });

    it("input that is not a URL is not shown at all, only its length", () => {
      for (const text of [SECRET, `sk_live_${SECRET}`, `  ${SECRET} `, `x:${SECRET}`, `mailto:${SECRET}`]) {
        const reason = checkApiUrl(text) ?? "";
        expect(reason).toContain(`is not a valid absolute URL (${text.trim().length} characters, not shown`);
        expect(reason).not.toContain(SECRET);
        expect(reason).not.toContain(SECRET.slice(0, 6));
      }
      expect(checkApiUrl("x")).toContain("(1 character, not shown");
    });

    it("a key-like path segment of a refused URL is redacted", () => {
      const reason = checkApiUrl(`https://api.example.com/${SECRET}?page=1`);
      expect(reason).toContain('"https://api.example.com/[REDACTED]"');
      expect(reason).not.toContain(SECRET);
    });

    it("a non-string URL is named by its type", () => {
      expect(checkApiUrl(42)).toMatch(/must be a string, got a number/);
      expect(checkApiUrl(["https://api.example.com"])).toMatch(/must be a string, got an array/);
      expect(checkApiUrl(undefined)).toMatch(/missing/);
    });
  });
});

describe("host names and the plain-http hint", () => {
  it("a host name DNS cannot carry is refused, without quoting it", () => {
    const long = `https://${"a".repeat(300)}.com`;
    expect(() => parseApiUrl(long)).toThrow(/not a valid DNS name \(304 characters/);
    expect(() => parseApiUrl(`https://${"b".repeat(64)}.example.com`)).toThrow(/each label at most 63/);
    expect(parseApiUrl(`https://${"c".repeat(63)}.example.com`).origin).toContain("ccc");
  });

  it("the plain-http hint never shows a key in a host label", () => {
    const key = "3c6e0b8a9c15224a8228b9a98ca1531d";
    let message = "";
    try {
      parseApiUrl(`http://${key}.example.com/`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/plain http:\/\//);
    expect(message).not.toContain(key);
  });
});
