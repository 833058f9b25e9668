/** Id and API URL checks over generated inputs: typed refusals only, URL-safe results, no key quoted. */
import fc from "fast-check";
import { checkId } from "../../src/model";
import { ApiUrlError, apiUrl, isSameOrigin, parseApiUrl } from "../../src/api/url";
import { holds, serviceKey } from "../helpers/arbitraries";

const KINDS = ["node", "network", "organization", "project"] as const;
const PREFIX = { node: "ND", network: "NW", organization: "RG", project: "PR" } as const;
const KEY = serviceKey(/^[A-Za-z0-9]{20,40}$/);

describe("id checks", () => {
  it("never throw, and accept only ids that are safe URL path segments", () => {
    const values = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.anything());
    holds({ seed: 11, numRuns: 2000 }, fc.constantFrom(...KINDS), values, (kind, value) => {
      const problem = checkId(kind, "id", value);
      if (problem === undefined) {
        expect(typeof value).toBe("string");
        expect(encodeURIComponent(value as string)).toBe(value);
        expect(value as string).toMatch(new RegExp(`^${PREFIX[kind]}(-[0-9]+)+$`));
      } else {
        expect(problem.field).toBe("id");
        expect(typeof problem.allowed).toBe("string");
      }
    });
  });

  it("accept every well-formed id", () => {
    const groups = fc.array(fc.integer({ min: 0, max: 999_999 }), { minLength: 1, maxLength: 4 });
    holds({ seed: 12, numRuns: 500 }, fc.constantFrom(...KINDS), groups, (kind, groups) => {
      expect(checkId(kind, "id", `${PREFIX[kind]}-${groups.join("-")}`)).toBeUndefined();
    });
  });
});

describe("API URL checks", () => {
  it("never throw anything but ApiUrlError; what they accept stays on one origin", () => {
    const values = fc.oneof(
      fc.string(),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.anything(),
    );
    holds({ seed: 13, numRuns: 2000 }, values, (value) => {
      let base;
      try {
        base = parseApiUrl(value);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiUrlError);
        return;
      }
      const url = new URL(base.href);
      expect(url.username + url.password + url.search + url.hash).toBe("");
      expect(["https:", "http:"]).toContain(url.protocol);
      expect(isSameOrigin(base, apiUrl(base, "/v1/nodes/", "page=2"))).toBe(true);
    });
  });

  it("a refusal never quotes a key placed in the user info, a query, a fragment, or swapped with the URL", () => {
    const places = fc.constantFrom(
      (k: string) => `https://${k}@api.example.com`,
      (k: string) => `https://user:${k}@api.example.com/`,
      (k: string) => `https://api.example.com/?api_key=${k}`,
      (k: string) => `https://api.example.com/#${k}`,
      (k: string) => `http://api.example.com/${k}`,
      (k: string) => k,
      (k: string) => `ftp://api.example.com/${k}`,
    );
    holds({ seed: 14, numRuns: 700 }, KEY, places, (key, place) => {
      let message = "";
      try {
        parseApiUrl(place(key));
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe("");
      expect(message).not.toContain(key);
    });
  });
});
