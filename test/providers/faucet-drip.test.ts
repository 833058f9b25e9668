/** FaucetDrip's create never sends twice: an outcome that may have been processed is `unknown`. */
import { createHash } from "crypto";
import { readFileSync, readdirSync, writeFileSync } from "fs";
import { join } from "path";
import type { Fault } from "../../src/emulator";
import { setProviderConfig } from "../../src/provider/calls";
import {
  checkFaucetDrip,
  createFaucetDrip,
  diffFaucetDrip,
  type FaucetDripOutputs,
} from "../../src/provider/faucet-drip";
import { UNKNOWN } from "../../src/settings";
import { beginSend, journalDir } from "../../src/provider/faucet-journal";
import { withEmulator } from "../helpers/emulator";
import { withJournalDir } from "../helpers/env";

const emulator = withEmulator({ quiet: true });
const journal = withJournalDir({ each: true });
let addressCounter = 0x1000;

/** A fresh lower-case address for each test (the faucet's daily limit is per address). */
function address(): string {
  addressCounter++;
  return `0x${addressCounter.toString(16).padStart(40, "0")}`;
}

beforeAll(() =>
  setProviderConfig(
    (key) => ({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey })[key],
  ),
);
afterAll(() => setProviderConfig(undefined));

const faucetPath = { method: "POST", path: "/v1/faucet/" };

describe("FaucetDrip create", () => {
  const processedThenUnreadable: [string, Fault][] = [
    ["a response lost after processing", { drop: true, after: "processing", match: faucetPath }],
    ["a 504 gateway page after processing", { status: 504, after: "processing", match: faucetPath }],
    ["an HTML 200", { malformed: "html", match: faucetPath }],
    ["truncated JSON", { malformed: "truncated-json", match: faucetPath }],
    ["a non-integer amount", { malformed: "non-integer-amount", match: faucetPath }],
    ["no transaction", { malformed: "missing-transaction", match: faucetPath }],
  ];
  it.each(processedThenUnreadable)(
    "%s: recorded as unknown, with a note; never sent again",
    async (_what, fault) => {
      const to = address();
      emulator().enqueueFaults([fault]);
      const { id, outs } = await createFaucetDrip({ address: to });
      expect(outs.outcome).toBe("unknown");
      expect(outs.amountSent).toBe("");
      expect(outs.note).toMatch(/may or may not have been sent/);
      expect(outs.note).toMatch(/pulumi up --replace/);
      expect(id).toContain(to);
      // The service did send once; nothing was sent again.
      expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
      expect(readdirSync(journal())).toEqual([]);
    },
  );

  it("a confirmed send is recorded as sent, the journal left empty; a clear refusal fails the create, nothing recorded", async () => {
    const to = address();
    expect((await createFaucetDrip({ address: to })).outs).toMatchObject({ outcome: "sent", note: "" });
    await expect(createFaucetDrip({ address: to })).rejects.toThrow(/429/);
    expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
    expect(readdirSync(journal())).toEqual([]);
  });

  it("a send left in flight by another (killed) process is not repeated: recorded as unknown", async () => {
    const to = address();
    expect(journalDir()).toBe(journal());
    beginSend(emulator().url, to);
    leaveAsInterrupted(readdirSync(journal())[0]);
    const { outs } = await createFaucetDrip({ address: to });
    expect(outs.outcome).toBe("unknown");
    expect(outs.note).toMatch(/interrupted/);
    expect(emulator().faucetSendCounts().byAddress[to] ?? 0).toBe(0);
    // The entry is consumed: an explicit replace sends.
    expect(readdirSync(journal())).toEqual([]);
    const again = await createFaucetDrip({ address: to });
    expect(again.outs.outcome).toBe("sent");
    expect(emulator().faucetSendCounts().byAddress[to]).toBe(1);
  });

  it("an entry older than the faucet's window does not block a send", async () => {
    const to = address();
    beginSend(emulator().url, to, "goerli", Date.now() - 25 * 3600_000);
    leaveAsInterrupted(readdirSync(journal())[0]);
    const { outs } = await createFaucetDrip({ address: to });
    expect(outs.outcome).toBe("sent");
  });
});

/** Marks the journal entry in `journal` as written by another (killed) process. */
function leaveAsInterrupted(file: string): void {
  const entry = JSON.parse(readFileSync(join(journal(), file), "utf8"));
  writeFileSync(join(journal(), file), JSON.stringify({ ...entry, process: "another-process" }));
}

describe("FaucetDrip chain", () => {
  it("is sent to /v1/faucet/{chain}; goerli when not given; recorded in the outputs", async () => {
    const to = address();
    const sepolia = await createFaucetDrip({ address: to, chain: "sepolia" });
    expect(sepolia.outs).toMatchObject({ chain: "sepolia", outcome: "sent" });
    expect(sepolia.outs.transaction).toMatch(/^https:\/\/sepolia\./);
    const plain = await createFaucetDrip({ address: to });
    expect(plain.outs).toMatchObject({ chain: "goerli", outcome: "sent" });
    const posts = emulator()
      .requests()
      .filter((r) => r.method === "POST")
      .slice(-2)
      .map((r) => [r.path, r.status]);
    expect(posts).toEqual([
      ["/v1/faucet/sepolia", 200],
      ["/v1/faucet/goerli", 200],
    ]);
  });

  it("a chain the service does not serve fails the create with its 404; nothing sent or left in the journal", async () => {
    const to = address();
    await expect(createFaucetDrip({ address: to, chain: "mainnet" })).rejects.toThrow(
      /not_found[\s\S]*"mainnet"/,
    );
    expect(emulator().faucetSendCount(to)).toBe(0);
    expect(readdirSync(journal())).toEqual([]);
  });

  it("check: an absent, valid or unknown (preview) chain passes, and an absent one stays absent; an unknown address passes", async () => {
    const to = address();
    expect((await checkFaucetDrip(undefined, { address: UNKNOWN })).failures).toEqual([]);
    for (const news of [{ address: to }, { address: to, chain: "hoodi" }, { address: to, chain: UNKNOWN }]) {
      const checked = await checkFaucetDrip(undefined, news);
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toEqual(news);
    }
  });

  it("create refuses an invalid chain before anything is sent", async () => {
    const to = address();
    await expect(createFaucetDrip({ address: to, chain: "../nodes" })).rejects.toThrow(/chain: got/);
    expect(emulator().faucetSendCount(to)).toBe(0);
  });

  // `recorded`: the chain in state (absent: state written before chains existed); `given`: the program's.
  it.each([
    ["a new chain", "sepolia", { chain: "hoodi" }, ["chain"]],
    ["chain left out", "sepolia", {}, ["chain"]],
    ["a chain given, none recorded", undefined, { chain: "sepolia" }, ["chain"]],
    ["an unknown (preview) chain", "sepolia", { chain: UNKNOWN }, ["chain"]],
    ["a new address", undefined, { address: "0x" + "cd".repeat(20) }, ["address"]],
    [
      "a new address and chain",
      "sepolia",
      { address: "0x" + "cd".repeat(20), chain: "hoodi" },
      ["address", "chain"],
    ],
    ["none recorded, none given", undefined, {}, []],
    ["none recorded, goerli given", undefined, { chain: "goerli" }, []],
    ["goerli recorded, none given", "goerli", {}, []],
  ] as const)("diff, %s: replaces %j (update-replace)", async (_what, recorded, given, replaces) => {
    const to = "0x" + "ab".repeat(20);
    const olds: FaucetDripOutputs = {
      address: to,
      outcome: "sent",
      amountSent: "500000000000000000",
      transaction: "https://goerli.etherscan.example/tx/0xabc",
      note: "",
      ...(recorded === undefined ? {} : { chain: recorded }),
    };
    expect(await diffFaucetDrip("id", olds, { address: to, ...given })).toEqual({
      changes: replaces.length > 0,
      replaces,
      deleteBeforeReplace: false,
      diffs: replaces,
      detailedDiff: Object.fromEntries(
        replaces.map((p) => [p, { kind: "update-replace", inputDiff: false }]),
      ),
    });
  });

  it("the journal tells chains apart; goerli keeps the key of entries written before chains existed", async () => {
    const to = address();
    const url = emulator().url;
    // An entry left by an older version: keyed by the API URL and the address only.
    const legacy = createHash("sha256").update(`${url}\n${to}`).digest("hex").slice(0, 32);
    beginSend(url, to);
    expect(readdirSync(journal())).toEqual([`${legacy}.json`]);
    leaveAsInterrupted(`${legacy}.json`);
    // Another chain to the same address is not blocked by it...
    const sepolia = await createFaucetDrip({ address: to, chain: "sepolia" });
    expect(sepolia.outs.outcome).toBe("sent");
    expect(readdirSync(journal())).toEqual([`${legacy}.json`]);
    // ...but goerli (given, or left out) is.
    const goerli = await createFaucetDrip({ address: to, chain: "goerli" });
    expect(goerli.outs).toMatchObject({ outcome: "unknown", chain: "goerli" });
    expect(goerli.outs.note).toMatch(/interrupted/);
    expect(readdirSync(journal())).toEqual([]);
    expect(
      emulator()
        .faucetSends()
        .filter((s) => s.address === to)
        .map((s) => s.chain),
    ).toEqual(["sepolia"]);
    // An interrupted send on hoodi blocks hoodi only.
    beginSend(url, to, "hoodi");
    const [hoodiEntry] = readdirSync(journal());
    expect(hoodiEntry).not.toBe(`${legacy}.json`);
    leaveAsInterrupted(hoodiEntry);
    expect((await createFaucetDrip({ address: to, chain: "hoodi" })).outs.outcome).toBe("unknown");
    expect(emulator().faucetSendCount(to)).toBe(1);
  });
});
