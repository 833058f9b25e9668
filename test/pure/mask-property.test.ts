import fc from "fast-check";
import { maskEndpoint } from "../../src/provider/node-views";

/** Characters of generated keys: letters, digits, URL-safe punctuation and base64's `+ / =`. */
const ALPHABET = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/="];
/** A host label cannot hold `.` (it would be two labels) or `/` (it would end the host). */
const HOST_ALPHABET = ALPHABET.filter((c) => c !== "." && c !== "/");

const key = (alphabet: string[]) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: 8, maxLength: 64 });

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

/** A fixed seed keeps runs reproducible; set FC_SEED to explore others. */
const RUNS = { seed: Number(process.env.FC_SEED ?? 20240611), numRuns: 300 };

describe("maskEndpoint properties", () => {
  describe.each(Object.keys(PLACES))("key in the %s", (place) => {
    const build = PLACES[place];

    test("a key passed as a credential never shows", () => {
      fc.assert(
        fc.property(key(ALPHABET), (k) => {
          const out = maskEndpoint(build(k), [k]);
          expectHidden(out, k);
          expect(out).toContain("***");
        }),
        RUNS,
      );
    });

    test("a key-like key never shows, even when not passed", () => {
      fc.assert(
        fc.property(key(ALPHABET).filter(keyLike), (k) => {
          expectHidden(maskEndpoint(build(k)), k);
        }),
        RUNS,
      );
    });
  });

  describe("key in a host label", () => {
    const build = (k: string) => `https://${k}.nodes.example.com/rpc`;

    test("a key passed as a credential never shows, in any case", () => {
      fc.assert(
        fc.property(key(HOST_ALPHABET), (k) => {
          const out = maskEndpoint(build(k), [k]);
          expectHidden(out, k);
          expect(out).toMatch(/^https:\/\/\*\*\*/);
        }),
        RUNS,
      );
    });

    test("a key-like key never shows, even when not passed", () => {
      fc.assert(
        fc.property(key(HOST_ALPHABET).filter(keyLike), (k) => {
          const out = maskEndpoint(build(k));
          expectHidden(out, k);
          expect(out).toBe("https://***.nodes.example.com/rpc");
        }),
        RUNS,
      );
    });
  });

  test("the scheme, ordinary host and ordinary path words stay readable around a masked key", () => {
    fc.assert(
      fc.property(key(ALPHABET), (k) => {
        const out = maskEndpoint(`https://${HOST}/v1/${k}/rpc`, [k]);
        expect(out.startsWith(`https://${HOST}/`)).toBe(true);
        expect(out.endsWith("/rpc")).toBe(true);
      }),
      RUNS,
    );
  });

  test("never throws, on any string and any credentials", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
        (u, c) => {
          expect(typeof maskEndpoint(u, c)).toBe("string");
          expect(typeof maskEndpoint(`https://h.example/${u}`, c)).toBe("string");
        },
      ),
      RUNS,
    );
  });
});
