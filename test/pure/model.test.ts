/** The model: ids, addresses, names, filters and placements, faucet chains, problems, the spec's tables. */
import fc from "fast-check";
import {
  ARCHIVE_PROTOCOLS,
  BEACON_PROTOCOLS,
  ID_KINDS,
  MAX_FAUCET_CHAIN_LENGTH,
  MAX_NETWORK_NAME_LENGTH,
  NODE_FILTERS,
  NODE_FILTER_NAMES,
  PROTOCOLS,
  PROVIDERS,
  PROVIDER_REGIONS,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORKS,
  PUBLIC_NETWORK_NAMES,
  REGIONS,
  SHARED_PROTOCOLS,
  allowsSharedNodes,
  checkAddress,
  checkFaucetChain,
  checkFilterValue,
  checkId,
  checkLength,
  checkNetworkName,
  checkOneOf,
  closestName,
  formatProblems,
  idPattern,
  isId,
  isOwnKey,
  ownValue,
  protocolOfPublicNetwork,
  regionsOf,
  show,
  toChecksumAddress,
  unknownProperties,
  validateNodeFilters,
  validateNodePlacement,
} from "../../src/model";
import type { IdKind } from "../../src/model";
import { holds } from "../helpers/arbitraries";

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
const PLACEMENT = { protocol: "ethereum", type: "dedicated", provider: "aws", region: "us-east-1" };

/** An object with `key` as an own property, even `__proto__` (as JSON.parse would make it). */
function withKey(key: string, value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
  return object;
}

describe("EVM addresses", () => {
  // The checksummed examples of EIP-55 itself.
  const EIP55 = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];

  it.each(EIP55)("%s is its own checksum from any case; all-lower and all-upper digits pass", (address) => {
    const upper = "0x" + address.slice(2).toUpperCase();
    for (const form of [address, address.toLowerCase(), upper]) {
      expect(toChecksumAddress(form)).toBe(address);
      expect(checkAddress("address", form)).toBeUndefined();
    }
  });

  it("a mixed-case address with a wrong checksum is refused, naming the checksummed form", () => {
    const good = EIP55[0];
    const flipped = good.slice(0, 3) + good[3].toUpperCase() + good.slice(4);
    expect(flipped).not.toBe(good);
    const problem = checkAddress("address", flipped);
    expect(problem).toMatchObject({ field: "address", value: JSON.stringify(flipped) });
    expect(problem?.allowed).toContain(good);
  });

  it.each([
    ["no 0x", "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["39 digits", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae"],
    ["41 digits", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed0"],
    ["a non-hex digit", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg"],
    ["0X prefix", "0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["surrounding space", " 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"],
    ["a number", 42],
    ["nothing", undefined],
  ])("%s is not an address", (_what, value) => {
    const problem = checkAddress("faucet.address", value);
    expect(problem).toMatchObject({ field: "faucet.address", value: show(value) });
    expect(problem?.allowed).toContain("40");
  });
});

describe("identifiers", () => {
  const kinds = Object.keys(ID_KINDS) as IdKind[];

  it("each kind's example is an id of that kind only; idPattern is anchored", () => {
    for (const kind of kinds) {
      const { example } = ID_KINDS[kind];
      expect(checkId(kind, "id", example)).toBeUndefined();
      for (const other of kinds) expect(isId(other, example)).toBe(other === kind);
      const pattern = idPattern(kind);
      expect(pattern.test(example)).toBe(true);
      expect([`x${example}`, `${example}x`].some((v) => pattern.test(v))).toBe(false);
    }
  });

  it.each([
    ["ND-1", true],
    ["ND-1-2-3-4-5-6", true],
    ["ND-123456789012", true],
    ["ND-1-2-3-4-5-6-7", false],
    ["ND-1234567890123", false],
    ...["ND", "ND-", "ND--1", "ND-1-", "nd-1", "ND-1/", "ND-1 ", "ND-1?x", "ND-a", " ND-1"].map((v) => [
      v,
      false,
    ]),
  ])("isId(node, %p) is %p: the prefix, then one to six groups of one to twelve digits", (value, ok) => {
    expect(isId("node", value as string)).toBe(ok);
  });

  it("a refusal names the field, the value, the prefix and an example", () => {
    const problem = checkId("network", "networkId", "ND-100-000-001");
    expect(problem).toMatchObject({ field: "networkId", value: '"ND-100-000-001"' });
    expect(problem?.allowed).toContain('"NW-"');
    expect(problem?.allowed).toContain(ID_KINDS.network.example);
  });

  it("a kind that does not exist is a programming error", () => {
    expect(() => idPattern("constructor" as IdKind)).toThrow(RangeError);
    expect(() => checkId("toString" as IdKind, "id", "ND-1")).toThrow(RangeError);
  });
});

describe("names, lengths and unknown properties", () => {
  it("a name is a non-empty string of at most MAX_NETWORK_NAME_LENGTH characters", () => {
    expect(checkNetworkName("name", "mainnet")).toBeUndefined();
    expect(checkNetworkName("name", "x".repeat(MAX_NETWORK_NAME_LENGTH))).toBeUndefined();
    expect(checkNetworkName("name", "x".repeat(MAX_NETWORK_NAME_LENGTH + 1))?.allowed).toContain(
      String(MAX_NETWORK_NAME_LENGTH),
    );
    for (const value of ["", "   ", "\t\n", 5, null, undefined])
      expect(checkNetworkName("name", value)).toMatchObject({ field: "name", value: show(value) });
  });

  it("checkLength names the field and the bound, never the value", () => {
    const problem = checkLength("name", "x".repeat(256), 255);
    expect(problem).toMatchObject({ field: "name", value: expect.stringContaining("256") });
    expect(problem?.value).not.toContain("xxx");
    expect(problem?.allowed).toContain("255");
    expect(checkLength("name", "x".repeat(255), 255)).toBeUndefined();
  });

  it("a typo names the known property or filter it resembles; an unrelated name gets no guess", () => {
    const known = ["networkId", "name", "project", "apiUrl", "apiKey"];
    expect(["nmae", "networkid", "apiKye", "bogus"].map((n) => closestName(n, known))).toEqual([
      "name",
      "networkId",
      "apiKey",
      undefined,
    ]);
    const problems = unknownProperties(
      { networkId: "NW-1-2-3", nmae: "x", bogus: 1, skipped: undefined, __provider: "p" },
      known,
    );
    expect(problems.map((p) => p.field)).toEqual(["nmae", "bogus"]);
    expect(problems[0].allowed).toContain("`name`");
    expect(problems[1].allowed).not.toContain("did you mean");
    const [filter] = validateNodeFilters({ regoin: "uksouth" });
    expect(filter.field).toBe("regoin");
    expect(filter.allowed).toContain("`region`?");
  });
});

describe("faucet chain names", () => {
  const longest = "a".repeat(MAX_FAUCET_CHAIN_LENGTH);
  it.each(["goerli", "sepolia", "hoodi", "bnb-testnet", "scroll-sepolia-testnet", "a", "a1", longest])(
    "%s is allowed",
    (chain) => expect(checkFaucetChain("chain", chain)).toBeUndefined(),
  );

  it.each([
    ["", '""'],
    ["Sepolia", '"Sepolia"'],
    ["1chain", '"1chain"'],
    ["-sepolia", '"-sepolia"'],
    ["sepolia/x", '"sepolia/x"'],
    ["..", '".."'],
    ["sepolia testnet", '"sepolia testnet"'],
    ["bnb_testnet", '"bnb_testnet"'],
    ["a%2Fb", '"a%2Fb"'],
    ["a".repeat(MAX_FAUCET_CHAIN_LENGTH + 1), show("a".repeat(MAX_FAUCET_CHAIN_LENGTH + 1))],
    [5, "5"],
    [null, "null"],
  ])("%p is refused, naming the field and the value as given", (chain, shown) => {
    const problem = checkFaucetChain("chain", chain);
    expect(problem).toMatchObject({ field: "chain", value: shown });
    expect(problem?.allowed).toContain(String(MAX_FAUCET_CHAIN_LENGTH));
    expect(formatProblems([problem!])).toMatch(/^chain: /);
  });
});

describe("Object.prototype names", () => {
  const VALUED = ["protocol", "provider", "region", "publicNetwork", "type", "orderBy", "network"];
  it.each<[Record<string, string>, string]>([
    ...VALUED.flatMap((field) =>
      PROTOTYPE_NAMES.map((name): [Record<string, string>, string] => [{ [field]: name }, field]),
    ),
    [{ provider: "__proto__", region: "eu3" }, "provider"],
    [{ provider: "aws", region: "constructor" }, "region"],
    [{ protocol: "ethereum", publicNetwork: "__proto__" }, "publicNetwork"],
    [{ type: "shared", protocol: "constructor" }, "protocol"],
  ])("a prototype name as a value: %p refuses only %s", (filters, field) => {
    const problems = validateNodeFilters(filters);
    expect(problems.map((p) => p.field)).toEqual([field]);
    expect(problems[0].value).toBe(show(filters[field]));
  });

  it("table helpers look up own properties only; placements refuse prototype names as values", () => {
    for (const name of PROTOTYPE_NAMES) {
      expect(isOwnKey(NODE_FILTERS, name)).toBe(false);
      expect(ownValue(NODE_FILTERS, name)).toBeUndefined();
      expect(regionsOf(name)).toBeUndefined();
      expect(protocolOfPublicNetwork(name)).toBeUndefined();
      expect(allowsSharedNodes(name)).toBe(false);
      expect(isId(name as never, "ND-1-2")).toBe(false);
      expect(checkFilterValue(name as never, "x")).toMatchObject({ field: name, value: '"x"' });
      for (const field of ["protocol", "type", "provider", "region", "publicNetwork"])
        expect(validateNodePlacement({ ...PLACEMENT, [field]: name }).map((p) => p.field)).toEqual([field]);
    }
    expect(regionsOf("aws")).toEqual(["ap-southeast-1", "us-west-2", "us-east-1"]);
    expect(protocolOfPublicNetwork("near-testnet")).toBe("near");
  });
});

describe("combinations: filters and placements refuse the same ones alike", () => {
  it.each([
    ["a region of another provider", { provider: "aws", region: "uksouth" }, { region: "uksouth" }, "region"],
    [
      "a public network of another protocol",
      { protocol: "ethereum", publicNetwork: "near-mainnet" },
      { publicNetwork: "near-mainnet" },
      "publicNetwork",
    ],
    [
      "shared nodes of a protocol that has none",
      { protocol: "near", type: "shared" },
      { protocol: "near", type: "shared" },
      "type",
    ],
  ])("%s", (_what, filters, placed, field) => {
    const problems = validateNodeFilters(filters);
    expect(problems).toEqual([
      { field, value: show((filters as Record<string, string>)[field]), allowed: expect.any(String) },
    ]);
    expect(validateNodePlacement({ ...PLACEMENT, ...placed })).toEqual(problems);
  });

  it("every broken combination is reported, the prefix names the fields; a region refusal names the provider's regions, a protocol refusal both protocols", () => {
    const problems = validateNodeFilters(
      { provider: "vzo", region: "uksouth", protocol: "near", publicNetwork: "bsc-mainnet", type: "shared" },
      "filters.",
    );
    expect(problems.map((p) => p.field)).toEqual(["filters.region", "filters.publicNetwork", "filters.type"]);
    for (const r of PROVIDER_REGIONS.vzo) expect(problems[0].allowed).toContain(r);
    expect(problems[1].allowed).toMatch(/\bbsc\b.*\bnear\b/);
  });

  it("allowed placements and filters give no problem", () => {
    expect(
      validateNodePlacement({ ...PLACEMENT, type: "shared", publicNetwork: "ethereum-mainnet" }),
    ).toEqual([]);
    expect(
      validateNodeFilters({ provider: "aws", region: "us-west-2", publicNetwork: "bsc-testnet" }),
    ).toEqual([]);
  });

  const noShared = PROTOCOLS.filter((p) => !(SHARED_PROTOCOLS as readonly string[]).includes(p));
  const SPEC_NO_SHARED = ["arbitrum", "aurora", "cronos", "fuse", "gnosis", "harmony", "near", "starknet"];

  it.each(PROTOCOLS)(
    "shared + %s is refused exactly when it has no shared nodes (the spec's list: near, arbitrum, aurora, gnosis, cronos, starknet, harmony, fuse); dedicated is fine",
    (protocol) => {
      expect([...noShared].sort()).toEqual(SPEC_NO_SHARED);
      const refused = noShared.includes(protocol);
      expect(validateNodeFilters({ type: "shared", protocol }, "filters.").map((p) => p.field)).toEqual(
        refused ? ["filters.type"] : [],
      );
      expect(validateNodeFilters({ type: "dedicated", protocol })).toEqual([]);
    },
  );

  it("the protocol implied by a public network counts too", () => {
    const [problem, ...rest] = validateNodeFilters({ type: "shared", publicNetwork: "near-mainnet" });
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ field: "type", value: '"shared"' });
    expect(problem.allowed).toContain("near-mainnet");
    expect(validateNodeFilters({ type: "shared", publicNetwork: "ethereum-mainnet" })).toEqual([]);
  });
});

describe("filter properties", () => {
  const weirdKeys = fc.oneof(
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.constantFrom(...NODE_FILTER_NAMES),
    fc.string({ maxLength: 12 }),
  );
  const filterValues = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(...PROTOTYPE_NAMES),
    fc.constantFrom(...PROTOCOLS, ...PUBLIC_NETWORK_NAMES, ...PROVIDERS, ...REGIONS, "shared", "dedicated"),
    fc.constant(undefined),
  );
  const filterObjects = fc.array(fc.tuple(weirdKeys, filterValues), { maxLength: 8 }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [k, v] of entries) Object.assign(object, withKey(k, v));
    return object;
  });

  it("validateNodeFilters never throws, and every problem names a given key", () => {
    holds({ numRuns: 1000 }, filterObjects, (filters) => {
      const keys = Object.keys(filters);
      for (const p of validateNodeFilters(filters)) {
        expect(keys).toContain(p.field);
        expect(typeof p.value).toBe("string");
        expect(typeof p.allowed).toBe("string");
      }
    });
  });

  it("a key that is not a filter always gives a problem for that key", () => {
    holds({}, filterObjects, weirdKeys, fc.jsonValue(), (filters, key, value) => {
      fc.pre(!isOwnKey(NODE_FILTERS, key) && value !== undefined);
      Object.defineProperty(filters, key, { value, enumerable: true, configurable: true, writable: true });
      expect(validateNodeFilters(filters).map((p) => p.field)).toContain(key);
    });
  });

  it("an invalid value always gives a problem; only valid filters give none", () => {
    holds({ numRuns: 1000 }, fc.constantFrom(...NODE_FILTER_NAMES), filterValues, (name, value) => {
      fc.pre(value !== undefined);
      const problems = validateNodeFilters({ [name]: value });
      expect(problems.map((p) => p.field)).toEqual(checkFilterValue(name, value) === undefined ? [] : [name]);
    });
  });

  it("accepted filter objects hold only known keys with valid values and allowed combinations", () => {
    let accepted = 0;
    const combined = { shared: 0, placed: 0 };
    holds(
      { seed: 20240611, numRuns: 1000 },
      fc.oneof(fc.constant({}), filterObjects),
      fc.option(fc.constantFrom(...PROVIDER_REGION_PAIRS)),
      fc.option(fc.constantFrom(...PROTOCOLS.map((protocol) => ({ type: "shared", protocol })))),
      (f0, pair, shared) => {
        // A provider's own region and shared nodes, often enough that accepted combinations occur.
        const filters = { ...f0, ...pair, ...shared };
        if (validateNodeFilters(filters).length > 0) return;
        const given = Object.entries(filters).filter(([, v]) => v !== undefined);
        if (given.length > 0) accepted++;
        for (const [k, v] of given) {
          expect(isOwnKey(NODE_FILTERS, k)).toBe(true);
          expect(checkFilterValue(k as never, v)).toBeUndefined();
        }
        const f = Object.fromEntries(given) as Record<string, string | undefined>;
        const protocol = f.protocol ?? protocolOfPublicNetwork(f.publicNetwork);
        if (f.type === "shared" && protocol !== undefined) {
          expect(allowsSharedNodes(protocol)).toBe(true);
          combined.shared++;
        }
        if (f.provider && f.region) {
          expect(regionsOf(f.provider)).toContain(f.region);
          combined.placed++;
        }
      },
    );
    expect(accepted).toBeGreaterThan(0);
    expect(combined.shared).toBeGreaterThan(0);
    expect(combined.placed).toBeGreaterThan(0);
  });

  it("non-object filters are a problem, not a crash", () => {
    for (const filters of [null, 42, "protocol=ethereum", [], [["protocol", "ethereum"]]])
      expect(validateNodeFilters(filters as never)).toEqual([
        { field: "filters", value: show(filters), allowed: expect.any(String) },
      ]);
  });
});

describe("show, checkOneOf, formatProblems", () => {
  it.each([
    [undefined, "undefined"],
    [null, "null"],
    ["text", '"text"'],
    [12.5, "12.5"],
    [false, "false"],
    [10n, "10n"],
    [NaN, "NaN"],
    [Infinity, "Infinity"],
    [() => 1, "a function"],
    [Symbol("s"), "a symbol"],
    [{ a: [1, 2] }, '{"a":[1,2]}'],
    ["x".repeat(200), JSON.stringify("x".repeat(77) + "...")],
    [{ toJSON: () => undefined }, "an object"],
  ])("show(%p) is %p", (value, shown) => {
    expect(show(value)).toBe(shown);
  });

  it("show is brief and never throws, on cycles and anything else", () => {
    expect(show({ long: "y".repeat(200) })).toHaveLength(80);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(show(cycle)).toBe("an object");
    const list: unknown[] = [];
    list.push(list);
    expect(show(list)).toBe("an array");
    const anything = fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true });
    holds({}, anything, (v) => void expect(typeof show(v)).toBe("string"));
  });

  it("checkOneOf accepts only the listed strings, and lists them when it refuses", () => {
    expect(checkOneOf("type", "dedicated", ["dedicated", "shared"])).toBeUndefined();
    const problem = checkOneOf("type", "Dedicated", ["dedicated", "shared"]);
    expect(problem).toMatchObject({ field: "type", value: '"Dedicated"' });
    expect(problem?.allowed).toContain("dedicated, shared");
    expect(checkOneOf("type", ["dedicated"], ["dedicated"])?.value).toBe('["dedicated"]');
  });

  it("formatProblems gives one line per problem", () => {
    const problems = [
      { field: "a", value: '"x"', allowed: "expected y" },
      { field: "b", value: "1", allowed: "expected 2" },
    ];
    expect(formatProblems(problems).split("\n")).toEqual(['a: got "x"; expected y', "b: got 1; expected 2"]);
    expect(formatProblems([])).toBe("");
  });
});

describe("the spec's tables agree", () => {
  it("every public network's protocol is known and every protocol has one; sublists are known protocols", () => {
    expect([...new Set(Object.values(PUBLIC_NETWORKS))].sort()).toEqual([...PROTOCOLS].sort());
    for (const list of [SHARED_PROTOCOLS, ARCHIVE_PROTOCOLS, BEACON_PROTOCOLS])
      for (const protocol of list) expect(PROTOCOLS).toContain(protocol);
  });

  it("providers and regions: each region offered by exactly one provider, every pair listed once", () => {
    expect([...PROVIDERS].sort()).toEqual(Object.keys(PROVIDER_REGIONS).sort());
    const offered = PROVIDERS.flatMap((p) => [...PROVIDER_REGIONS[p]]);
    expect([...offered].sort()).toEqual([...REGIONS].sort());
    expect(new Set(offered).size).toBe(offered.length);
    expect(PROVIDER_REGION_PAIRS).toHaveLength(REGIONS.length);
    for (const { provider, region } of PROVIDER_REGION_PAIRS)
      expect(PROVIDER_REGIONS[provider] as readonly string[]).toContain(region);
  });
});
