/** Node filters and node placements refuse the same combinations with the same words. */
import { validateNodeFilters, validateNodePlacement } from "../../src/model";

const placement = { protocol: "ethereum", type: "dedicated", provider: "aws", region: "us-east-1" };

describe("one rule for each combination", () => {
  it("a region of another provider", () => {
    const filters = validateNodeFilters({ provider: "aws", region: "uksouth" });
    const node = validateNodePlacement({ ...placement, region: "uksouth" });
    expect(filters).toEqual([
      {
        field: "region",
        value: '"uksouth"',
        allowed: "provider aws offers only ap-southeast-1, us-west-2, us-east-1",
      },
    ]);
    expect(node).toEqual(filters);
  });

  it("a public network of another protocol", () => {
    const filters = validateNodeFilters({ protocol: "ethereum", publicNetwork: "near-mainnet" });
    const node = validateNodePlacement({ ...placement, publicNetwork: "near-mainnet" });
    expect(filters).toEqual([
      {
        field: "publicNetwork",
        value: '"near-mainnet"',
        allowed: "near-mainnet belongs to protocol near, not ethereum",
      },
    ]);
    expect(node).toEqual(filters);
  });

  it("shared nodes of a protocol that has none", () => {
    const filters = validateNodeFilters({ protocol: "near", type: "shared" });
    const node = validateNodePlacement({ ...placement, protocol: "near", type: "shared" });
    expect(filters).toEqual([
      {
        field: "type",
        value: '"shared"',
        allowed: expect.stringMatching(
          /^shared nodes exist only for ethereum, .*; protocol near has dedicated nodes only$/,
        ),
      },
    ]);
    expect(node).toEqual(filters);
  });

  it("every broken combination is reported, the prefix names the fields", () => {
    const problems = validateNodeFilters(
      { provider: "vzo", region: "uksouth", protocol: "near", publicNetwork: "bsc-mainnet", type: "shared" },
      "filters.",
    );
    expect(problems.map((p) => p.field)).toEqual(["filters.region", "filters.publicNetwork", "filters.type"]);
  });

  it("allowed placements and filters give no problem", () => {
    expect(
      validateNodePlacement({ ...placement, type: "shared", publicNetwork: "ethereum-mainnet" }),
    ).toEqual([]);
    expect(
      validateNodeFilters({ provider: "aws", region: "us-west-2", publicNetwork: "bsc-testnet" }),
    ).toEqual([]);
  });
});
