/** Filter rules: Object.prototype names are unknown filters or refused values; bad combinations refused. */
import fc from "fast-check";
import { InvalidInputError, NodeServiceClient } from "../../src/api";
import {
  NODE_FILTERS,
  NODE_FILTER_NAMES,
  PROTOCOLS,
  PUBLIC_NETWORK_NAMES,
  SHARED_PROTOCOLS,
  allowsSharedNodes,
  checkFilterValue,
  checkId,
  isId,
  isOwnKey,
  ownValue,
  protocolOfPublicNetwork,
  regionsOf,
  show,
  validateNodeFilters,
  validateNodePlacement,
} from "../../src/model";

const PROTOTYPE_NAMES = [
  "constructor",
  "toString",
  "valueOf",
  "__proto__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
];

/** An object with `key` as an own property, even `__proto__` (as JSON.parse would make it). */
function withKey(key: string, value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
  return object;
}

describe("Object.prototype names", () => {
  it.each(PROTOTYPE_NAMES)("%s as a filter key is an unknown filter, not a crash", (name) => {
    const problems = validateNodeFilters(withKey(name, "x"));
    expect(problems).toEqual([
      {
        field: name,
        value: '"x"',
        allowed: expect.stringMatching(/^unknown filter; expected one of project, /),
      },
    ]);
  });

  it("JSON-parsed filters with __proto__ and constructor keys", () => {
    const problems = validateNodeFilters(
      JSON.parse('{"__proto__": {"a": 1}, "constructor": 1, "protocol": "ethereum"}'),
    );
    expect(problems.map((p) => p.field).sort()).toEqual(["__proto__", "constructor"]);
  });

  it.each([
    ["protocol", "constructor"],
    ["protocol", "__proto__"],
    ["provider", "__proto__"],
    ["provider", "toString"],
    ["region", "valueOf"],
    ["publicNetwork", "hasOwnProperty"],
    ["type", "constructor"],
    ["orderBy", "toString"],
    ["network", "constructor"],
  ])("%s: %p as a value is refused cleanly", (key, value) => {
    const problems = validateNodeFilters({ [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe(key);
    expect(problems[0].allowed).toMatch(/^expected /);
  });

  it.each([
    [{ provider: "__proto__", region: "eu3" }, "provider"],
    [{ provider: "aws", region: "constructor" }, "region"],
    [{ protocol: "ethereum", publicNetwork: "__proto__" }, "publicNetwork"],
    [{ type: "shared", protocol: "constructor" }, "protocol"],
  ])("prototype names as values among other filters: %p refuses only %s", (filters, field) => {
    expect(validateNodeFilters(filters).map((p) => p.field)).toEqual([field]);
  });

  it("table helpers look up own properties only", () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(isOwnKey(NODE_FILTERS, name)).toBe(false);
      expect(ownValue(NODE_FILTERS, name)).toBeUndefined();
      expect(regionsOf(name)).toBeUndefined();
      expect(protocolOfPublicNetwork(name)).toBeUndefined();
      expect(allowsSharedNodes(name)).toBe(false);
      expect(isId(name as never, "ND-1-2")).toBe(false);
      expect(checkFilterValue(name as never, "x")).toMatchObject({
        field: name,
        allowed: expect.stringMatching(/^unknown filter/),
      });
    }
    expect(() => checkId("constructor" as never, "id", "ND-1")).toThrow(RangeError);
    expect(regionsOf("aws")).toEqual(["ap-southeast-1", "us-west-2", "us-east-1"]);
    expect(protocolOfPublicNetwork("near-testnet")).toBe("near");
  });

  it("validateNodePlacement refuses prototype names as values", () => {
    const placement = { protocol: "ethereum", type: "dedicated", provider: "aws", region: "us-east-1" };
    for (const name of PROTOTYPE_NAMES) {
      for (const field of ["protocol", "type", "provider", "region", "publicNetwork"]) {
        const problems = validateNodePlacement({ ...placement, [field]: name });
        expect(problems.map((p) => p.field)).toEqual([field]);
      }
    }
  });
});

describe("shared nodes exist only for some protocols", () => {
  const noShared = PROTOCOLS.filter((p) => !(SHARED_PROTOCOLS as readonly string[]).includes(p));

  it("the spec's list: near, arbitrum, aurora, gnosis, cronos, starknet, harmony, fuse have none", () => {
    expect([...noShared].sort()).toEqual(
      ["arbitrum", "aurora", "cronos", "fuse", "gnosis", "harmony", "near", "starknet"].sort(),
    );
  });

  it.each(noShared)("shared + %s is refused, dedicated is fine", (protocol) => {
    expect(validateNodeFilters({ type: "shared", protocol }, "filters.").map((p) => p.field)).toEqual([
      "filters.type",
    ]);
    expect(validateNodeFilters({ type: "dedicated", protocol })).toEqual([]);
  });

  it.each(SHARED_PROTOCOLS)("shared + %s is fine", (protocol) => {
    expect(validateNodeFilters({ type: "shared", protocol })).toEqual([]);
  });

  it("the protocol implied by a public network counts too", () => {
    expect(validateNodeFilters({ type: "shared", publicNetwork: "near-mainnet" })).toEqual([
      {
        field: "type",
        value: '"shared"',
        allowed: expect.stringMatching(/near-mainnet is a near network, which has dedicated nodes only/),
      },
    ]);
    expect(validateNodeFilters({ type: "shared", publicNetwork: "ethereum-mainnet" })).toEqual([]);
  });
});

describe("properties", () => {
  const weirdKeys = fc.oneof(
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.constantFrom(...NODE_FILTER_NAMES),
    fc.string({ maxLength: 12 }),
  );
  const filterValues = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.constantFrom(...PROTOCOLS, ...PUBLIC_NETWORK_NAMES, "shared", "dedicated", "aws", "eu3", "uksouth"),
    fc.constant(undefined),
  );
  const filterObjects = fc.array(fc.tuple(weirdKeys, filterValues), { maxLength: 8 }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [k, v] of entries) {
      Object.defineProperty(object, k, { value: v, enumerable: true, configurable: true, writable: true });
    }
    return object;
  });

  it("validateNodeFilters never throws, and every problem names a given key", () => {
    fc.assert(
      fc.property(filterObjects, (filters) => {
        const problems = validateNodeFilters(filters);
        const keys = Object.keys(filters);
        for (const p of problems) {
          expect(keys).toContain(p.field);
          expect(typeof p.value).toBe("string");
          expect(typeof p.allowed).toBe("string");
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a key that is not a filter always gives a problem for that key", () => {
    fc.assert(
      fc.property(filterObjects, weirdKeys, fc.jsonValue(), (filters, key, value) => {
        fc.pre(!isOwnKey(NODE_FILTERS, key) && value !== undefined);
        Object.defineProperty(filters, key, { value, enumerable: true, configurable: true, writable: true });
        expect(validateNodeFilters(filters).map((p) => p.field)).toContain(key);
      }),
    );
  });

  it("an invalid value always gives a problem; only valid filters give none", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NODE_FILTER_NAMES), filterValues, (name, value) => {
        fc.pre(value !== undefined);
        const problems = validateNodeFilters({ [name]: value });
        const valueOk = checkFilterValue(name, value) === undefined;
        expect(problems.length === 0).toBe(valueOk);
        if (!valueOk) expect(problems[0].field).toBe(name);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepted filter objects hold only known keys with valid values and allowed combinations", () => {
    fc.assert(
      fc.property(filterObjects, (filters) => {
        if (validateNodeFilters(filters).length > 0) return;
        const given = Object.entries(filters).filter(([, v]) => v !== undefined);
        for (const [k, v] of given) {
          expect(isOwnKey(NODE_FILTERS, k)).toBe(true);
          expect(checkFilterValue(k as never, v)).toBeUndefined();
        }
        const f = Object.fromEntries(given) as Record<string, string | undefined>;
        const protocol = f.protocol ?? protocolOfPublicNetwork(f.publicNetwork);
        if (f.type === "shared" && protocol !== undefined) expect(allowsSharedNodes(protocol)).toBe(true);
        if (f.provider && f.region) expect(regionsOf(f.provider)).toContain(f.region);
      }),
      { numRuns: 1000 },
    );
  });

  it("non-object filters are a problem, not a crash", () => {
    for (const filters of [null, 42, "protocol=ethereum", [], [["protocol", "ethereum"]]]) {
      expect(validateNodeFilters(filters as never)).toEqual([
        expect.objectContaining({ field: "filters", allowed: "expected an object of filters" }),
      ]);
    }
  });

  it("show renders any value without throwing", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true }),
        (value) => {
          expect(typeof show(value)).toBe("string");
        },
      ),
    );
    expect(show(NaN)).toBe("NaN");
    expect(show(Infinity)).toBe("Infinity");
  });
});

describe("through the client", () => {
  const client = new NodeServiceClient({
    apiUrl: "https://api.example.com",
    apiKey: "model-test-key-0123456789",
  });

  it.each(PROTOTYPE_NAMES)("listNodes({ %s: ... }) throws an InvalidInputError naming the key", (name) => {
    let error: unknown;
    try {
      client.listNodes(withKey(name, "x") as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(Object.keys((error as InvalidInputError).fields ?? {})).toEqual([name]);
  });
});
