import { FAUCET_AMOUNT_WEI, startEmulator } from "../../src/emulator";
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
      { address, amountSent: FAUCET_AMOUNT_WEI, transaction: a.json.transaction, at: now.toISOString() },
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
