/** The model's values: EVM addresses (EIP-55), ids, network names, problems, and the spec's tables agreeing. */
import {
  ARCHIVE_PROTOCOLS,
  BEACON_PROTOCOLS,
  ID_KINDS,
  MAX_NETWORK_NAME_LENGTH,
  PROTOCOLS,
  PROVIDERS,
  PROVIDER_REGIONS,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORKS,
  REGIONS,
  SHARED_PROTOCOLS,
  checkAddress,
  checkId,
  checkNetworkName,
  checkOneOf,
  formatProblems,
  idPattern,
  isId,
  show,
  toChecksumAddress,
  validateNetworkUpdate,
} from "../../src/model";
import type { IdKind } from "../../src/model";

describe("EVM addresses", () => {
  // The checksummed examples of EIP-55 itself.
  const EIP55 = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];

  it.each(EIP55)("%s is its own checksum, from any case", (address) => {
    expect(toChecksumAddress(address)).toBe(address);
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(toChecksumAddress("0x" + address.slice(2).toUpperCase())).toBe(address);
    expect(checkAddress("address", address)).toBeUndefined();
  });

  it("all-lowercase and all-uppercase digits are accepted as they are", () => {
    for (const address of EIP55) {
      expect(checkAddress("address", address.toLowerCase())).toBeUndefined();
      expect(checkAddress("address", "0x" + address.slice(2).toUpperCase())).toBeUndefined();
    }
  });

  it("a mixed-case address with a wrong checksum is refused, naming the checksummed form", () => {
    const good = EIP55[0];
    const flipped = good.slice(0, 3) + good[3].toUpperCase() + good.slice(4); // 0x5aAe… → 0x5AAe…
    expect(flipped).not.toBe(good);
    expect(checkAddress("address", flipped)).toEqual({
      field: "address",
      value: JSON.stringify(flipped),
      allowed: `the mixed-case checksum (EIP-55) does not match; the checksummed form is ${good}, or write it all lowercase`,
    });
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
    expect(checkAddress("faucet.address", value)).toEqual({
      field: "faucet.address",
      value: show(value),
      allowed: "expected 0x followed by 40 hex digits (a 20-byte address)",
    });
  });
});

describe("identifiers", () => {
  const kinds = Object.keys(ID_KINDS) as IdKind[];

  it("each kind's example is an id of that kind and of no other", () => {
    for (const kind of kinds) {
      const { example } = ID_KINDS[kind];
      expect(isId(kind, example)).toBe(true);
      expect(checkId(kind, "id", example)).toBeUndefined();
      for (const other of kinds.filter((k) => k !== kind)) expect(isId(other, example)).toBe(false);
    }
  });

  it("the prefix, then one to six groups of one to twelve digits", () => {
    expect(isId("node", "ND-1")).toBe(true);
    expect(isId("node", "ND-1-2-3-4-5-6")).toBe(true);
    expect(isId("node", "ND-1-2-3-4-5-6-7")).toBe(false);
    expect(isId("node", "ND-123456789012")).toBe(true);
    expect(isId("node", "ND-1234567890123")).toBe(false);
    for (const value of ["ND", "ND-", "ND--1", "ND-1-", "nd-1", "ND-1/", "ND-1 ", "ND-1?x", "ND-a", " ND-1"])
      expect(isId("node", value)).toBe(false);
  });

  it("idPattern is anchored and matches what isId accepts", () => {
    for (const kind of kinds) {
      const pattern = idPattern(kind);
      expect(pattern.test(ID_KINDS[kind].example)).toBe(true);
      expect(pattern.test(`x${ID_KINDS[kind].example}`)).toBe(false);
      expect(pattern.test(`${ID_KINDS[kind].example}x`)).toBe(false);
    }
  });

  it("a refusal names the kind, the prefix and an example", () => {
    expect(checkId("network", "networkId", "ND-100-000-001")).toEqual({
      field: "networkId",
      value: '"ND-100-000-001"',
      allowed: 'expected a network id: "NW-" followed by hyphen-separated digit groups, e.g. NW-123-456-7',
    });
  });

  it("a kind that does not exist is a programming error, but isId just says no", () => {
    expect(() => idPattern("constructor" as IdKind)).toThrow(RangeError);
    expect(() => checkId("toString" as IdKind, "id", "ND-1")).toThrow(/unknown id kind "toString"/);
    expect(isId("constructor" as IdKind, "ND-1")).toBe(false);
  });
});

describe("network names and updates", () => {
  it("a name is a non-empty string of at most 255 characters", () => {
    expect(checkNetworkName("name", "mainnet")).toBeUndefined();
    expect(checkNetworkName("name", "x".repeat(MAX_NETWORK_NAME_LENGTH))).toBeUndefined();
    expect(checkNetworkName("name", "x".repeat(MAX_NETWORK_NAME_LENGTH + 1))?.allowed).toBe(
      "expected at most 255 characters",
    );
    for (const value of ["", "   ", "\t\n", 5, null, undefined])
      expect(checkNetworkName("name", value)?.allowed).toBe("expected a non-empty name");
  });

  it("an update checks only the fields it sends, and lists every problem", () => {
    expect(validateNetworkUpdate({})).toEqual([]);
    expect(validateNetworkUpdate({ name: "renamed", project: "PR-123-456" })).toEqual([]);
    expect(validateNetworkUpdate({ name: " ", project: "NW-1" }).map((p) => p.field)).toEqual([
      "name",
      "project",
    ]);
  });
});

describe("problems", () => {
  it("show renders each kind of value briefly", () => {
    expect(show(undefined)).toBe("undefined");
    expect(show(null)).toBe("null");
    expect(show("text")).toBe('"text"');
    expect(show(12.5)).toBe("12.5");
    expect(show(false)).toBe("false");
    expect(show(10n)).toBe("10n");
    expect(show(() => 1)).toBe("a function");
    expect(show(Symbol("s"))).toBe("a symbol");
    expect(show({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(show("x".repeat(200))).toBe(JSON.stringify("x".repeat(77) + "..."));
    expect(show({ long: "y".repeat(200) })).toHaveLength(80);
  });

  it("show never throws, on cycles and values JSON cannot render", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(show(cycle)).toBe("an object");
    const list: unknown[] = [];
    list.push(list);
    expect(show(list)).toBe("an array");
    expect(show({ toJSON: () => undefined })).toBe("an object");
  });

  it("checkOneOf accepts only the listed strings, and lists them when it refuses", () => {
    expect(checkOneOf("type", "dedicated", ["dedicated", "shared"])).toBeUndefined();
    expect(checkOneOf("type", "Dedicated", ["dedicated", "shared"])).toEqual({
      field: "type",
      value: '"Dedicated"',
      allowed: "expected one of dedicated, shared",
    });
    expect(checkOneOf("type", ["dedicated"], ["dedicated"])?.value).toBe('["dedicated"]');
  });

  it("formatProblems gives one line per problem", () => {
    expect(
      formatProblems([
        { field: "a", value: '"x"', allowed: "expected y" },
        { field: "b", value: "1", allowed: "expected 2" },
      ]),
    ).toBe('a: got "x"; expected y\nb: got 1; expected 2');
    expect(formatProblems([])).toBe("");
  });
});

describe("the spec's tables agree", () => {
  it("every public network belongs to a known protocol, and every protocol has one", () => {
    for (const protocol of Object.values(PUBLIC_NETWORKS)) expect(PROTOCOLS).toContain(protocol);
    for (const protocol of PROTOCOLS) expect(Object.values(PUBLIC_NETWORKS)).toContain(protocol);
  });

  it("the shared, archive and beacon protocol lists are known protocols", () => {
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
