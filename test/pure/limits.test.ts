/** Property names and sizes: an unknown property is named with the one it resembles; strings are bounded. */
import { NodeServiceClient } from "../../src/api";
import { checkLength, closestName, unknownProperties, validateNodeFilters } from "../../src/model";
import { recordingFetch } from "../helpers/client";

describe("unknown properties", () => {
  test("a typo names the known property it resembles; an unrelated name gets no guess", () => {
    const known = ["networkId", "name", "project", "apiUrl", "apiKey"];
    expect(closestName("nmae", known)).toBe("name");
    expect(closestName("networkid", known)).toBe("networkId");
    expect(closestName("apiKye", known)).toBe("apiKey");
    expect(closestName("bogus", known)).toBeUndefined();
    const problems = unknownProperties(
      { networkId: "NW-1-2-3", nmae: "x", bogus: 1, skipped: undefined, __provider: "p" },
      known,
    );
    expect(problems.map((p) => p.field)).toEqual(["nmae", "bogus"]);
    expect(problems[0].allowed).toMatch(/^unknown property; did you mean `name`\?/);
    expect(problems[1].allowed).toMatch(/^unknown property Known: `networkId`/);
  });

  test("an unknown filter names the filter it resembles", () => {
    const [problem] = validateNodeFilters({ regoin: "uksouth" });
    expect(problem.field).toBe("regoin");
    expect(problem.allowed).toMatch(/did you mean `region`\?/);
  });
});

describe("size bounds", () => {
  test("checkLength names the field and the bound, never the value", () => {
    expect(checkLength("name", "x".repeat(256), 255)).toEqual({
      field: "name",
      value: "a string of 256 characters",
      allowed: "expected at most 255 characters",
    });
    expect(checkLength("name", "x".repeat(255), 255)).toBeUndefined();
  });

  test("a 1 MB name filter, API URL or API key is refused before anything is sent, naming it", async () => {
    const { fetch, calls } = recordingFetch();
    const client = new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey: "k-123456", fetch });
    await expect(client.listAllNodes({ name: "n".repeat(1 << 20) }, { limit: 10 })).rejects.toThrow(
      /name: got a string of 1048576 characters; expected at most 255 characters/,
    );
    expect(
      () =>
        new NodeServiceClient({
          apiUrl: `https://api.example.com/${"p".repeat(1 << 20)}`,
          apiKey: "k-123456",
        }),
    ).toThrow(/apiUrl: .*more than the 2048 accepted/);
    expect(
      () => new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey: "k".repeat(1 << 20) }),
    ).toThrow(/apiKey: the API key is 1048576 characters long, more than the 1024 accepted/);
    expect(calls).toEqual([]);
  });
});
