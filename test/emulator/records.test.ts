import { EMULATOR_DEFAULTS, startEmulator } from "../../src/emulator";
import { FaucetLedger } from "../../src/emulator/data/faucet-ledger";
import { Ring } from "../../src/emulator/data/ring";
import { call } from "../helpers/emulator";

const OTHER_ADDRESS = "0x" + "ab".repeat(20);

describe("Ring", () => {
  test("keeps the newest items, oldest first, and counts every push", () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect(ring.toArray()).toEqual([5, 6, 7]);
    expect([ring.size, ring.total, ring.capacity]).toEqual([3, 7, 3]);
    ring.clear();
    expect([ring.toArray(), ring.size, ring.total]).toEqual([[], 0, 0]);
    ring.push(8);
    expect(ring.toArray()).toEqual([8]);
  });

  test("capacity 0 keeps nothing but counts; a bad capacity is refused", () => {
    const ring = new Ring<number>(0);
    ring.push(1);
    expect([ring.toArray(), ring.total]).toEqual([[], 1]);
    expect(() => new Ring(-1)).toThrow(RangeError);
    expect(() => new Ring(1.5)).toThrow(RangeError);
  });
});

describe("request record", () => {
  test("bounded by requestLogCapacity: the oldest are dropped, the total is kept", async () => {
    const emulator = await startEmulator({ requestLogCapacity: 3 });
    try {
      for (let page = 1; page <= 5; page++) await call(emulator, `/v1/nodes/?page=${page}`);
      expect(emulator.requests().map((r) => r.query.page)).toEqual(["3", "4", "5"]);
      expect(emulator.requestStats()).toEqual({ total: 5, retained: 3, capacity: 3 });
      emulator.resetRequests();
      expect(emulator.requestStats()).toEqual({ total: 0, retained: 0, capacity: 3 });
    } finally {
      await emulator.close();
    }
  });

  test("the default capacity is 10,000; out-of-range capacities are refused", async () => {
    expect(EMULATOR_DEFAULTS.requestLogCapacity).toBe(10_000);
    expect(EMULATOR_DEFAULTS.faucetSendLogCapacity).toBe(10_000);
    const emulator = await startEmulator();
    try {
      expect(emulator.requestStats()).toEqual({ total: 0, retained: 0, capacity: 10_000 });
    } finally {
      await emulator.close();
    }
    await expect(startEmulator({ requestLogCapacity: -1 })).rejects.toThrow(/requestLogCapacity/);
    await expect(startEmulator({ faucetSendLogCapacity: 0.5 })).rejects.toThrow(/faucetSendLogCapacity/);
  });

  test("capacity 0 records nothing and still counts", async () => {
    const emulator = await startEmulator({ requestLogCapacity: 0 });
    try {
      await call(emulator, "/v1/nodes/");
      expect(emulator.requests()).toEqual([]);
      expect(emulator.requestStats().total).toBe(1);
    } finally {
      await emulator.close();
    }
  });

  test("memory stays bounded over many requests", () => {
    const ring = new Ring<{ n: number }>(100);
    for (let n = 0; n < 250_000; n++) ring.push({ n });
    expect(ring.size).toBe(100);
    expect(ring.toArray()[0].n).toBe(249_900);
  });
});

describe("faucet send record and counts", () => {
  test("full records are a ring; the per-address counts and the total are never dropped", async () => {
    const emulator = await startEmulator({ faucetDailyLimit: 100, faucetSendLogCapacity: 2 });
    try {
      const address = emulator.fixtures.faucetAddress;
      const drip = (a: string) =>
        call(emulator, "/v1/faucet/goerli", { method: "POST", body: { address: a } });
      for (const a of [address, OTHER_ADDRESS, address.toLowerCase(), address]) {
        expect((await drip(a)).status).toBe(200);
      }
      expect(emulator.faucetSends().map((s) => s.address)).toEqual([address.toLowerCase(), address]);
      expect(emulator.faucetSendCounts()).toEqual({
        total: 4,
        byAddress: { [address.toLowerCase()]: 3, [OTHER_ADDRESS]: 1 },
      });
      expect(emulator.faucetSendCount(address)).toBe(3);
      expect(emulator.faucetSendCount(address.toUpperCase().replace("0X", "0x"))).toBe(3);
      expect(emulator.faucetSendCount("0x" + "cd".repeat(20))).toBe(0);
      // A refused send is not counted.
      expect((await drip("0x1234")).status).toBe(400);
      expect(emulator.faucetSendCounts().total).toBe(4);
    } finally {
      await emulator.close();
    }
  });

  test("the daily limit holds even when no record is kept", async () => {
    const emulator = await startEmulator({ faucetSendLogCapacity: 0 });
    try {
      const drip = () =>
        call(emulator, "/v1/faucet/goerli", {
          method: "POST",
          body: { address: emulator.fixtures.faucetAddress },
        });
      expect((await drip()).status).toBe(200);
      expect((await drip()).status).toBe(429);
      expect(emulator.faucetSends()).toEqual([]);
      expect(emulator.faucetSendCount(emulator.fixtures.faucetAddress)).toBe(1);
    } finally {
      await emulator.close();
    }
  });

  test("ledger: per-day limit by UTC day, transaction hashes unchanged by the ring", () => {
    const day1 = new Date("2024-01-01T23:59:59.000Z");
    const day2 = new Date("2024-01-02T00:00:00.000Z");
    const small = new FaucetLedger(4, 1, 1);
    const large = new FaucetLedger(4, 1, 10);
    for (const ledger of [small, large]) {
      expect(ledger.allowed(OTHER_ADDRESS, day1)).toBe(true);
      ledger.send(OTHER_ADDRESS, day1);
      expect(ledger.allowed(OTHER_ADDRESS.toUpperCase(), day1)).toBe(false);
      expect(ledger.allowed(OTHER_ADDRESS, day2)).toBe(true);
      ledger.send(OTHER_ADDRESS, day2);
      // The clock going back still sees the first day's send.
      expect(ledger.allowed(OTHER_ADDRESS, day1)).toBe(false);
    }
    expect(small.all()).toHaveLength(1);
    expect(small.all()[0]).toEqual(large.all()[1]);
    expect(small.counts()).toEqual(large.counts());
  });
});
