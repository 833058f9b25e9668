/**
 * The API layer states facts only: how to set a value with Pulumi or the environment is said by
 * the layers that know about them (settings, resources, functions), never by `src/api/`.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { NodeServiceClient } from "../../src/api";
import { checkApiUrl } from "../../src/api/url";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("the API layer's messages", () => {
  it("never tell users to run `pulumi config` or set an environment variable", () => {
    for (const file of sources(join(__dirname, "../../src/api"))) {
      const text = readFileSync(file, "utf8");
      expect({ file, match: /pulumi config|BLOCKCHAIN_API_(KEY|URL)/.exec(text)?.[0] }).toEqual({
        file,
        match: undefined,
      });
    }
  });

  it("say what is missing", () => {
    expect(checkApiUrl("")).toMatch(/^the API URL is missing; expected e\.g\. https:\/\//);
    expect(() => new NodeServiceClient({ apiUrl: "https://api.example.com", apiKey: "" })).toThrow(
      /^NodeServiceClient: missing_api_key: the API key is empty\n/,
    );
  });
});
