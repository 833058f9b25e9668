/** The faucet's chain: one rule and one default in the model. */
import {
  DEFAULT_FAUCET_CHAIN,
  MAX_FAUCET_CHAIN_LENGTH,
  PATHS,
  checkFaucetChain,
  formatProblems,
} from "../../src/model";

describe("faucet chain names", () => {
  it("the default is goerli, the chain of the spec's faucet path", () => {
    expect(DEFAULT_FAUCET_CHAIN).toBe("goerli");
    expect(PATHS.faucet(DEFAULT_FAUCET_CHAIN)).toBe("/v1/faucet/goerli");
    expect(PATHS.faucet("sepolia")).toBe("/v1/faucet/sepolia");
  });

  it.each([
    "goerli",
    "sepolia",
    "hoodi",
    "bnb-testnet",
    "scroll-sepolia-testnet",
    "a",
    "a1",
    "a".repeat(MAX_FAUCET_CHAIN_LENGTH),
  ])("%s is allowed", (chain) => {
    expect(checkFaucetChain("chain", chain)).toBeUndefined();
  });

  it.each([
    ["empty", ""],
    ["upper case", "Sepolia"],
    ["a leading digit", "1chain"],
    ["a leading hyphen", "-sepolia"],
    ["a slash", "sepolia/x"],
    ["a dot-dot", ".."],
    ["a space", "sepolia testnet"],
    ["an underscore", "bnb_testnet"],
    ["a percent", "a%2Fb"],
    ["too long", "a".repeat(MAX_FAUCET_CHAIN_LENGTH + 1)],
    ["a number", 5],
    ["null", null],
  ])("%s is refused, naming the field, the value and what is allowed", (_label, chain) => {
    const problem = checkFaucetChain("chain", chain);
    expect(problem).toEqual({
      field: "chain",
      value: expect.any(String),
      allowed: expect.stringMatching(/lowercase letter.*digits and hyphens.*63/),
    });
    expect(formatProblems([problem!])).toMatch(/^chain: got .+; expected a chain name such as goerli/);
  });

  it("the value is shown as given", () => {
    expect(checkFaucetChain("chain", "Sepolia")?.value).toBe('"Sepolia"');
  });
});
