/**
 * The API key at construction: keys an HTTP header cannot carry are refused, and no construction
 * error ever echoes the key, wherever it was put (in the URL, or swapped with the URL).
 */
import util from "node:util";
import fc from "fast-check";
import { InvalidInputError, NodeServiceClient, NodeServiceClientOptions } from "../../src/api";

const KEY = "3c6e0b8a9c15224a8228b9a98ca1531d";
const URL_OK = "https://api.example.com";

function thrown(options: unknown): unknown {
  try {
    new NodeServiceClient(options as NodeServiceClientOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Every way an error ends up in a log. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [
    e.message,
    String(e.stack),
    String(e),
    JSON.stringify(e),
    util.inspect(e),
    util.inspect(e, { depth: 10, showHidden: true }),
  ];
}

function expectNoEcho(error: unknown, secret: string): void {
  for (const text of renderings(error)) expect(text).not.toContain(secret);
}

describe("keys an HTTP header cannot carry are refused at construction", () => {
  it.each([
    ["a tab", `${KEY.slice(0, 11)}\t${KEY.slice(11)}`, "a control character at position 12"],
    ["a CR", `${KEY.slice(0, 4)}\r${KEY.slice(4)}`, "a line break at position 5"],
    ["a LF", `${KEY.slice(0, 4)}\n${KEY.slice(4)}`, "a line break at position 5"],
    ["a NUL", `${KEY}\u0000x`, "a control character at position 33"],
    ["a DEL", `${KEY.slice(0, 2)}\u007f${KEY.slice(2)}`, "a control character at position 3"],
    ["a no-break space", `${KEY.slice(0, 8)}\u00a0${KEY.slice(8)}`, "a non-ASCII character at position 9"],
    ["an emoji", `🔑${KEY}`, "a non-ASCII character at position 1"],
    ["an accented letter", `${KEY}é`, "a non-ASCII character at position 33"],
    ["a zero-width space", `${KEY.slice(0, 3)}\u200b${KEY.slice(3)}`, "a non-ASCII character at position 4"],
    ["a lone surrogate", `${KEY}\ud800`, "a non-ASCII character at position 33"],
  ])("%s", (_name, apiKey, where) => {
    const error = thrown({ apiUrl: URL_OK, apiKey });
    expect(error).toBeInstanceOf(InvalidInputError);
    const e = error as InvalidInputError;
    expect(e.code).toBe("invalid_api_key");
    expect(Object.keys(e.fields ?? {})).toEqual(["apiKey"]);
    expect(e.message).toContain(
      `the API key contains a character that cannot be sent in an HTTP header (${where}`,
    );
    expectNoEcho(e, apiKey);
    expectNoEcho(e, KEY.slice(0, 8));
  });

  it("leading and trailing whitespace (line breaks included) is still trimmed", () => {
    for (const apiKey of [` ${KEY} `, `${KEY}\n`, `\t${KEY}\r\n`]) {
      expect(() => new NodeServiceClient({ apiUrl: URL_OK, apiKey })).not.toThrow();
    }
  });

  it("a key of printable ASCII, inner spaces included, is accepted", () => {
    for (const apiKey of [KEY, "a-b_c.d~e+f/g=", "!\"#$%&'()*,;<>?@[\\]^`{|}", "two words"]) {
      expect(() => new NodeServiceClient({ apiUrl: URL_OK, apiKey })).not.toThrow();
    }
  });

  it("an empty or non-string key: missing_api_key, naming apiKey, without echoing the value", () => {
    for (const apiKey of ["", "   ", undefined, null, 12345678901234, ["k"]]) {
      const e = thrown({ apiUrl: URL_OK, apiKey }) as InvalidInputError;
      expect(e).toBeInstanceOf(InvalidInputError);
      expect(e.code).toBe("missing_api_key");
      expect(Object.keys(e.fields ?? {})).toEqual(["apiKey"]);
      expect(e.message).not.toContain("12345678901234");
    }
  });

  it("property: any string as key builds a client or throws an InvalidInputError that never shows it", () => {
    const keys = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
      fc
        .tuple(
          fc.string({ unit: "grapheme-ascii", minLength: 2, maxLength: 20 }),
          fc.constantFrom("\t", "\r", "\n", "\u0000", "\u007f", "\u00a0", "😀", "\u2028", "\ud800"),
          fc.string({ unit: "grapheme-ascii", minLength: 2, maxLength: 20 }),
        )
        .map(([a, bad, b]) => a + bad + b),
    );
    // Text that is in the same error built with a neutral key is the error's own wording
    // ("Error", "length" of util.inspect), not an echo of the key. The neutral errors are built
    // at the same place, so that their stacks hold the same frames (`propertyExecution` holds
    // `rope`).
    const neutral = (badOption: boolean) => ({
      apiUrl: URL_OK,
      apiKey: "neutral",
      timeoutMs: badOption ? -1 : 0,
    });
    fc.assert(
      fc.property(keys, fc.boolean(), (apiKey, badOption) => {
        const options = { apiUrl: URL_OK, apiKey, ...(badOption ? { timeoutMs: -1 } : {}) };
        const [error, ...neutralErrors] = [options, neutral(true), neutral(false)].map(thrown);
        const ownWording = neutralErrors.map((e) => renderings(e).join("\n"));
        if (error === undefined) return;
        expect(error).toBeInstanceOf(InvalidInputError);
        for (const secret of [apiKey, apiKey.trim()]) {
          if (secret.length >= 4 && !ownWording.some((text) => text.includes(secret))) {
            expectNoEcho(error, secret);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("a key put in the wrong place is never echoed by construction errors", () => {
  const placements: Array<[string, string]> = [
    ["in the path", `https://api.example.com/${KEY}`],
    ["in the path, with a query", `https://api.example.com/${KEY}?page=1`],
    ["as a fragment", `https://api.example.com/#${KEY}`],
    ["as a query value", `https://api.example.com/?k=${KEY}`],
    ["as a query name", `https://api.example.com/?${KEY}`],
    ["as user-info", `https://${KEY}@api.example.com`],
    ["as user:password", `https://user:${KEY}@api.example.com`],
    ["over plain http", `http://api.example.com/${KEY}`],
    ["as an ftp path", `ftp://api.example.com/${KEY}`],
  ];

  it.each(placements)("%s, the key also given as apiKey", (_name, apiUrl) => {
    const error = thrown({ apiUrl, apiKey: KEY });
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).code).toBe("invalid_api_url");
    expect(Object.keys((error as InvalidInputError).fields ?? {})).toEqual(["apiUrl"]);
    expectNoEcho(error, KEY);
  });

  it.each(placements)("%s, with another apiKey and a wrong option", (_name, apiUrl) => {
    const error = thrown({ apiUrl, apiKey: "another-key-value", timeoutMs: -1 });
    expect(error).toBeInstanceOf(InvalidInputError);
    expectNoEcho(error, KEY);
  });

  it.each(placements)("%s, with no apiKey at all", (_name, apiUrl) => {
    const error = thrown({ apiUrl });
    expect(error).toBeInstanceOf(InvalidInputError);
    expectNoEcho(error, KEY);
  });

  it("a URL containing the given key is refused, saying so", () => {
    const e = thrown({ apiUrl: `https://api.example.com/${KEY}`, apiKey: KEY }) as InvalidInputError;
    expect(e.message).toMatch(/the API URL contains the API key; give the key only as apiKey/);
  });

  it("the query and the fragment are named, not shown; origin and path are shown", () => {
    const e = thrown({ apiUrl: `https://api.example.com/base?k=${KEY}#${KEY}`, apiKey: "x-other" });
    expect((e as Error).message).toContain(
      'the API URL "https://api.example.com/base" has a query (?…) and a fragment (#…)',
    );
  });

  it("URL and key swapped: neither is echoed, and the hint says they look swapped", () => {
    const error = thrown({ apiUrl: KEY, apiKey: "https://api.example.com" });
    expect(error).toBeInstanceOf(InvalidInputError);
    const e = error as InvalidInputError;
    expect(e.code).toBe("invalid_api_url");
    expect(e.message).toContain(`is not a valid absolute URL (${KEY.length} characters`);
    expect(e.message).toContain("were apiUrl and apiKey swapped?");
    expectNoEcho(e, KEY);
    expectNoEcho(e, KEY.slice(0, 12));
  });

  it("a key-like apiUrl is hidden even when it parses as a URL of another scheme", () => {
    for (const apiUrl of [`sk:${KEY}`, `key.${KEY}:x`, `${KEY}:${KEY}`]) {
      const error = thrown({ apiUrl, apiKey: "whatever-key" });
      expect(error).toBeInstanceOf(InvalidInputError);
      expectNoEcho(error, KEY);
    }
  });

  it("the URL is checked before the key: a wrong URL with a wrong key echoes neither", () => {
    const badKey = `${KEY}\n${KEY}`;
    const error = thrown({ apiUrl: `https://${KEY}@api.example.com`, apiKey: badKey });
    expectNoEcho(error, KEY);
  });
});
