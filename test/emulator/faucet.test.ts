import { EMULATOR_DEFAULTS, FAUCET_AMOUNT_WEI, startEmulator } from "../../src/emulator";
import { FaucetLedger } from "../../src/emulator/data/faucet-ledger";
import { call, drip, usingEmulator, withEmulator } from "../helpers/emulator";

const OTHER_ADDRESS = "0x" + "ab".repeat(20);

describe("POST /v1/faucet/{chain}", () => {
  let now: Date;
  beforeEach(() => (now = new Date("2024-03-10T22:15:30.000Z")));
  const emulator = withEmulator({ seed: 11, now: () => now }, { each: true });
  const drip = (address: unknown, chain = "goerli", key?: string | null) =>
    call(emulator(), `/v1/faucet/${chain}`, { method: "POST", body: { address }, key });
  const good = () => emulator().fixtures.faucetAddress;

  test("goerli, sepolia and hoodi by default: 0.5 test ETH, amountSent a JSON number in wei, each send recorded with its chain and explorer", async () => {
    expect(EMULATOR_DEFAULTS.faucetChains).toEqual(["goerli", "sepolia", "hoodi"]);
    for (const chain of EMULATOR_DEFAULTS.faucetChains) {
      const a = await drip(good(), chain);
      expect([a.status, a.headers.get("content-type")]).toEqual([200, "application/json"]);
      expect(a.text).toContain('"amountSent":500000000000000000,');
      expect(a.json.transaction).toMatch(
        new RegExp(`^https://${chain}\\.etherscan\\.example/tx/0x[0-9a-f]{64}$`),
      );
      const send = { address: good(), chain, amountSent: FAUCET_AMOUNT_WEI, at: now.toISOString() };
      expect(emulator().faucetSends().at(-1)).toEqual({ ...send, transaction: a.json.transaction });
    }
    expect(emulator().faucetSendCount(good())).toBe(3);
    await drip(good(), "nope");
    const routes = EMULATOR_DEFAULTS.faucetChains.map((chain) => ({
      route: `/v1/faucet/${chain}`,
      status: 200,
    }));
    expect(emulator().requests()).toMatchObject([...routes, { route: "/v1/faucet/{chain}", status: 404 }]);
  });

  test("one send per chain, address and UTC day: 429 rate_limited with nextFaucetAvailable, whatever the key", async () => {
    expect((await drip(good())).status).toBe(200);
    const again = await drip(good().toLowerCase());
    expect([again.status, again.json.error.code]).toEqual([429, "rate_limited"]);
    expect(again.json.nextFaucetAvailable).toBe("2024-03-11T00:00:00.000Z");
    const otherKey = emulator().keys[emulator().fixtures.otherOrganization];
    expect((await drip(good(), "goerli", otherKey)).status).toBe(429);
    expect((await drip(OTHER_ADDRESS)).status).toBe(200);
    expect((await drip(good(), "sepolia")).status).toBe(200);
    expect((await drip(good(), "sepolia")).status).toBe(429);
    now = new Date("2024-03-11T00:00:00.000Z");
    expect((await drip(good())).status).toBe(200);
    expect(emulator().faucetSends()).toHaveLength(4);
  });

  test.each([
    ["a bad checksum", "0xcFBD650Db6CFB62c2997999fF372f30697394928"],
    ["too short", "0x1234"],
    ["no 0x", "ab".repeat(20)],
    ["a number", 12],
    ["missing", undefined],
  ])("%s: 400 validation_error on address, nothing sent", async (_label, address) => {
    const a = await drip(address);
    expect([a.status, a.json.error.code]).toEqual([400, "validation_error"]);
    expect(Object.keys(a.json.error.fields)).toEqual(["address"]);
    expect(emulator().faucetSendCounts().total).toBe(0);
  });

  test("the checksum error names the checksummed form; no trailing slash; other methods 405", async () => {
    const i = good().slice(2).search(/[a-f]/) + 2;
    const flipped = good().slice(0, i) + good()[i].toUpperCase() + good().slice(i + 1);
    expect((await drip(flipped)).json.error.fields.address[0]).toContain(good());
    const slash = await call(emulator(), "/v1/faucet/goerli/", { method: "POST", body: { address: "0x" } });
    expect(slash.status).toBe(404);
    expect(slash.json.error.message).toContain("/v1/faucet/goerli?");
    const get = await call(emulator(), "/v1/faucet/goerli");
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(get.json.error.code).toBe("method_not_allowed");
  });

  test.each([
    ["a chain not served", "mainnet"],
    ["an upper-case name", "Sepolia"],
    ["an encoded path", "..%2Fnodes"],
  ])("%s: 404 not_found naming the chain, after authentication, nothing sent", async (_label, chain) => {
    const a = await drip(good(), chain);
    expect([a.status, a.json.error.code]).toEqual([404, "not_found"]);
    expect(a.json.error.message).toContain(JSON.stringify(decodeURIComponent(chain)));
    expect((await drip(good(), chain, null)).status).toBe(401);
    expect(emulator().faucetSends()).toEqual([]);
  });
});

describe("faucet options and records", () => {
  test("faucetChains sets the chains served; faucetDailyLimit the sends per day; records are a ring, counts never dropped", async () => {
    const options = { faucetChains: ["amoy", "bnb-testnet"], faucetDailyLimit: 3, faucetSendLogCapacity: 2 };
    await usingEmulator(options, async (emulator) => {
      const address = emulator.fixtures.faucetAddress;
      const drip = (a: string, chain = "amoy") =>
        call(emulator, `/v1/faucet/${chain}`, { method: "POST", body: { address: a } });
      for (const a of [address, OTHER_ADDRESS, address.toLowerCase(), address])
        expect((await drip(a)).status).toBe(200);
      expect((await drip(address)).status).toBe(429);
      expect((await drip(address, "bnb-testnet")).status).toBe(200);
      const goerli = await drip(address, "goerli");
      expect(goerli.status).toBe(404);
      expect(goerli.json.error.message).toContain("amoy, bnb-testnet");
      expect(emulator.faucetSends().map((s) => [s.address, s.chain])).toEqual([
        [address, "amoy"],
        [address, "bnb-testnet"],
      ]);
      const counts = { total: 5, byAddress: { [address.toLowerCase()]: 4, [OTHER_ADDRESS]: 1 } };
      expect(emulator.faucetSendCounts()).toEqual(counts);
      expect(emulator.faucetSendCount(address.toUpperCase().replace("0X", "0x"))).toBe(4);
      expect(emulator.faucetSendCount("0x" + "cd".repeat(20))).toBe(0);
    });
  });

  test("the daily limit holds even when no record is kept", () =>
    usingEmulator({ faucetSendLogCapacity: 0 }, async (emulator) => {
      expect([(await drip(emulator)).status, (await drip(emulator)).status]).toEqual([200, 429]);
      expect(emulator.faucetSends()).toEqual([]);
      expect(emulator.faucetSendCount(emulator.fixtures.faucetAddress)).toBe(1);
    }));

  test.each([[[]], [["goerli", "Sepolia"]], [["a/b"]], [["hoodi", "hoodi"]]])(
    "faucetChains %j is refused",
    (faucetChains) => expect(startEmulator({ faucetChains })).rejects.toThrow(/faucetChains/),
  );

  test("ledger: per-day limit by UTC day (also when the clock goes back), transaction hashes unchanged by the ring", () => {
    const [day1, day2] = [new Date("2024-01-01T23:59:59.000Z"), new Date("2024-01-02T00:00:00.000Z")];
    const [small, large] = [new FaucetLedger(4, 1, 1), new FaucetLedger(4, 1, 10)];
    for (const ledger of [small, large]) {
      expect(ledger.allowed(OTHER_ADDRESS, day1)).toBe(true);
      ledger.send(OTHER_ADDRESS, day1);
      expect(ledger.allowed(OTHER_ADDRESS.toUpperCase(), day1)).toBe(false);
      expect(ledger.allowed(OTHER_ADDRESS, day2)).toBe(true);
      ledger.send(OTHER_ADDRESS, day2);
      expect(ledger.allowed(OTHER_ADDRESS, day1)).toBe(false);
    }
    expect([small.all(), small.counts()]).toEqual([[large.all()[1]], large.counts()]);
  });
});
