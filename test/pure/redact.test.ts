/** Redaction: redact, previewBody, sanitizeServerText, LearnedSecrets, and maskEndpoint, by table and by property. */
import fc from "fast-check";
import {
  createRedactor,
  guardInputValue,
  LearnedSecrets,
  MAX_LEARNED_SECRETS,
  MAX_REDACTED_CHARS,
  maskUrlCredentials,
  previewBody,
  REDACTED,
  redact,
  sanitizeServerText,
} from "../../src/api/redact";
import { maskEndpoint } from "../../src/provider/node-views";
import { HEX_KEY as HEX, holds, joined, runs } from "../helpers/arbitraries";

const KEY = "sk_live_abcdef0123456789";
const B64 = "ab12/Cd34+Ef56gh78==";
const H = "https://h.example.com";
const RUNS = runs(20240611, 300);
/** Characters of generated keys: letters, digits, URL-safe punctuation and base64's `+ / =`. */
const ALPHABET = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/="];

/** Every 4-character piece of `secret`: none may show. */
function expectNoPiece(text: string, secret: string): void {
  for (let k = 0; k + 4 <= secret.length; k++) expect(text).not.toContain(secret.slice(k, k + 4));
}

describe("redact", () => {
  it.each([
    ["Bearer tokens", "Authorization: Bearer abc.def-ghi", "Authorization: Bearer [REDACTED]"],
    ["Basic values", "authorization=Basic dXNlcjpwYXNz", "authorization=[REDACTED]"],
    ["Token values", "Authorization: Token abc123, next", "Authorization: [REDACTED], next"],
    ["quoted headers", `{"Authorization": "Basic dXNlcjpwYXNz"}`, `{"Authorization": "[REDACTED]"}`],
    ["Bearer once", "authorization:Bearer abc", "authorization:Bearer [REDACTED]"],
    ["user info", "see https://user:pa55@host.example/x", "see https://[REDACTED]@host.example/x"],
    ["user info to its last @", "https://u:p@ss@host.example/x", "https://[REDACTED]@host.example/x"],
    [
      "user info of nested URLs",
      "https://proxy.example/https://u:pw@target.example/",
      "https://proxy.example/https://[REDACTED]@target.example/",
    ],
    [
      "key-like path segments",
      `https://nd-123-456-789.p2pify.com/${HEX}/rpc`,
      "https://nd-123-456-789.p2pify.com/[REDACTED]/rpc",
    ],
    ["key-like host labels", `https://${HEX}.nodes.example.com/`, "https://[REDACTED].nodes.example.com/"],
    ["key-like query names", `https://h.example/x?${HEX}&page=2`, "https://h.example/x?[REDACTED]&page=2"],
    [
      "secret fragment parameters",
      "https://h.example/x#access_token=abc&state=1",
      "https://h.example/x#access_token=[REDACTED]&state=1",
    ],
    ["a URL up to a space", `see (https://h.example/${HEX}).`, "see (https://h.example/[REDACTED]"],
    ["a path on its own", `/${HEX}`, "/[REDACTED]"],
    ["a path in a log line", `GET /v1/${HEX}/rpc -> 401`, "GET /v1/[REDACTED]/rpc -> 401"],
    ["user info without scheme", "//u:p@h.example/x", "//[REDACTED]@h.example/x"],
    [
      "secret query parameters",
      "https://h/x?api_key=abc123&page=2&token=zz",
      "https://h/x?api_key=[REDACTED]&page=2&token=[REDACTED]",
    ],
    ["a parameter after ;", "?x=1;key=2", "?x=1;key=[REDACTED]"],
    ["a parameter after ?a;", "GET /v1/nodes?a;key=zz", "GET /v1/nodes?a;key=[REDACTED]"],
    ["assignments", "down; auth_key=c1f0c9f07613e88bbe2fec95b2ebbc7b", "down; auth_key=[REDACTED]"],
    ["assignments in a sentence", "x api_key=abc123 y", "x api_key=[REDACTED] y"],
    ["name:value", "password:hunter2hunter2, next", "password:[REDACTED], next"],
    ["spaced assignments", "auth_password = pass-word-pass", "auth_password = [REDACTED]"],
    ["a bare query", "?api_key=abc", "?api_key=[REDACTED]"],
    [
      "escaped quotes in values",
      '{"auth_password":"a\\"b\\\\","x":"y"}',
      '{"auth_password":"[REDACTED]","x":"y"}',
    ],
    ["spaces around the colon", '{ "auth_key" :\n\t"k-123" }', '{ "auth_key" :\n\t"[REDACTED]" }'],
    ["single quotes", "{'password': 'hunter2', 'user': 'u'}", "{'password': '[REDACTED]', 'user': 'u'}"],
    [
      "nested fields",
      JSON.stringify({ details: { auth_username: "user-name", auth_password: "pw", region: "r" } }),
      '{"details":{"auth_username":"[REDACTED]","auth_password":"[REDACTED]","region":"r"}}',
    ],
  ])("hides %s", (_, input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    [
      "resource ids and ordinary paths",
      "https://api.example.com/v1/networks/NW-123-456-789012-3/ and /v1/nodes/",
    ],
    ["node hosts", "wss://ws-nd-123-456-789.p2pify.com/ws and https://beacon-nd-123-456-789.p2pify.com"],
    [
      "validation lists",
      '{"id":"ND-123-456-789","network":"NW-100-000-1","auth_key":["This field is required."]}',
    ],
    ["a path with ids", '{"path":"/v1/nodes/ND-123-456-789/"}'],
    ["a path inside a word", `a/${HEX} 1/2`],
    ["other headers", "x_authorization: kept"],
    ["field lists", "apiKey: got a value; expected a string"],
    ["codes", "code: validation_error"],
    ["plain URLs", "see https://a.example/c"],
  ])("keeps %s", (_, text) => {
    expect(redact(text)).toBe(text);
  });

  const NAMES = ["auth_password", "auth_key", "auth_username", "password", "passwd", "api_key", "apiKey"];
  NAMES.push(
    "token",
    "secret",
    "access_token",
    "accessToken",
    "refresh_token",
    "client_secret",
    "private_key",
  );
  it.each(NAMES)("hides a %s value, complete or cut short by the end of the text", (name) => {
    expect(redact(`{"${name}":"v-abc123","name":"n"}`)).toBe(`{"${name}":"[REDACTED]","name":"n"}`);
    expect(redact(`{"details":{"${name}":"pw-abc123`)).toBe(`{"details":{"${name}":"[REDACTED]`);
    expect(redact(`{"details":{"${name}": "pw-ab\\"c`)).toBe(`{"details":{"${name}": "[REDACTED]`);
  });

  it("hides JSON escaped inside JSON strings, three levels deep, keeping ids", () => {
    let body = JSON.stringify({ auth_key: 'k-1 "23', id: "ND-123-456-789" });
    for (let depth = 0; depth < 3; depth++) {
      body = JSON.stringify({ message: body });
      expect(redact(body)).not.toContain("k-1");
      expect(redact(body)).toContain("ND-123-456-789");
    }
  });

  it("replaces overlapping known secrets whole; empty ones are ignored", () => {
    expect(redact("alpha beta gamma", ["beta", "", undefined])).toBe("alpha [REDACTED] gamma");
    expect(redact("aaaaaaaaaaa", ["aaaaaaaa"])).toBe("[REDACTED]");
    expect(redact("abcabcabc-x", ["abcabc", "cab"])).toBe("[REDACTED]-x");
    expect(createRedactor([KEY])(`x${KEY}y`)).toBe("x[REDACTED]y");
  });
});

describe("redact cuts its input first", () => {
  it("keeps at most about `max` characters, marking the cut", () => {
    expect(redact("word ".repeat(100), [], 12)).toBe("word word word…");
    expect(redact(`${"x".repeat(5000)} y`, [], 12)).toBe(`${"x".repeat(12)}…`);
    const huge = redact(`${";key".repeat(1 << 18)} https://a@b/`);
    expect(huge.length).toBeLessThanOrEqual(MAX_REDACTED_CHARS + 2_049);
    expect(huge.endsWith("…")).toBe(true);
  });

  it("never shows part of a secret straddling the cut, known, learned or key-like", () => {
    const spaced = "pass word 1234";
    const learned = new LearnedSecrets();
    learned.learn(["learned-pass-word"]);
    const redactor = createRedactor([KEY, spaced], learned);
    for (const secret of [KEY, spaced, "learned-pass-word", HEX]) {
      for (let at = 100 - secret.length - 2; at <= 102; at++) {
        const text = `${"x ".repeat(at / 2)}${at % 2 ? " " : ""}/${secret} and more`;
        expectNoPiece(redactor(text, 100), secret);
        // In a token longer than the cut's margin (a key-like word there is not a URL's: it shows).
        if (secret !== HEX)
          expectNoPiece(redactor(`${"a".repeat(at)}/${secret}/${"b".repeat(3000)}`, 100), secret);
      }
    }
  });
});

describe("previewBody", () => {
  const MAX = 200;
  const redactor = createRedactor([KEY]);

  it("never shows part of a key at any offset around the cut, behind any whitespace", () => {
    for (let offset = MAX - KEY.length - 2; offset <= MAX + 2; offset++) {
      for (const filler of ["x", " ", "\n\t "]) {
        const preview = previewBody(`${filler.repeat(offset)}${KEY}${"y".repeat(300)}`, redactor, MAX);
        expect(preview.length).toBeLessThanOrEqual(MAX + 1);
        expectNoPiece(preview, KEY);
      }
    }
    for (let offset = 4000; offset <= 4200; offset += 7) {
      expectNoPiece(previewBody(`${" ".repeat(offset)}${KEY}`, redactor, MAX), KEY);
    }
  });

  it("is one line; shows a truncated credential field as redacted; never splits a surrogate pair", () => {
    expect(previewBody("a\n\n  b\t", redactor)).toBe("a b");
    const field = previewBody('{"details":{"auth_password":"pw-abc123', (t) => redact(t), MAX);
    expect(field).toBe('{"details":{"auth_password":"[REDACTED]');
    expect(previewBody(`${"x".repeat(MAX - 1)}😀😀`, (t) => t, MAX)).toBe(`${"x".repeat(MAX - 1)}…`);
  });
});

describe("maskUrlCredentials", () => {
  it("replaces a URL over 4,096 characters whole", () => {
    expect(maskUrlCredentials(`https://h.example/${"a".repeat(4096)}`, { replacement: "***" })).toBe("***");
    expect(maskUrlCredentials(`https://h.example/${"a".repeat(4000)}`, { replacement: "***" })).toContain(
      "aaa",
    );
  });
});

describe("guardInputValue", () => {
  it.each(["ND-1-2", '"NW-123-456-7"', "42", '"0x00aBcD"', "0x" + "f".repeat(64)])("quotes %s", (value) => {
    expect(guardInputValue(value)).toBe(value);
  });

  it.each([KEY, `"${HEX}"`, "x".repeat(43), "Bearer abc", "password=hunter2"])("hides %s", (value) => {
    const guarded = guardInputValue(value);
    expect(guarded).toContain(`${value.length} characters`);
    expect(guarded).not.toContain(value);
  });
});

describe("sanitizeServerText", () => {
  it.each([
    [
      "ordinary text",
      "Invalid input: name may not be blank. «ok» 😀",
      "Invalid input: name may not be blank. «ok» 😀",
    ],
    ["terminal sequences", "a\u001b[2Jb", "a\\u001b[2Jb"],
    ["OSC titles", "\u001b]0;title\u0007x", "\\u001b]0;title\\u0007x"],
    ["C1 controls", "\u009b31m", "\\u009b31m"],
    ["DEL and NUL", "a\u007fb\u0000c", "a\\u007fb\\u0000c"],
    ["a bare CR", "real error\rfake: all good", "real error\\rfake: all good"],
    ["line breaks and tabs", "line1\nline2\r\n\tx", "line1\\nline2\\r\\n\\tx"],
    ["separators", "a\u2028b\u2029c", "a\\u2028b\\u2029c"],
    ["bidi controls", "abc\u202edef\u2066", "abc\\u202edef\\u2066"],
    ["lone surrogates", "x\ud800y\udc00", "x\\ud800y\\udc00"],
  ])("handles %s", (_, input, expected) => {
    expect(sanitizeServerText(input, 1000)).toBe(expected);
  });

  it.each([
    ["abcdefghij", 4, "abcd… (6 more characters)"],
    ["abcde", 4, "abcd… (1 more character)"],
    ["abcd", 4, "abcd"],
    ["abc", 0, "… (3 more characters)"],
    ["ab\u001bc", 4, "ab… (2 more characters)"],
    ["a😀😀", 2, "a… (2 more characters)"],
    ["a😀😀", 3, "a😀… (1 more character)"],
    ["😀".repeat(1000), 101, `${"😀".repeat(50)}… (950 more characters)`],
    ["ab", NaN, "… (2 more characters)"],
    ["ab", -3, "… (2 more characters)"],
  ])(
    "caps text (case %#), never splitting an escape or a pair, counting code points",
    (text, max, expected) => {
      expect(sanitizeServerText(text, max)).toBe(expected);
    },
  );

  it("escapes every control character of a long text, capped or not", () => {
    const big = "\u001b[2J\r".repeat(1 << 12);
    expect(sanitizeServerText(big, 200)).toMatch(/^\\u001b\[2J\\r.*… \(\d+ more characters\)$/);
    expect(sanitizeServerText(big, Infinity)).toBe("\\u001b[2J\\r".repeat(1 << 12));
  });
});

describe("LearnedSecrets", () => {
  const book = new LearnedSecrets();
  book.learn(["pass-word-pass-word", "user-name", "https://nd-123-456-789.p2pify.com", "short", undefined]);
  book.learn(["wss://ws-nd-123-456-789.p2pify.com/"]);

  // A learned user name, password and endpoint in an error's message, fields or HTML: test/client/hostile.test.ts.
  it.each([
    ["use wss://ws-nd-123-456-789.p2pify.com with pass-word-pass-word.", "use [REDACTED] with [REDACTED]."],
    ["short words stay: short, user, name", "short words stay: short, user, name"],
  ])("%s", (input, expected) => {
    expect(book.redact(input)).toBe(expected);
  });

  it("is bounded, forgetting the oldest first", () => {
    const b = new LearnedSecrets();
    const total = MAX_LEARNED_SECRETS * 1.25 + 1; // the learn that trims
    for (let i = 0; i < total; i++) b.learn([`secret-value-${i}`]);
    const oldestKept = total - MAX_LEARNED_SECRETS;
    expect(b.redact(`secret-value-${oldestKept - 1}`)).toBe(`secret-value-${oldestKept - 1}`);
    expect(b.redact(`secret-value-${oldestKept} secret-value-${total - 1}`)).toBe("[REDACTED] [REDACTED]");
  });
});

/** Generated keys of `alphabet`. */
const key = (alphabet: string[]) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 8, maxLength: 64 });
/** Generated keys; one that is part of `[REDACTED]` itself could not disappear from any output. */
const redactKey = key(ALPHABET).filter((k) => !REDACTED.includes(k));

/** Text around a key: anything, including quotes, backslashes, URLs and credential words. */
const FRAGMENTS = [
  ...` \n"'\\:=&?;/@#%a1`,
  "key",
  "token",
  "Bearer ",
  "authorization: ",
  "https://",
  "http://u:p@",
  '"auth_key":"',
  "[REDACTED]",
  "ND-123-456-789",
];
const noise = fc.oneof(
  fc.string({ maxLength: 40 }),
  joined(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }),
);

type Embed = (k: string) => string;

const EMBEDS: Record<string, Embed> = {
  message: (k) => `Invalid token ${k}.`,
  "glued to words": (k) => `key${k}value`,
  "bearer header": (k) => `Authorization: Bearer ${k}`,
  "json body": (k) =>
    JSON.stringify({ error: { code: "x", message: `bad key ${k}` }, details: { auth_key: k } }),
  "json escaped in json": (k) => JSON.stringify({ message: JSON.stringify({ note: k }) }),
  "url path": (k) => `https://nd-123-456-789.p2pify.com/${k}/rpc`,
  "url path, encoded": (k) => `https://nd-123-456-789.p2pify.com/${encodeURIComponent(k)}`,
  "url user info": (k) => `https://user:${encodeURIComponent(k)}@h.example/`,
  "url query": (k) => `https://h.example/x?key=${encodeURIComponent(k)}&page=2`,
  "url query, raw": (k) => `https://h.example/x?page=2&k=${k}`,
  "url host": (k) => `https://${k}.nodes.example.com/`,
  "url fragment": (k) => `https://h.example/x#${k}`,
  "twice, in a log line": (k) => `GET /v1/${k} -> 401 (${k})`,
};

describe("redact properties", () => {
  test.each(Object.keys(EMBEDS))("a known key never shows, wherever the text is cut: %s", (name) => {
    const embed = EMBEDS[name];
    holds(RUNS, redactKey, noise, noise, fc.option(fc.nat({ max: 300 })), (k, before, after, max) => {
      const out = redact(`${before}${embed(k)}${after}`, [k], max ?? undefined);
      expect(out).not.toContain(k);
      expect(out).not.toContain(encodeURIComponent(k));
    });
  });

  test("a known key never shows in a body preview, wherever it sits", () => {
    holds(RUNS, redactKey, fc.nat({ max: 400 }), noise, (k, offset, after) => {
      const preview = previewBody(`${"x ".repeat(offset)}${k}${after}`, createRedactor([k]), 200);
      expect(preview).not.toContain(k);
      expect(preview.length).toBeLessThanOrEqual(201);
    });
  });

  test("never throws; output length stays linear in the input (any string, any unicode); redacting redacted text changes nothing", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 3000 }),
      fc.string({ unit: "binary", maxLength: 3000 }),
      joined(fc.constantFrom(...FRAGMENTS), { maxLength: 600 }),
    );
    holds(RUNS, text, fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }), (t, secrets) => {
      const out = redact(t, secrets);
      expect(typeof out).toBe("string");
      expect(out.length).toBeLessThanOrEqual(10 * t.length + REDACTED.length);
      const once = redact(t);
      expect(redact(once)).toBe(once);
    });
  });
});

describe("maskEndpoint", () => {
  // A key in the path or user info, the rest kept: test/pure/node-view.test.ts; URLs kept whole: below.
  const cases: [string, string, string[]?][] = [
    // known credentials anywhere: path, query, part of a segment, query name, host label, fragment
    [
      "wss://ws.example.com/v1/short1?token=tok3n&x=1",
      "wss://ws.example.com/v1/***?token=***&x=1",
      ["short1", "tok3n"],
    ],
    ["https://ws.example.com/prefix-secretvalue-x", "https://ws.example.com/prefix-***-x", ["secretvalue"]],
    [`${H}/v1/${B64}/rpc`, `${H}/v1/***/rpc`, [B64]],
    [`${H}/v1/${encodeURIComponent(B64)}/rpc`, `${H}/v1/***/rpc`, [B64]],
    ["https://MyKey1234.nodes.example.com/", "https://***.nodes.example.com/", ["mykey1234"]],
    // a credential still readable (odd encoding): the whole URL goes
    [`${H}/%61bcdefgh/x`, "***", ["abcdefgh"]],
    // key-like text with no credentials passed (in each place: "maskEndpoint properties")
    [`${H}/x#/keys/${HEX}`, `${H}/x#/keys/***`],
    // an unknown base64 key split by `/`: a part that reads like a word (`ab12`) may stay, never the whole
    [`${H}/v1/${B64}/rpc`, `${H}/v1/ab12/***/rpc`],
    [`${H}/v1/Zm9vYmFy0/YmF6cXV4+abc=/rpc`, `${H}/v1/***/***/rpc`],
    // a secret-named parameter however short; user info of any form, also nested in the query
    [`${H}/?apikey=abc`, `${H}/?apikey=***`],
    [`${H}/?x=1&access_token=a&sig=b`, `${H}/?x=1&access_token=***&sig=***`],
    ["https://user@h.example.com/", "https://***@h.example.com/"],
    [`${H}/?next=https://u:p@other.example/`, `${H}/?next=https://***@other.example/`],
    // readable parts kept around a masked key
    [
      `https://beacon-nd-123-456-789.p2pify.com/${HEX}/eth/v1/beacon/genesis`,
      "https://beacon-nd-123-456-789.p2pify.com/***/eth/v1/beacon/genesis",
    ],
    // anything that is not a URL is masked whole
    ["", "***"],
    ["not a url 3c6e0b8a9c15", "***"],
    [HEX, "***"],
    [undefined as unknown as string, "***"],
  ];
  test.each(cases.map(([url, masked, credentials = []]) => [url, masked, credentials] as const))(
    "%s → %s",
    (url, masked, credentials) => {
      expect(maskEndpoint(url, credentials)).toBe(masked);
    },
  );

  test.each([
    "https://nd-123-456-789.p2pify.com",
    "https://nd-123-456-789.p2pify.com/",
    "wss://ws-nd-123-456-789.p2pify.com",
    "https://beacon-nd-123-456-789.p2pify.com/eth/v1/beacon/genesis",
    "https://eth-mainnet.example.com/v1/rpc",
    "wss://eth-mainnet.example.com/ws",
    "https://api.example.com/v1/networks/NW-100-000-1/nodes/ND-123-456-789",
    "https://avax.example.com/ext/bc/C/rpc?page=2&limit=100",
    "http://localhost:8545/",
    "http://127.0.0.1:8545/rpc",
  ])("%s stays readable", (url) => {
    expect(maskEndpoint(url)).toBe(url);
  });
});

/** A host label cannot hold `.` (it would be two labels) or `/` (it would end the host). */
const HOST_ALPHABET = ALPHABET.filter((c) => c !== "." && c !== "/");

/**
 * The test's own reading of "key-like": 16+ characters with letters and digits, unless made only of
 * ordinary words (`ws-nd-123-456-789`, `eth-mainnet-2`), which stay readable in hosts and paths.
 */
function keyLike(k: string): boolean {
  if (k.length < 16 || !/[A-Za-z]/.test(k) || !/[0-9]/.test(k)) return false;
  return k
    .split(/[^A-Za-z0-9]/)
    .some((w) => w !== "" && !/^(?:[A-Za-z]+|[0-9]+|[A-Za-z]{1,12}[0-9]{1,3})$/.test(w));
}

type Place = (k: string) => string;

const HOST = "nd-123-456-789.p2pify.com";
const PLACES: Record<string, Place> = {
  "user info": (k) => `https://user:${encodeURIComponent(k)}@${HOST}/`,
  "user name": (k) => `https://${encodeURIComponent(k)}@${HOST}/rpc`,
  "path segment": (k) => `https://${HOST}/${k}`,
  "middle path segment": (k) => `https://${HOST}/v1/${k}/rpc`,
  "<key>.json": (k) => `https://${HOST}/${k}.json`,
  "query name": (k) => `https://${HOST}/rpc?${k}`,
  "query name with value": (k) => `https://${HOST}/rpc?${k}=1&page=2`,
  "query value": (k) => `https://${HOST}/rpc?page=2&cursor=${k}`,
  "secret-named query value": (k) => `https://${HOST}/rpc?apikey=${k}`,
  "encoded query value": (k) => `https://${HOST}/rpc?x=${encodeURIComponent(k)}`,
  fragment: (k) => `https://${HOST}/rpc#${k}`,
  "fragment parameter": (k) => `https://${HOST}/rpc#access=${k}&x=1`,
};

function expectHidden(out: string, k: string): void {
  expect(out).not.toContain(k);
  expect(out).not.toContain(encodeURIComponent(k));
  expect(out.toLowerCase()).not.toContain(k.toLowerCase());
}

describe("maskEndpoint properties", () => {
  const HOST_LABEL = "https://***.nodes.example.com/rpc";
  /** Each place: how a key is put there, the characters it may hold, how a passed key shows masked. */
  describe.each([
    ...Object.entries(PLACES).map(([place, build]) => [place, build, ALPHABET, /\*\*\*/] as const),
    [
      "host label",
      (k: string) => `https://${k}.nodes.example.com/rpc`,
      HOST_ALPHABET,
      /^https:\/\/\*\*\*/,
    ] as const,
  ])("key in the %s", (place, build, alphabet, masked) => {
    test("a key passed as a credential never shows, in any case", () => {
      holds(RUNS, key(alphabet), (k) => {
        const out = maskEndpoint(build(k), [k]);
        expectHidden(out, k);
        expect(out).toMatch(masked);
      });
    });

    test("a key-like key never shows, even when not passed", () => {
      holds(RUNS, key(alphabet).filter(keyLike), (k) => {
        const out = maskEndpoint(build(k));
        expectHidden(out, k);
        // A key-like host label goes whole, the rest of the host kept.
        if (place === "host label") expect(out).toBe(HOST_LABEL);
      });
    });
  });

  test("the scheme, ordinary host and ordinary path words stay readable around a masked key", () => {
    holds(RUNS, key(ALPHABET), (k) => {
      const out = maskEndpoint(`https://${HOST}/v1/${k}/rpc`, [k]);
      expect(out.startsWith(`https://${HOST}/`)).toBe(true);
      expect(out.endsWith("/rpc")).toBe(true);
    });
  });

  test("never throws, on any string and any credentials", () => {
    holds(
      RUNS,
      fc.string({ maxLength: 300 }),
      fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
      (u, c) => {
        expect(typeof maskEndpoint(u, c)).toBe("string");
        expect(typeof maskEndpoint(`https://h.example/${u}`, c)).toBe("string");
      },
    );
  });
});
