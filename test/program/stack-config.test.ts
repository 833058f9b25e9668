/** The blockchain:* stack config reviewed once: a mistyped key named, a plain-text API key warned about. */
import * as pulumi from "@pulumi/pulumi";
import { Network } from "../../src";

const KEY = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";

pulumi.runtime.setMocks(
  { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
  "program",
  "test",
  false,
);

test("a mistyped key and a plain-text API key: one warning each, once per process, no key shown", () => {
  pulumi.runtime.setAllConfig(
    { "blockchain:apiurl": "https://api.example.com", "blockchain:apiKey": KEY, "other:apiurl": "x" },
    [],
  );
  const warn = jest.spyOn(pulumi.log, "warn").mockResolvedValue();
  // Refused before registration (no provider serialized here); the review has run by then.
  const typo = { networkId: "NW-1-2", nmae: "x" } as never;
  expect(() => new Network("a", typo)).toThrow(/nmae/);
  expect(() => new Network("b", typo)).toThrow(/nmae/);
  const lines = warn.mock.calls.map(([message]) => message);
  expect(lines).toEqual([
    expect.stringMatching(
      /^stack config blockchain:apiurl: unknown setting; did you mean `apiUrl`\?.*\(the key is ignored\)$/,
    ),
    "stack config blockchain:apiKey is stored in plain text: store it encrypted with `pulumi config set --secret blockchain:apiKey <key>`",
  ]);
  expect(lines.join("\n")).not.toContain(KEY);
  expect(lines.join("\n")).not.toContain("other:");
});

test("the SDK still has the internal that tells an encrypted key from a plain one", () => {
  // Without it no key counts as plain, and the warning above is never given.
  const runtime = pulumi.runtime as { isConfigSecret?: (key: string) => boolean };
  pulumi.runtime.setAllConfig({ "blockchain:apiKey": KEY }, ["blockchain:apiKey"]);
  expect(runtime.isConfigSecret?.("blockchain:apiKey")).toBe(true);
  pulumi.runtime.setAllConfig({ "blockchain:apiKey": KEY }, []);
  expect(runtime.isConfigSecret?.("blockchain:apiKey")).toBe(false);
});
