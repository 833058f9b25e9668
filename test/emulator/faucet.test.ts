import { EMULATOR_DEFAULTS, FAUCET_AMOUNT_WEI, startEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

describe("POST /v1/faucet/goerli", () => {
  let now: Date;
  beforeEach(() => {
    now = new Date("2024-03-10T22:15:30.000Z");
  });
  const emulator = withEmulator({ seed: 11, now: () => now }, { each: true });
  const drip = (address: unknown, key?: string) =>
    call(emulator(), "/v1/faucet/goerli", { method: "POST", body: { address }, key });

  test("sends 0.5 test ETH: amountSent is a JSON number in wei; the send is recorded", async () => {
    const address = emulator().fixtures.faucetAddress;
    const a = await drip(address);
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/json");
    expect(a.text).toContain('"amountSent":500000000000000000,');
    expect(a.json.transaction).toMatch(/^https:\/\/goerli\.etherscan\.example\/tx\/0x[0-9a-f]{64}$/);
    expect(emulator().faucetSends()).toEqual([
      {
        address,
        chain: "goerli",
        amountSent: FAUCET_AMOUNT_WEI,
        transaction: a.json.transaction,
        at: now.toISOString(),
      },
    ]);
    expect(FAUCET_AMOUNT_WEI).toBe("500000000000000000");
  });

  test("one send per address per UTC day: 429 rate_limited with nextFaucetAvailable", async () => {
    const address = emulator().fixtures.faucetAddress;
    expect((await drip(address)).status).toBe(200);
    const again = await drip(address.toLowerCase());
    expect(again.status).toBe(429);
    expect(again.json.error.code).toBe("rate_limited");
    expect(again.json.nextFaucetAvailable).toBe("2024-03-11T00:00:00.000Z");
    expect(emulator().faucetSends()).toHaveLength(1);
    // Another key does not lift the per-address limit.
    expect((await drip(address, emulator().keys[emulator().fixtures.otherOrganization])).status).toBe(429);
    // Another address is fine; the next UTC day is fine.
    expect((await drip("0x" + "ab".repeat(20))).status).toBe(200);
    now = new Date("2024-03-11T00:00:00.000Z");
    expect((await drip(address)).status).toBe(200);
    expect(emulator().faucetSends()).toHaveLength(3);
  });

  test("faucetDailyLimit option", async () => {
    const generous = await startEmulator({ seed: 11, faucetDailyLimit: 2 });
    try {
      const send = () =>
        call(generous, "/v1/faucet/goerli", {
          method: "POST",
          body: { address: generous.fixtures.faucetAddress },
        });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
    } finally {
      await generous.close();
    }
  });

  test.each([
    ["a bad checksum", "0xcFBD650Db6CFB62c2997999fF372f30697394928"],
    ["too short", "0x1234"],
    ["no 0x", "ab".repeat(20)],
    ["a number", 12],
    ["missing", undefined],
  ])("%s: 400 validation_error on address, nothing sent", async (_label, address) => {
    const a = await call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      body: address === undefined ? {} : { address },
    });
    expect(a.status).toBe(400);
    expect(a.json.error.code).toBe("validation_error");
    expect(Object.keys(a.json.error.fields)).toEqual(["address"]);
    expect(emulator().faucetSends()).toEqual([]);
  });

  test("the checksum error names the checksummed form", async () => {
    const good = emulator().fixtures.faucetAddress;
    const i = good.slice(2).search(/[a-fA-F]/) + 2;
    const c = good[i];
    const flipped =
      good.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + good.slice(i + 1);
    const a = await drip(flipped);
    expect(a.status).toBe(400);
    expect(a.json.error.message).toContain(good);
  });

  test("invalid JSON: 400 parse_error", async () => {
    const a = await call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      rawBody: "{address",
      headers: { "Content-Type": "application/json" },
    });
    expect(a.status).toBe(400);
    expect(a.json.error.code).toBe("parse_error");
  });

  test("the path has no trailing slash; other methods: 405", async () => {
    const slash = await call(emulator(), "/v1/faucet/goerli/", { method: "POST", body: { address: "0x" } });
    expect(slash.status).toBe(404);
    expect(slash.json.error.message).toContain("did you mean /v1/faucet/goerli?");
    const get = await call(emulator(), "/v1/faucet/goerli");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(get.json.error.code).toBe("method_not_allowed");
  });
});

describe("POST /v1/faucet/{chain}: the chains served", () => {
  const now = new Date("2024-03-10T22:15:30.000Z");
  const emulator = withEmulator({ seed: 11, now: () => now }, { each: true });
  const drip = (chain: string, address: string = emulator().fixtures.faucetAddress) =>
    call(emulator(), `/v1/faucet/${chain}`, { method: "POST", body: { address } });

  test("by default goerli, sepolia and hoodi; each send is recorded with its chain and links to its explorer", async () => {
    expect(EMULATOR_DEFAULTS.faucetChains).toEqual(expect.arrayContaining(["goerli", "sepolia", "hoodi"]));
    for (const chain of ["goerli", "sepolia", "hoodi"]) {
      const a = await drip(chain);
      expect(a.status).toBe(200);
      expect(a.json.transaction).toMatch(
        new RegExp(`^https://${chain}\\.etherscan\\.example/tx/0x[0-9a-f]{64}$`),
      );
    }
    expect(
      emulator()
        .faucetSends()
        .map((s) => s.chain),
    ).toEqual(["goerli", "sepolia", "hoodi"]);
    expect(emulator().faucetSendCount(emulator().fixtures.faucetAddress)).toBe(3);
  });

  test("the daily limit is per chain and address", async () => {
    expect((await drip("sepolia")).status).toBe(200);
    const again = await drip("sepolia");
    expect(again.status).toBe(429);
    expect(again.json.error.message).toContain("sepolia");
    expect((await drip("goerli")).status).toBe(200);
    expect((await drip("goerli")).status).toBe(429);
    expect(emulator().faucetSends()).toHaveLength(2);
  });

  test.each([
    ["a chain not served", "mainnet"],
    ["an upper-case name", "Sepolia"],
    ["an encoded path", "..%2Fnodes"],
  ])("%s: 404 not_found naming the chain, after authentication, nothing sent", async (_label, chain) => {
    const a = await drip(chain);
    expect(a.status).toBe(404);
    expect(a.json).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect(a.json.error.message).toContain(JSON.stringify(decodeURIComponent(chain)));
    expect(a.json.error.message).toContain("goerli, sepolia, hoodi");
    expect(emulator().faucetSends()).toEqual([]);
    const anonymous = await call(emulator(), `/v1/faucet/${chain}`, {
      method: "POST",
      body: { address: emulator().fixtures.faucetAddress },
      key: null,
    });
    expect(anonymous.status).toBe(401);
  });

  test("the request record names the route of a served chain by its path, any other as /v1/faucet/{chain}", async () => {
    await drip("hoodi");
    await drip("nope");
    expect(
      emulator()
        .requests()
        .map((r) => [r.route, r.status]),
    ).toEqual([
      ["/v1/faucet/hoodi", 200],
      ["/v1/faucet/{chain}", 404],
    ]);
  });

  test("the faucetChains option sets the chains served", async () => {
    const custom = await startEmulator({ seed: 11, faucetChains: ["amoy", "bnb-testnet"] });
    try {
      const send = (chain: string) =>
        call(custom, `/v1/faucet/${chain}`, {
          method: "POST",
          body: { address: custom.fixtures.faucetAddress },
        });
      expect((await send("amoy")).status).toBe(200);
      expect((await send("bnb-testnet")).status).toBe(200);
      const goerli = await send("goerli");
      expect(goerli.status).toBe(404);
      expect(goerli.json.error.message).toContain("amoy, bnb-testnet");
    } finally {
      await custom.close();
    }
  });

  test.each([
    [[], /faucetChains must be a non-empty array/],
    [["goerli", "Sepolia"], /faucetChains\[1\]: got "Sepolia"; expected a chain name/],
    [["a/b"], /faucetChains\[0\]: got "a\/b"/],
    [["hoodi", "hoodi"], /faucetChains names hoodi twice/],
  ])("faucetChains %j is refused", async (faucetChains, message) => {
    await expect(startEmulator({ faucetChains })).rejects.toThrow(message);
  });
});
