/** The blockchain:* stack config reviewed: a mistyped key named once, a plain-text API key refused before registration. */
import * as pulumi from "@pulumi/pulumi";
import { mockedSdk, outputRejection } from "./outputs";

const KEY = "Zq8XvL2mN4pR7sT1wY5bC9dF3gH6jK0a";

const registered: string[] = [];
const { getNodesOutput, Network } = mockedSdk((args) => {
  registered.push(args.type);
  return { id: `${args.name}-id`, state: args.inputs };
});

test("a plain-text API key: a Network is refused before registering, a function fails, both naming the command; no key shown", async () => {
  pulumi.runtime.setAllConfig(
    { "blockchain:apiUrl": "https://api.example.com", "blockchain:apiKey": KEY },
    [],
  );
  for (const name of ["a", "b"]) {
    expect(() => new Network(name, { networkId: "NW-1-2" })).toThrow(
      new RegExp(`^Network "${name}": .*pulumi config set --secret blockchain:apiKey`, "s"),
    );
  }
  expect(registered).toEqual([]);
  const failed = await outputRejection(getNodesOutput({ network: "NW-1-2" }));
  expect(failed.message).toContain("blockchain:apiKey");
  expect(failed.message).not.toContain(KEY);
});

test("a mistyped key: one warning, once per process, no key shown; a mistyped argument refused, naming the one it resembles", () => {
  pulumi.runtime.setAllConfig(
    { "blockchain:apiurl": "https://api.example.com", "blockchain:apiKey": KEY, "other:apiurl": "x" },
    ["blockchain:apiKey"],
  );
  const warn = jest.spyOn(pulumi.log, "warn").mockResolvedValue();
  // Refused before registration (no provider serialized here); the review has run by then.
  const typo = { networkId: "NW-1-2", nmae: "x" } as never;
  // Each refused naming the typo and the argument it resembles.
  for (const name of ["a", "b"])
    expect(() => new Network(name, typo)).toThrow(new RegExp(`^Network "${name}": nmae: .*\`name\``));
  const lines = warn.mock.calls.map(([message]) => message);
  expect(lines).toEqual([expect.stringMatching(/^stack config blockchain:apiurl: .*`apiUrl`/)]);
  expect(lines.join("\n")).not.toContain(KEY);
  expect(lines.join("\n")).not.toContain("other:");
});

test("the SDK still has the internal that tells an encrypted key from a plain one", () => {
  // Without it no key counts as plain, and the refusal above is never given.
  const runtime = pulumi.runtime as { isConfigSecret?: (key: string) => boolean };
  pulumi.runtime.setAllConfig({ "blockchain:apiKey": KEY }, ["blockchain:apiKey"]);
  expect(runtime.isConfigSecret?.("blockchain:apiKey")).toBe(true);
  pulumi.runtime.setAllConfig({ "blockchain:apiKey": KEY }, []);
  expect(runtime.isConfigSecret?.("blockchain:apiKey")).toBe(false);
});
