import {
  ResponseShapeError,
  extractAmountSent,
  integerDigits,
  rawTopLevelValue,
  toFaucetResult,
  toNetwork,
  toNode,
} from "../../src/api/mapping";
import { wireNetwork, wireNode } from "../helpers/client";

/** The test's own reading of the mapping: each snake_case key of `wire` in camelCase, values as they are. */
const camel = (wire: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(wire).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c) => c.toUpperCase()), v]),
  );

describe("toNode", () => {
  it("maps snake_case to camelCase: every field of the helper's wire node", () => {
    const wire = wireNode();
    expect(Object.keys(wire.details!)).toHaveLength(10);
    expect(toNode(wire)).toEqual({
      ...camel(wire),
      details: camel(wire.details!),
      creator: camel(wire.creator!),
    });
  });

  it("drops unknown extra fields; keeps enum values it does not know and unknown configuration fields", () => {
    const configuration = { archive: false, client: "geth" };
    const extra = { surprise: 1, status: "hibernating", configuration };
    const node = toNode(wireNode({ ...extra, details: { mode: "full", extra_thing: "x" } as never }));
    expect(node).toEqual({
      ...toNode(wireNode()),
      status: "hibernating",
      configuration,
      details: { mode: "full" },
    });
  });

  it("missing optional fields are absent keys", () => {
    const empty = toNode(wireNode({ details: {} })).details;
    const bare = toNode({ ...wireNode(), details: undefined, creator: undefined, configuration: undefined });
    expect([empty, bare.details, bare.configuration, "creator" in bare]).toStrictEqual([{}, {}, {}, false]);
  });

  it("names a missing required field; rejects a non-object", () => {
    const wire: Record<string, unknown> = { ...wireNode() };
    delete wire.id;
    delete wire.created_at;
    expect(() => toNode(wire)).toThrow(ResponseShapeError);
    expect(() => toNode(wire)).toThrow(/node\.id: .*node\.created_at/);
    expect(() => toNode("ND-1")).toThrow(/expected an object, got a string/);
  });
});

describe("toNetwork", () => {
  it("maps a network with its nodes; publicNetwork comes from configuration.network", () => {
    const network = toNetwork(wireNetwork({ extra: true }));
    expect(network.publicNetwork).toBe("ethereum-mainnet");
    expect(network.configuration).toEqual({ network: "ethereum-mainnet" });
    expect(network.createdAt).toBe("2020-06-15T07:38:00.747Z");
    expect(network.nodes).toHaveLength(1);
    expect(network.nodes[0].details.httpsEndpoint).toBe("https://nd-123-456-789.p2pify.com");
    expect(network.creator?.firstName).toBe("John");
    expect(network).not.toHaveProperty("extra");
  });

  it("missing configuration.network gives an undefined publicNetwork; missing nodes gives []", () => {
    const network = toNetwork(wireNetwork({ configuration: {}, nodes: undefined }));
    expect(["publicNetwork" in network, network.nodes]).toEqual([false, []]);
  });

  it("names a broken nested node", () => {
    expect(() => toNetwork(wireNetwork({ nodes: [wireNode(), { id: 5 }] }))).toThrow(
      /network\.nodes\[1\]\.id/,
    );
  });
});

describe("amountSent precision", () => {
  it.each([
    ['{"amountSent": 5e17}', "500000000000000000"],
    ['{"amountSent": 1.23456789012345678901E+20}', "123456789012345678901"],
    ['{"amountSent": 5.0e17}', "500000000000000000"],
    ['{"amountSent": "500000000000000000"}', "500000000000000000"],
    ['{"amountSent": "5e17"}', "500000000000000000"],
    ['{"note": "\\"amountSent\\": 1", "inner": {"amountSent": 2}, "amountSent": 3, "transaction": "t"}', "3"],
  ])(
    "reads %s exactly (notation expanded, strings accepted, nested and quoted keys ignored)",
    (text, amount) => {
      expect(extractAmountSent(text)).toBe(amount);
    },
  );

  it.each([
    ['{"amountSent": 1.5}', /non-negative integer/],
    ['{"amountSent": -1}', /non-negative integer/],
    ['{"amountSent": null}', /non-negative integer/],
    ['{"transaction": "t"}', /missing/],
  ])("refuses %s", (text, reason) => {
    expect(() => extractAmountSent(text)).toThrow(reason);
  });

  it("integerDigits expands without floating point", () => {
    const inputs = ["0", "0.0", "12e0", "1200e-2", "1201e-2", "1e99999", "0x10"];
    expect(inputs.map(integerDigits)).toEqual(["0", "0", "12", "12", undefined, undefined, undefined]);
  });

  it("rawTopLevelValue returns the source text of a top-level value", () => {
    expect(rawTopLevelValue('{ "a" : [1, {"b": "}"}], "b": 99999999999999999999 }', "b")).toBe(
      "99999999999999999999",
    );
  });

  it("toFaucetResult maps the result, and names a missing transaction", () => {
    const text = '{"amountSent": 123456789012345678901, "transaction": "https://explorer/tx/0xabc", "x": 1}';
    expect(toFaucetResult(JSON.parse(text), text)).toEqual({
      amountSent: "123456789012345678901",
      transaction: "https://explorer/tx/0xabc",
    });
    expect(() => toFaucetResult({ amountSent: 1 }, '{"amountSent": 1}')).toThrow(/transaction/);
  });
});
