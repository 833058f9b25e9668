import fc from "fast-check";
import { createRedactor, previewBody, REDACTED, redact } from "../../src/api/redact";

/** A fixed seed keeps runs reproducible; set FC_SEED to explore others. */
const RUNS = { seed: Number(process.env.FC_SEED ?? 20240611), numRuns: 300 };

const ALPHABET = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/="];

/** Generated keys; one that is part of `[REDACTED]` itself could not disappear from any output. */
const key = fc
  .string({ unit: fc.constantFrom(...ALPHABET), minLength: 8, maxLength: 64 })
  .filter((k) => !REDACTED.includes(k));

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
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 12 }).map((parts) => parts.join("")),
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
    fc.assert(
      fc.property(key, noise, noise, fc.option(fc.nat({ max: 300 })), (k, before, after, max) => {
        const out = redact(`${before}${embed(k)}${after}`, [k], max ?? undefined);
        expect(out).not.toContain(k);
        expect(out).not.toContain(encodeURIComponent(k));
      }),
      RUNS,
    );
  });

  test("a known key never shows in a body preview, wherever it sits", () => {
    fc.assert(
      fc.property(key, fc.nat({ max: 400 }), noise, (k, offset, after) => {
        const body = `${"x ".repeat(offset)}${k}${after}`;
        const preview = previewBody(body, createRedactor([k]), 200);
        expect(preview).not.toContain(k);
        expect(preview.length).toBeLessThanOrEqual(201);
      }),
      RUNS,
    );
  });

  test("never throws; output length stays linear in the input (any string, any unicode)", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 3000 }),
      fc.string({ unit: "binary", maxLength: 3000 }),
      fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 600 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(text, fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }), (t, secrets) => {
        const out = redact(t, secrets);
        expect(typeof out).toBe("string");
        expect(out.length).toBeLessThanOrEqual(10 * t.length + REDACTED.length);
      }),
      RUNS,
    );
  });

  test("is idempotent: redacting redacted text changes nothing", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 500 }),
      fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 100 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(text, (t) => {
        const once = redact(t);
        expect(redact(once)).toBe(once);
      }),
      RUNS,
    );
  });
});
